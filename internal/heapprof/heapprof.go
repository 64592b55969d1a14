// Package heapprof writes a heap profile taken near a process's peak of
// live heap rather than at its exit: what ctxexpand --memprofile writes
// (how the memory figures in benchmarks/ were explained).
package heapprof

import (
	"bytes"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// Peak samples the live heap every 50 ms and keeps a heap
// profile of the largest one seen (taken again whenever the heap has grown
// by a tenth since the last one kept), so that `go tool pprof -sample_index
// inuse_space` shows what was live at the run's peak rather than at exit.
// The returned function stops sampling and writes the profile to path.
func Peak(path string) func() error {
	stop, done := make(chan struct{}), make(chan struct{})
	var best bytes.Buffer
	go func() {
		defer close(done)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var kept uint64
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				continue
			}
			if live := sample[0].Value.Uint64(); live > kept+kept/10 {
				kept = live
				best.Reset()
				_ = pprof.Lookup("heap").WriteTo(&best, 0)
			}
		}
	}()
	return func() error {
		close(stop)
		<-done
		if best.Len() == 0 {
			_ = pprof.Lookup("heap").WriteTo(&best, 0)
		}
		return os.WriteFile(path, best.Bytes(), 0o644)
	}
}
