package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Where a server lives.
//
// Every server of a cache directory lives in <cache>/serve, a directory
// only its owner may enter (0700): <id>.sock is the socket (0600),
// <id>.lock is held (flock) by the running server, <id>.cookies is the
// watcher's private directory and <id>.log the log of a detached server.
// <id> names the root by its real path, so that every spelling of one
// root reaches one server. A socket path longer than the system allows
// (about 104 bytes) moves the whole set to ctxexpand-<uid> under the
// temporary directory, made and checked the same way.

// Paths are the files of one root's server.
type Paths struct {
	Dir     string
	Socket  string
	Lock    string
	Cookies string
	Log     string
}

// maxSocketPath is the longest socket path every system accepts.
const maxSocketPath = 100

// PathsFor returns where the server of root lives under cacheDir.
func PathsFor(cacheDir, root string) Paths {
	id := RootKey(root)
	dir := filepath.Join(cacheDir, "serve")
	if len(filepath.Join(dir, id+".sock")) > maxSocketPath {
		dir = filepath.Join(os.TempDir(), "ctxexpand-"+strconv.Itoa(os.Geteuid()))
	}
	return Paths{Dir: dir, Socket: filepath.Join(dir, id+".sock"), Lock: filepath.Join(dir, id+".lock"),
		Cookies: filepath.Join(dir, id+".cookies"), Log: filepath.Join(dir, id+".log")}
}

// RootKey names a root: its real path (symbolic links resolved), hashed.
func RootKey(root string) string {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	sum := sha256.Sum256([]byte(filepath.Clean(root)))
	return hex.EncodeToString(sum[:12])
}

// errUnsafeDir says the server directory could be entered by others.
var errUnsafeDir = errors.New("not a private directory")

// ensurePrivateDir makes dir (0700) when missing, and refuses one that
// is a symbolic link, belongs to another user or that others may enter.
func ensurePrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("making %s: %w", dir, err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s: %w (it is a link or a file)", dir, errUnsafeDir)
	}
	if !ownedByMe(st) {
		return fmt.Errorf("%s: %w (it belongs to another user)", dir, errUnsafeDir)
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("%s: %w (mode %v): %v", dir, errUnsafeDir, st.Mode().Perm(), err)
		}
	}
	return nil
}
