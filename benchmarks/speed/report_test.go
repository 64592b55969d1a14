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

func ms(n int) sample { return sample{wall: time.Duration(n) * time.Millisecond, cpu: time.Duration(n/2) * time.Millisecond, rss: 100 << 10} }

// fakeResults are two repositories as the harness would have measured
// them, one with a failed peer.
func fakeResults() []*result {
	goRepo := &result{subject: &subject{spec: spec{name: "hugo", lang: "go", where: "checkout"}, lines: 150_000, files: 800, commit: "abc"},
		cold: ms(2500), warm: []sample{ms(250), ms(200), ms(400)}, touched: []sample{ms(260)}, edits: []sample{ms(900)},
		rg: []sample{ms(20)}, rgRan: true, gopls: ms(5000), goplsRan: true, repomix: sample{err: errors.New("timed out after 1s")}, repomixRan: true}
	rustRepo := &result{subject: &subject{spec: spec{name: "clap", lang: "rust", where: "repo"}, lines: 90_000, files: 300, commit: "def"},
		cold: ms(1500), warm: []sample{ms(150)}, touched: []sample{ms(160)}, edits: []sample{ms(300)}}
	goroot := &result{subject: &subject{spec: spec{name: "go/src", lang: "go", where: "goroot"}, lines: 2_800_000, readOnly: true},
		cold: sample{wall: 30 * time.Second, rss: 1300 << 10}, warm: []sample{ms(900)}}
	return []*result{goroot, goRepo, rustRepo}
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
		"clap: Rust ~100k lines: cold under 2 s = 1.50 s yes",
		"clap: Rust ~100k lines: warm p50 under 200 ms = 150 ms yes",
		"go/src: $(go env GOROOT)/src: peak memory under 1.5 GB = 1300 MiB yes",
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
	if err := writeResults(o, env{cpus: 2, goVersion: "go1.26", load: "1 1 1", date: "2026-01-01"}, p, fakeResults()); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(o.out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| hugo | go | abc | 800 | 150000 | 2.50 s | 250 ms | 260 ms | 900 ms | 100 MiB | 20 ms | 5.00 s | 100 MiB | timeout |",
		"| hugo | 0.50× | – | 12.50× | 45.00× |",
		"| hugo | 1.25 s | 125 ms | 130 ms | 450 ms | 2.50 s | – |",
		"repomix (not available: its cells are –)",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results lack %q:\n%s", want, md)
		}
	}
	if st, err := os.Stat(o.chart); err != nil || st.Size() < 1000 {
		t.Errorf("chart: %v", err)
	}
}
