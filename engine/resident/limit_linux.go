package resident

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// isLimit reports whether adding a watch failed on the system's limit.
func isLimit(err error) bool { return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) }

func stampOf(fi os.FileInfo) stamp {
	s := stamp{size: fi.Size(), mtime: fi.ModTime()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ctime = time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
		s.ino = st.Ino
	}
	return s
}
