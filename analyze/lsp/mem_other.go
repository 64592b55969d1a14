//go:build !linux

package lsp

func peakMemory(pid int) string { return "" }
