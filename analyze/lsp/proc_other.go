//go:build !unix

package lsp

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}

// killProcess kills the server process.
func killProcess(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
