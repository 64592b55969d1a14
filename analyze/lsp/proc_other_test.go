//go:build !unix

package lsp

func processAlive(pid int) bool { return false }
