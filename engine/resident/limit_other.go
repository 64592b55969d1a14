//go:build !linux

package resident

import (
	"errors"
	"os"
	"syscall"
)

// isLimit reports whether adding a watch failed on the system's limit.
func isLimit(err error) bool { return errors.Is(err, syscall.EMFILE) }

func stampOf(fi os.FileInfo) stamp { return stamp{size: fi.Size(), mtime: fi.ModTime()} }
