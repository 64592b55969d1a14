package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// defaultMemoryLimit is the soft limit on the Go heap that ctxexpand sets
// unless GOMEMLIMIT does. Without one, the collector lets the heap grow to
// three times what is live (defaultGCPercent): on $(go env GOROOT)/src
// (2.8 million lines, about 460 MB live at the peak of a cold load) the
// heap would pass 1.3 GB. With this limit a cold load of it peaks at
// about 860 MB of resident memory for 5-10% more CPU (benchmarks/README,
// issue 23); trees whose heap stays under the limit (hugo, 200k lines,
// about 500 MB) never meet it. The limit follows the live heap up
// (followLive), so a tree whose live data nears it is not slowed by a
// collector running all the time.
const defaultMemoryLimit = 800 << 20

// defaultGCPercent is the collector's target that ctxexpand sets unless
// GOGC does: the heap may grow to three times what is live before a
// collection, the memory limit above bounding it on large trees. A run
// allocates much that dies young (syntax, type-checker state); with the
// default of 100, a cold load of hugo (200k lines, about 450 MB peak)
// spent 0.35 s more of its 3.2-3.5 s in the collector, measured side by
// side on 2 cores.
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
	following.Do(func() { startFollowing(&limitFollower{base: defaultMemoryLimit, set: debug.SetMemoryLimit}) })
}

// following starts the process's one follower (tests run many commands).
var following sync.Once

// limitFollower keeps the memory limit at least half as much again as
// the live heap. A soft limit below what is live would have the collector
// take up to half of the CPU for as long as that lasts; above it, the
// heap still grows no more than half again of its live data between
// collections.
type limitFollower struct {
	base int64                   // the limit while little is live
	set  func(limit int64) int64 // debug.SetMemoryLimit, or a test's
	mu   sync.Mutex
	now  int64 // the limit last set
	done bool  // stop following (tests)
}

// limitFor is the limit for a live heap of live bytes.
func (f *limitFollower) limitFor(live uint64) int64 {
	return max(f.base, int64(live+live/2))
}

// adjust sets the limit for the live heap the last collection found.
func (f *limitFollower) adjust() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	limit := f.limitFor(s[0].Value.Uint64())
	f.mu.Lock()
	defer f.mu.Unlock()
	if limit != f.now {
		f.set(limit)
		f.now = limit
	}
}

// gcTick is freed by every collection that finds it unreachable, which
// runs its finalizer. It holds a pointer so that the allocator never puts
// it in a block shared with other small objects.
type gcTick struct{ _ *byte }

// startFollowing adjusts f after every collection, for the life of the
// process: each tick's finalizer adjusts, then arms the next tick.
func startFollowing(f *limitFollower) {
	f.mu.Lock()
	f.now = f.base
	f.mu.Unlock()
	arm(f)
}

func arm(f *limitFollower) {
	runtime.SetFinalizer(&gcTick{}, func(*gcTick) {
		f.mu.Lock()
		done := f.done
		f.mu.Unlock()
		if !done {
			f.adjust()
			arm(f)
		}
	})
}
