package resident

import (
	"bytes"
	"os"
	"strconv"
)

// RSS is the resident set size of this process, 0 when unknown: what a
// process holding a Repo costs in memory (serve --status, its metrics).
func RSS() int64 {
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
