package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func ms(n int) sample {
	return sample{wall: time.Duration(n) * time.Millisecond, cpu: time.Duration(n/2) * time.Millisecond, rss: 100 << 10}
}

// fakeResults are repositories as the harness would have measured them:
// one with a failed peer, a Rust tree with its analysis and ast-grep, and
// the Go tree with one of its directories.
func fakeResults() []*result {
	goRepo := &result{subject: &subject{spec: spec{name: "hugo", lang: "go", where: "checkout"}, lines: 150_000, files: 800, commit: "abc"},
		cold: ms(2500), warm: []sample{ms(250), ms(200), ms(400)}, touched: []sample{ms(260)}, edits: []sample{ms(900)},
		rg: []sample{ms(20)}, rgRan: true, gopls: ms(5000), goplsRan: true, repomix: sample{err: errors.New("timed out after 1s")}, repomixRan: true,
		pack: packRun{ran: true, size: 30 << 20, write: ms(400), seed: ms(300), first: ms(260), used: true}}
	rustRepo := &result{subject: &subject{spec: spec{name: "clap", lang: "rust", where: "repo"}, lines: 90_000, files: 300, commit: "def"},
		cold: ms(1500), warm: []sample{ms(150)}, touched: []sample{ms(160)}, edits: []sample{ms(300)},
		floor: floor{analysisRan: true, astgrepRan: true, functions: 7250,
			analysis: []sample{ms(1300), ms(1100), {err: errors.New("exit status 3")}},
			graph:    []sample{ms(600), ms(500)},
			astgrep:  []sample{ms(700), ms(650), ms(800)}}}
	tokio := &result{subject: &subject{spec: spec{name: "tokio", lang: "rust", where: "repo"}, lines: 180_000, files: 800, commit: "fed"},
		cold: ms(2000), warm: []sample{ms(150)},
		floor: floor{analysisRan: true, astgrepRan: true, functions: 1,
			analysis: []sample{ms(2500)}, graph: []sample{ms(2100)}, astgrep: []sample{ms(1000)}}}
	nethttp := &result{subject: &subject{spec: spec{name: "net/http", lang: "go", where: "goroot", id: "net/http"}, lines: 77_000, readOnly: true},
		cold: sample{wall: 3 * time.Second, rss: 400 << 10}, warm: []sample{ms(200)}}
	goroot := &result{subject: &subject{spec: spec{name: "go/src", lang: "go", where: "goroot"}, lines: 2_800_000, readOnly: true},
		cold: sample{wall: 30 * time.Second, rss: 1300 << 10}, warm: []sample{ms(900)}, gopls: ms(20000), goplsRan: true}
	return []*result{goroot, nethttp, goRepo, rustRepo, tokio}
}

