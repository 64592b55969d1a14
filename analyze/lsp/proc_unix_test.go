//go:build unix

package lsp

import "syscall"

// processAlive reports whether a process with the PID exists (and is not
// a zombie waiting to be reaped, which Load always does).
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
