package serve

import (
	"slices"
	"sync"
	"time"
)

// LatencyWindow is how many of the last answers the latency figures of
// the status cover.
const LatencyWindow = 1024

// latencies keeps the durations of the last queries the server answered,
// from the request read to the answer made, for serve --status.
type latencies struct {
	mu   sync.Mutex
	n    int64 // answered since the start
	ring [LatencyWindow]time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.ring[l.n%LatencyWindow] = d
	l.n++
	l.mu.Unlock()
}

// count is how many queries were answered.
func (l *latencies) count() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// summary returns how many queries were answered and the nearest-rank
// 50th, 95th and 99th percentiles of the last LatencyWindow.
func (l *latencies) summary() (n int64, p50, p95, p99 time.Duration) {
	l.mu.Lock()
	n = l.n
	window := slices.Clone(l.ring[:min(n, LatencyWindow)])
	l.mu.Unlock()
	if len(window) == 0 {
		return n, 0, 0, 0
	}
	slices.Sort(window)
	at := func(p float64) time.Duration {
		i := int(p*float64(len(window))+0.999999) - 1
		return window[max(0, min(i, len(window)-1))]
	}
	return n, at(0.50), at(0.95), at(0.99)
}
