package cli

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestLimitFollowsLiveHeap: the soft memory limit is the base while little
// is live and half as much again as the live heap otherwise, and a
// collection that finds more live than the base allows moves it there.
func TestLimitFollowsLiveHeap(t *testing.T) {
	const base = 4 << 20
	var (
		mu  sync.Mutex
		set []int64
	)
	f := &limitFollower{base: base, set: func(l int64) int64 {
		mu.Lock()
		set = append(set, l)
		mu.Unlock()
		return 0
	}}
	for _, c := range []struct {
		live uint64
		want int64
	}{{0, base}, {2 << 20, base}, {8 << 20, 12 << 20}, {1 << 30, 3 << 29}} {
		if got := f.limitFor(c.live); got != c.want {
			t.Errorf("limitFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}

	startFollowing(f)
	defer func() { f.mu.Lock(); f.done = true; f.mu.Unlock() }()
	live := make([]*[1 << 20]byte, 32) // 32 MiB live
	for i := range live {
		live[i] = new([1 << 20]byte)
	}
	followed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(set) > 0 && set[len(set)-1] >= 48<<20
	}
	// Finalizers run on their own goroutine after a collection; wait for
	// one (a bound on waiting, not on speed).
	for end := time.Now().Add(30 * time.Second); !followed() && time.Now().Before(end); {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
	if !followed() {
		t.Fatalf("limits set after collections with 32 MiB live: %v; want one of at least 48 MiB", set)
	}
}
