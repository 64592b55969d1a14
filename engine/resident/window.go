package resident

import (
	"slices"
	"sync"
	"time"
)

// WindowSize is how many of the last durations a Window's percentiles
// cover.
const WindowSize = 1024

// Window keeps the last WindowSize durations of something (answering a
// query, making an edit's generation) and how many there were, for
// status reports. The zero value is empty and ready; it is safe for
// concurrent use.
type Window struct {
	mu   sync.Mutex
	n    int64 // added since the start
	sum  time.Duration
	ring [WindowSize]time.Duration
}

// Add records d.
func (w *Window) Add(d time.Duration) {
	w.mu.Lock()
	w.ring[w.n%WindowSize] = d
	w.n++
	w.sum += d
	w.mu.Unlock()
}

// Count is how many durations were added.
func (w *Window) Count() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// Sum is the total of the durations added.
func (w *Window) Sum() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sum
}

// Percentiles returns how many durations were added and the
// nearest-rank 50th, 95th and 99th percentiles of the last WindowSize.
func (w *Window) Percentiles() (n int64, p50, p95, p99 time.Duration) {
	w.mu.Lock()
	n = w.n
	window := slices.Clone(w.ring[:min(n, WindowSize)])
	w.mu.Unlock()
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
