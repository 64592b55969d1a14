//go:build unix && !linux

package serve

import (
	"net"
	"os"
	"syscall"
)

// checkPeer relies on the socket directory's permissions where the
// peer's credentials cannot be read the Linux way.
func checkPeer(c net.Conn) error { return nil }

func ownedByMe(st os.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return !ok || int(s.Uid) == os.Geteuid()
}
