//go:build unix

package lsp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the server in a process group of its own, so that
// killing it also ends the helpers it started (go list, cargo).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcess kills the server's process group.
func killProcess(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if pgid := cmd.Process.Pid; pgid > 0 {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	cmd.Process.Kill()
}
