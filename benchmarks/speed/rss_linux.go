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

// settle writes out what earlier commands left in the page cache (gopls
// fills a cache of hundreds of megabytes), so that the kernel's writeback
// does not run during the next measurement.
func settle() { syscall.Sync() }
