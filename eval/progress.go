package eval

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"time"
)

// progress writes "instance i/n, ranker, elapsed" lines to a terminal,
// rewriting one line in place, and a final summary line to any writer.
type progress struct {
	w     io.Writer
	tty   bool
	n     int
	start time.Time

	mu   sync.Mutex
	done int
}

func newProgress(w io.Writer, tty bool, n int, start time.Time) *progress {
	return &progress{w: w, tty: tty, n: n, start: start}
}

// rankerStart reports that ranker begins on instance id.
func (p *progress) rankerStart(id, ranker string) {
	if p.w == nil || !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\x1b[K[%d/%d] %s  %s  %s", p.done+1, p.n, ranker, id, time.Since(p.start).Round(time.Second))
}

func (p *progress) instanceDone() {
	p.mu.Lock()
	p.done++
	p.mu.Unlock()
}

// finish writes the final line.
func (p *progress) finish(r *Report) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		io.WriteString(p.w, "\r\x1b[K")
	}
	errs := 0
	for _, s := range r.Summaries {
		if s.Group == "all" {
			errs += s.Errors
		}
	}
	reused := 0
	for _, in := range r.Instances {
		if in.CheckoutReused {
			reused++
		}
	}
	fmt.Fprintf(p.w, "eval: %d instances × %d rankers in %s%s (%d ranker errors, %d checkouts failed, %d reused; peak RSS %s)\n",
		len(r.Instances), len(r.Rankers), r.Wall.Round(100*time.Millisecond), perMinute(len(r.Instances), r.Wall),
		errs, r.CheckoutErrors(), reused, fmtBytes(r.PeakRSS))
}

// perMinute says how many instances a minute a run of n took wall: the
// throughput a feature dump is judged by. Runs under a second say nothing.
func perMinute(n int, wall time.Duration) string {
	if n == 0 || wall < time.Second {
		return ""
	}
	return fmt.Sprintf(", %.1f a minute", float64(n)/wall.Minutes())
}

// IsTerminal reports whether f is a character device (a terminal), the
// condition for rewriting progress lines in place.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// peakRSS reads the process's peak resident set size (VmHWM) from
// /proc/self/status; 0 where that file does not exist.
func peakRSS() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) == 0 {
			return 0
		}
		kb, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// heapMetric is the live heap: bytes in heap objects, reachable or not yet
// swept. Reading it does not stop the world.
const heapMetric = "/memory/classes/heap/objects:bytes"

// heapSampleEvery is how often the sampler reads the heap. Spikes shorter
// than this can be missed; the figure is an estimate for comparing rankers.
const heapSampleEvery = 5 * time.Millisecond

// heapSampler records the peak growth of the heap over a baseline taken
// after a forced collection. It is meaningful only when nothing else
// allocates concurrently, so the runner uses it with one job.
type heapSampler struct {
	base  uint64
	stopc chan struct{}
	done  chan uint64
}

func startHeapSampler() *heapSampler {
	runtime.GC()
	h := &heapSampler{base: readHeap(), stopc: make(chan struct{}), done: make(chan uint64, 1)}
	go func() {
		peak := h.base
		t := time.NewTicker(heapSampleEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				peak = max(peak, readHeap())
			case <-h.stopc:
				peak = max(peak, readHeap())
				h.done <- peak - h.base
				return
			}
		}
	}()
	return h
}

// stop ends sampling and returns the peak growth in bytes.
func (h *heapSampler) stop() uint64 {
	close(h.stopc)
	return <-h.done
}

func readHeap() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
