package cli

import (
	"os"
	"runtime/debug"
)

// defaultMemoryLimit is the soft limit on the Go heap that ctxexpand sets
// unless GOMEMLIMIT does. Without one, the collector lets the heap grow to
// twice what is live: on $(go env GOROOT)/src (2.8 million lines) the peak
// resident set was 1.8 GB for some 0.7 GB live; with this limit it stays
// near 1.2 GB for about a tenth more CPU in the collector. Repositories
// whose live data exceeds it still load: the limit is soft, and the
// runtime caps the collector's share of CPU when it is exceeded.
const defaultMemoryLimit = 1200 << 20

// setMemoryLimit applies defaultMemoryLimit when the user set none.
func setMemoryLimit() {
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		return
	}
	debug.SetMemoryLimit(defaultMemoryLimit)
}
