package eval

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// syntheticReport is a report with fixed numbers, for golden output.
func syntheticReport() *Report {
	curve := func(vals ...float64) []float64 {
		out := make([]float64, MaxK)
		for i := range out {
			out[i] = vals[min(i, len(vals)-1)]
		}
		return out
	}
	sum := func(ranker, group string, n int, base float64, p50, p95 time.Duration) Summary {
		return Summary{
			Ranker: ranker, Group: group, N: n,
			Hit: curve(base, base+0.1, base+0.2, base+0.25, base+0.3, base+0.3, base+0.3, base+0.3, base+0.3, base+0.35),
			Rec: curve(base-0.05, base+0.05, base+0.1, base+0.15, base+0.2, base+0.25),
			All: curve(base-0.1, base, base+0.05, base+0.1, base+0.15),
			MRR: base + 0.12, Inc: []float64{base - 0.2, base - 0.1, base, base + 0.1},
			TimeP50: p50, TimeP95: p95,
		}
	}
	r := &Report{
		Rankers: []string{"bm25", "ctxexpand"},
		Budgets: []int{4000, 8000, 16000, 32000},
		Instances: []InstanceReport{
			{ID: "a/b@1", Lang: "go"}, {ID: "a/c@2", Lang: "rust"}, {ID: "a/d@3", Lang: "go", CheckoutError: "no repo"},
		},
		Summaries: []Summary{
			sum("bm25", "all", 2, 0.5, 51*time.Millisecond, 1200*time.Millisecond),
			sum("ctxexpand", "all", 2, 0.6, 2*time.Second, 15*time.Second),
			sum("bm25", "go", 1, 0.4, 50*time.Millisecond, 50*time.Millisecond),
			sum("ctxexpand", "go", 1, 0.45, 2*time.Second, 2*time.Second),
			sum("bm25", "rust", 1, 0.55, 1200*time.Millisecond, 1200*time.Millisecond),
			sum("ctxexpand", "rust", 1, 0.6, 15*time.Second, 15*time.Second),
		},
	}
	r.Summaries[1].Errors = 1
	r.Summaries[5].Errors = 1
	return r
}

func TestWriteMarkdownGolden(t *testing.T) {
	var b bytes.Buffer
	if err := syntheticReport().WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.md.golden")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
}

func TestReportGroupsAndLabels(t *testing.T) {
	r := syntheticReport()
	if diff := cmp.Diff([]string{"all", "go", "rust"}, r.Groups()); diff != "" {
		t.Errorf("Groups (-want +got):\n%s", diff)
	}
	r.Instances = r.Instances[:1]
	if diff := cmp.Diff([]string{"all", "go"}, r.Groups()); diff != "" {
		t.Errorf("Groups of a Go-only run (-want +got):\n%s", diff)
	}
	for b, want := range map[int]string{4000: "4k", 4096: "4k", 32768: "32k", 1500: "1500", 512: "512", 100000: "100k"} {
		if got := BudgetLabel(b); got != want {
			t.Errorf("BudgetLabel(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestPeakRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc on this system")
	}
	if got := peakRSS(); got < 1<<20 {
		t.Errorf("peakRSS = %d bytes, want at least a megabyte", got)
	}
}

func TestHeapSampler(t *testing.T) {
	h := startHeapSampler()
	keep := make([][]byte, 0, 64)
	for range 64 {
		keep = append(keep, make([]byte, 1<<20))
	}
	time.Sleep(3 * heapSampleEvery)
	grew := h.stop()
	if grew < 32<<20 {
		t.Errorf("heap growth = %d bytes while holding 64 MiB", grew)
	}
	_ = keep[len(keep)-1]
}
