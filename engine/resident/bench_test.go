package resident_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/benchmarks/varied"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
)

// The resident Repo on a real repository: CTXEXPAND_BENCH_ROOT names a
// checkout the benchmark may edit (it restores what it edits), and
// CTXEXPAND_BENCH_CACHE an index directory (default: a fresh one). The
// benchmarks are skipped without them; benchmarks/speed measures the same
// through the command line.

func benchRoot(b *testing.B) (string, *index.Store) {
	root := os.Getenv("CTXEXPAND_BENCH_ROOT")
	if root == "" {
		b.Skip("set CTXEXPAND_BENCH_ROOT to a repository to measure")
	}
	dir := os.Getenv("CTXEXPAND_BENCH_CACHE")
	if dir == "" {
		dir = b.TempDir()
	}
	st, err := index.Open(index.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	return root, st
}

func benchRepo(b *testing.B, root string, st *index.Store) *resident.Repo {
	e, err := resident.Start(context.Background(), resident.Options{Root: root, NoPrime: noPrime(), Configure: func() (engine.LoadOptions, error) {
		opt := engine.LoadOptions{Index: st}
		if os.Getenv("BENCH_LOG") != "" { // the loaders' lines: what each load checked
			opt.Logf = func(f string, a ...any) { b.Logf(f, a...) }
		}
		return opt, nil
	}, Logf: func(f string, a ...any) { b.Logf(f, a...) }})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	if _, err := e.Acquire(context.Background()); err != nil {
		b.Fatal(err)
	}
	// Priming (prime.go) runs once a generation is ready; the figures
	// are a primed server's unless BENCH_NO_PRIME is set.
	for e.Status().PrimeTook == 0 && !noPrime() {
		time.Sleep(10 * time.Millisecond)
	}
	return e
}

func noPrime() bool { return os.Getenv("BENCH_NO_PRIME") != "" }

// BenchmarkResidentQuery answers varied queries (varied.Queries) from the
// loaded repository, JSON at 16k tokens, and reports the median and 95th
// percentile per query. With -benchtime 100x each query is asked once, as
// an agent would; more iterations ask them again (BENCH_QUERY_WARM=1
// asks each once before timing). BENCH_CPUPROFILE=FILE profiles the timed
// queries alone; BENCH_MEMPROFILE=FILE writes the heap live after them.
func BenchmarkResidentQuery(b *testing.B) {
	root, st := benchRoot(b)
	e := benchRepo(b, root, st)
	queries := varied.Queries(root, varied.Sources(root), 100)
	req := engine.Request{Budget: 16000, Format: "json", Tokenizer: "o200k", NoNetwork: true}
	// One query that is not among them first: the tokenizer's tables.
	warm := []string{"where is the main entry point"}
	if os.Getenv("BENCH_QUERY_WARM") == "1" {
		warm = append(warm, queries...)
	}
	for _, q := range warm {
		req.Query = q
		if _, _, err := e.Query(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
	var took []time.Duration
	cpu0 := testenv.CPUTime()
	if f := os.Getenv("BENCH_CPUPROFILE"); f != "" {
		stop, err := profileCPU(f)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		req.Query = queries[i%len(queries)]
		start := time.Now()
		if _, _, err := e.Query(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	p50, p95 := percentiles(took)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p95.Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/1000/float64(len(took)), "cpu-ms/op")
	if f := os.Getenv("BENCH_MEMPROFILE"); f != "" {
		b.StopTimer()
		if err := writeHeapProfile(f); err != nil {
			b.Fatal(err)
		}
	}
}

// writeHeapProfile writes what is live after a collection: what the
// engine keeps between queries (BENCH_MEMPROFILE=FILE).
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	runtime.GC()
	return pprof.WriteHeapProfile(f)
}

// BenchmarkResidentEdit appends a comment line to one source file and
// times the next query, which must include the edit. BENCH_CPUPROFILE=FILE
// profiles the edits alone (with the untimed ones that undo them).
func BenchmarkResidentEdit(b *testing.B) {
	benchEdits(b, "", func(i int) (string, string) {
		return fmt.Sprintf("\n// edit %d\n", i), "fix the rendering of nested templates"
	})
}

// BenchmarkResidentDeclEdit appends a new function to one Go source file
// and asks for it by its name: a declaration edit, which changes the
// package's surface where a comment does not.
func BenchmarkResidentDeclEdit(b *testing.B) {
	benchEdits(b, ".go", func(i int) (string, string) {
		name := fmt.Sprintf("BenchDeclEdit%d", i)
		return fmt.Sprintf("\nfunc %s() int { return %d }\n", name, i), name
	})
}

// benchEdits times edits made by appending what edit gives to a source
// file whose name ends in ext ("" for any), each followed by the query it
// gives (see BenchmarkResidentEdit).
func benchEdits(b *testing.B, ext string, edit func(i int) (text, query string)) {
	root, st := benchRoot(b)
	e := benchRepo(b, root, st)
	var files []string
	for _, f := range varied.Sources(root) {
		if strings.HasSuffix(f, ext) {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		b.Skipf("no %s source files", ext)
	}
	req := engine.Request{Query: "fix the rendering of nested templates", Budget: 16000, Format: "json", Tokenizer: "o200k", NoNetwork: true}
	if _, _, err := e.Query(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	var took []time.Duration
	var cpu time.Duration
	if f := os.Getenv("BENCH_CPUPROFILE"); f != "" {
		stop, err := profileCPU(f) // the restores too: edits as well
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := filepath.Join(root, files[(i*7919)%len(files)])
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		text, q := edit(i)
		start, cpu0 := time.Now(), testenv.CPUTime()
		if err := os.WriteFile(p, append(data, text...), 0o644); err != nil {
			b.Fatal(err)
		}
		asked := req
		asked.Query = q
		_, snap, err := e.Query(context.Background(), asked)
		if err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
		cpu += testenv.CPUTime() - cpu0
		b.StopTimer()
		os.WriteFile(p, data, 0o644)
		if _, _, err := e.Query(context.Background(), req); err != nil { // apply the restore outside the timing
			b.Fatal(err)
		}
		_ = snap
		b.StartTimer()
	}
	p50, p95 := percentiles(took)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p95.Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(took)), "cpu-ms/op")
}

func percentiles(d []time.Duration) (p50, p95 time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2], s[min(len(s)-1, len(s)*95/100)]
}

// profileCPU writes a CPU profile of what runs until stop to path: with
// BENCH_CPUPROFILE=FILE, BenchmarkResidentQuery profiles its timed queries
// alone, where go test's -cpuprofile also holds the load.
func profileCPU(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
