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

// defaultGCPercent is the collector's target that ctxexpand sets unless
// GOGC does: the heap may grow to three times what is live before a
// collection, the memory limit above bounding it on large trees. A run
// allocates much that dies young (syntax, type-checker state); with the
// default of 100, a cold load of hugo (200k lines, about 450 MB peak)
// spent 0.35 s more of its 3.2-3.5 s in the collector, measured side by
// side on 2 cores; on GOROOT/src, where the limit binds, the peak
// stayed at 1.25 GB either way.
const defaultGCPercent = 200

// setMemoryLimit applies defaultMemoryLimit and defaultGCPercent when the
// user set neither.
func setMemoryLimit() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(defaultGCPercent)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		return
	}
	debug.SetMemoryLimit(defaultMemoryLimit)
}
