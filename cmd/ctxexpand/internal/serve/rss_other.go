//go:build !linux

package serve

func rss() int64 { return 0 }