func TestTargets(t *testing.T) {
	var got []string
	for _, tg := range targets(fakeResults()) {
		got = append(got, tg.repo+": "+tg.what+" = "+tg.got+" "+tg.met)
	}
	want := []string{
		"hugo: Go ~150k lines: cold under 3 s = 2.50 s yes",
		"hugo: Go ~150k lines: cold within 1.5× gopls cold = 0.50× yes",
		"hugo: Go ~150k lines: warm p50 under 300 ms = 250 ms yes",
		"hugo: Go ~150k lines: touch 5 files, under 600 ms = 260 ms yes",
		"hugo: Go ~150k lines: edit 5 files, under 600 ms = 900 ms no",
		"hugo: Go ~150k lines: first query from a pack within 1.25× warm p50 = 1.04× yes",
		"clap: Rust ~100k lines: cold under 2 s = 1.50 s yes",
		"clap: Rust ~100k lines: warm p50 under 200 ms = 150 ms yes",
		"clap: Rust: ctxexpand index (cold) within 1.5× ast-grep = 1.86× no",
		"clap: Rust: full graph (cold load) within 2× ast-grep = 0.86× yes",
		"tokio: Rust: ctxexpand index (cold) within 1.5× ast-grep = 2.50× no",
		"tokio: Rust: full graph (cold load) within 2× ast-grep = 2.10× no",
		"go/src: $(go env GOROOT)/src: peak memory at most 900 MB = 1300 MiB no",
		"go/src: $(go env GOROOT)/src: cold at most 1.0× gopls cold = 1.50× no",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
}

func TestMarkdownAndChart(t *testing.T) {
	dir := t.TempDir()
	o := &options{out: filepath.Join(dir, "results.md"), chart: filepath.Join(dir, "speed.png")}
	if p := os.Getenv("SPEED_CHART_OUT"); p != "" {
		o.chart = p // to look at the chart
	}
	p := peers{versions: map[string]string{"ripgrep": "ripgrep 13", "gopls": "gopls v0.21.1"}}
	lr := &loadRun{took: 95 * time.Second, report: "8 clients × 200 queries in 1m30s with 900 edits (17 queries/s): p50 3.1ms, p95 9.8ms, p99 20ms; answers from 40 generations"}
	if err := writeResults(o, env{cpus: 2, goVersion: "go1.26", load: "1 1 1", date: "2026-01-01"}, p, fakeResults(), lr); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(o.out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| hugo | go | abc | 800 | 150000 | 2.50 s | 250 ms | 260 ms | 900 ms | 100 MiB | 20 ms | – | 5.00 s | 100 MiB | timeout |",
		"| clap | rust | def | 300 | 90000 | 1.50 s | 150 ms | 160 ms | 300 ms | 100 MiB | – | 700 ms | – | – | – |",
		"| net/http | go |  | 0 | 77000 | 3.00 s | 200 ms | – | – | 400 MiB | – | – | – | – | – |",
		"| hugo | 0.50× | – | 12.50× | 45.00× | – | – | – |",
		"| clap | – | – | – | – | 0.86× | 1.86× | 1.86× |",
		"| hugo | 1.25 s | 125 ms | 130 ms | 450 ms | 2.50 s | – |",
		"| clap | 300 | 90000 | 600 ms | 1.30 s | 650 ms | 100 MiB | 700 ms | 350 ms | 100 MiB | 7250 |",
		"| hugo | 30.0 MiB | 400 ms | 300 ms | 260 ms | 250 ms | 1.04× | 0.22× | yes |",
		"Medians of 3 runs each",
		"repomix (not available: its cells are –)",
		"ast-grep (not available: its cells are –)",
		"gopls takes the enclosing module, the whole standard library",
		"Passed in 95.00 s: 8 clients × 200 queries in 1m30s",
		"| Resident server under load: 1,600 answers, each a fresh load's, no error, RSS within 10% | testdata/gosvc | passed; p50 3.1ms, p95 9.8ms, p99 20ms | yes |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results lack %q:\n%s", want, md)
		}
	}
	if st, err := os.Stat(o.chart); err != nil || st.Size() < 1000 {
		t.Errorf("chart: %v", err)
	}
}

// goTree is a Go tree measured cold and warm, for the scaling table.
func goTree(name string, lines int, cold, cpu time.Duration, rssMiB int64) *result {
	return &result{subject: &subject{spec: spec{name: name, lang: "go", where: "checkout"}, lines: lines, files: lines / 200},
		cold: sample{wall: cold, cpu: cpu, rss: rssMiB << 10}, warm: []sample{{wall: cold / 20}}}
}

func TestScaling(t *testing.T) {
	// Linear: twice the lines, twice the CPU. Listed out of order.
	linear := []*result{
		goTree("mid", 200_000, 5*time.Second, 2*time.Second, 200),
		goTree("small", 100_000, 3*time.Second, time.Second, 100),
		goTree("large", 400_000, 9*time.Second, 4*time.Second, 400),
		{subject: &subject{spec: spec{name: "clap", lang: "rust"}, lines: 90_000}, cold: ms(1500)},
	}
	tg, ok := scalingTarget(linear)
	if !ok || tg.got != "1.00" || tg.met != "yes" || tg.repo != "small … large (3 trees)" {
		t.Errorf("linear growth: %+v %v", tg, ok)
	}
	var b strings.Builder
	writeScaling(&b, linear)
	out := b.String()
	for _, want := range []string{
		"| small | 500 | 100000 | 3.00 s | 1.00 s | 100 MiB | 150 ms | 3.00 s | 1.00 s | 100 MiB | 150 ms |",
		"| large | 2000 | 400000 | 9.00 s | 4.00 s | 400 MiB | 450 ms | 2.25 s | 1.00 s | 100 MiB | 112 ms |",
		"| growth exponent | | | 0.79 | 1.00 | 1.00 | 0.79 | | | | |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scaling table lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "| small |") > strings.Index(out, "| mid |") || strings.Contains(out, "clap") {
		t.Errorf("rows must be the Go trees, smallest first:\n%s", out)
	}

	// Quadratic: four times the CPU for twice the lines.
	quad := []*result{
		goTree("a", 100_000, time.Second, time.Second, 100),
		goTree("b", 200_000, 4*time.Second, 4*time.Second, 100),
		goTree("c", 400_000, 16*time.Second, 16*time.Second, 100),
	}
	if tg, ok := scalingTarget(quad); !ok || tg.got != "2.00" || tg.met != "no" {
		t.Errorf("quadratic growth: %+v %v", tg, ok)
	}
	// Two trees are too few to call a trend a target.
	if _, ok := scalingTarget(quad[:2]); ok {
		t.Errorf("a target from two trees")
	}
}
