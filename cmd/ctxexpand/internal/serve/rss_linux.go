package serve

import (
	"bytes"
	"os"
	"strconv"
)

// rss is the resident set size of this process, 0 when unknown.
func rss() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			f := bytes.Fields(v)
			if len(f) >= 1 {
				n, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return n * 1024
			}
		}
	}
	return 0
}
