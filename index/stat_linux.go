//go:build linux

package index

import (
	"io/fs"
	"syscall"
)

// statExtra is the inode and change time of a file, which catch a file
// replaced by another of the same size and modification time.
func statExtra(info fs.FileInfo) (ino uint64, ctime int64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return 0, 0
}
