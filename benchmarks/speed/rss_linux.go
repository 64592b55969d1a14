//go:build linux

package main

import (
	"os"
	"syscall"
)

// maxRSS is a finished process's peak resident set in KiB.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
