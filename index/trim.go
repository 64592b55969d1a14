package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Trimming.
//
// Entries are immutable and content-addressed, so old ones are only ever
// garbage: a run that touched a file no longer reads the entries of its
// old content. Get refreshes an entry's modification time at most once
// a day; Trim, at most once a day, removes entries unused for MaxAge.
// Trimming holds a lock file so that two processes do not walk the index
// at once; a lock older than staleLock is the leftover of a killed run and
// is broken. Removing an entry another process is about to read is
// harmless: it reads a miss and computes the entry again.

const (
	trimEvery = 24 * time.Hour
	staleLock = 10 * time.Minute
)

// ErrLocked is returned by Trim when another process is trimming.
var ErrLocked = errors.New("the index is being trimmed by another process")

// TrimIfDue trims the index when the last trim is more than a day old.
// It returns the number of entries removed.
func (s *Store) TrimIfDue() (int, error) {
	stamp := filepath.Join(s.dir, "trim.stamp")
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < trimEvery {
		return 0, nil
	}
	return s.Trim()
}

// Trim removes entries not used for MaxAge, under the trim lock.
func (s *Store) Trim() (int, error) {
	unlock, err := s.lock("trim.lock")
	if err != nil {
		return 0, err
	}
	defer unlock()
	cutoff := time.Now().Add(-s.maxAge)
	removed := 0
	objects := filepath.Join(s.dir, "objects")
	err = filepath.WalkDir(objects, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().Before(cutoff) {
			if os.Remove(p) == nil {
				removed++
			}
		}
		return nil
	})
	now := time.Now()
	stamp := filepath.Join(s.dir, "trim.stamp")
	if werr := os.WriteFile(stamp, nil, 0o644); werr == nil {
		os.Chtimes(stamp, now, now)
	}
	return removed, err
}

// lock takes an exclusive lock file, breaking a stale one once.
func (s *Store) lock(name string) (func(), error) {
	p := filepath.Join(s.dir, name)
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(p) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		st, serr := os.Stat(p)
		if serr != nil || time.Since(st.ModTime()) < staleLock {
			return nil, ErrLocked
		}
		s.noticef("index: removed a stale lock left by a killed run (%s, pid %s)", name, readPID(p))
		os.Remove(p)
	}
	return nil, ErrLocked
}

func readPID(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return "unknown"
	}
	n, err := strconv.Atoi(string(trimNL(data)))
	if err != nil {
		return "unknown"
	}
	return strconv.Itoa(n)
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
