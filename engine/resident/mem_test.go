package resident_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/ctxexpand/ctxexpand/benchmarks/varied"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// BenchmarkResidentMemory measures what a Repo keeps on
// CTXEXPAND_BENCH_ROOT (see benchRoot): the live heap and the resident
// memory once the garbage is collected and returned, after a start from
// a warm on-disk index and one query (start-*), and after five edits,
// each answered (edited-*); src-MiB is the text of the current
// generation's files, which a generation keeps (engine.LoadOptions.Resident).
// Run it with -benchtime 1x: each iteration starts a Repo.
func BenchmarkResidentMemory(b *testing.B) {
	root, st := benchRoot(b)
	load := engine.LoadOptions{Index: st, NoHistory: true}
	s, err := engine.Open(context.Background(), root, load) // the index, warm
	if err != nil {
		b.Fatal(err)
	}
	s.Close()
	files := varied.Sources(root)
	req := engine.Request{Query: "fix the rendering of nested templates", Budget: 16000, Format: "json", NoNetwork: true}
	for b.Loop() {
		e, err := resident.Start(context.Background(), resident.Options{Root: root,
			Configure: func() (engine.LoadOptions, error) { return load, nil }})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := e.Query(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		heap, rss := kept()
		b.ReportMetric(heap, "start-heap-MiB")
		b.ReportMetric(rss, "start-rss-MiB")
		for i := range 5 {
			p := filepath.Join(root, files[(i*7919)%len(files)])
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			defer os.WriteFile(p, data, 0o644)
			os.WriteFile(p, append(data, fmt.Sprintf("\n// edit %d\n", i)...), 0o644)
			if _, _, err := e.Query(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		snap, err := e.Acquire(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		var src int64
		for _, f := range snap.Session.Facts.Files {
			if f.Hash != "" {
				src += f.Size
			}
		}
		heap, rss = kept()
		b.ReportMetric(heap, "edited-heap-MiB")
		b.ReportMetric(rss, "edited-rss-MiB")
		b.ReportMetric(float64(src)/(1<<20), "src-MiB")
		e.Close()
	}
}

// kept is the live heap and the resident set size, in MiB, once the
// garbage is collected and returned to the system.
func kept() (heap, rss float64) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap = float64(ms.HeapAlloc) / (1 << 20)
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			if f := bytes.Fields(v); len(f) > 0 {
				n, _ := strconv.ParseInt(string(f[0]), 10, 64)
				rss = float64(n) / 1024
			}
		}
	}
	return heap, rss
}
