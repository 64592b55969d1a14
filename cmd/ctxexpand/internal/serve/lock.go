package serve

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrRunning says another server holds the root's lock.
var ErrRunning = errors.New("a server for this repository is already running")

// lockFile holds the root's lock for the life of the server; the system
// releases it when the process ends, however it ends.
type lockFile struct{ f *os.File }

func acquireLock(path string) (*lockFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return &lockFile{f}, nil
}

func (l *lockFile) release() {
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}
