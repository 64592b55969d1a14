package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMeasureFloor(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts stand in for the binaries")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	// The stand-in for ctxexpand fails unless its index directory is
	// empty (each analysis must be cold) and fills it, as index does.
	bin := script(t, dir, "ctxexpand", `
[ "$1" = index ] || { echo "want index, got $1" >&2; exit 2; }
cache="$6"
if [ -d "$cache" ] && [ -n "$(ls -A "$cache")" ]; then echo "index directory not empty" >&2; exit 1; fi
mkdir -p "$cache" && echo data > "$cache/snapshot"
echo "analysis $4" >> `+log+`
echo 'time=10:00:00.000 level=INFO msg=loaded phase=load took=120ms lang=rust files=3' >&2
echo 'time=10:00:00.000 level=INFO msg=loaded phase=load took=125.5ms lang=all files=3' >&2
`)
	threeFns := script(t, dir, "ast-grep", `
echo "astgrep $1" >> `+log+`
printf 'a.rs:1:1: help[function]: \nb.rs:2:1: help[function]: \nb.rs:9:5: help[function]: \n'
`)
	noFns := script(t, dir, "ast-grep-none", "exit 0\n")
	s := &subject{spec: spec{name: "tok/io", lang: "rust"}, root: dir}

	tests := []struct {
		name      string
		astgrep   string
		wantLog   []string
		wantFns   int
		wantErrs  int // failed ast-grep samples
		wantRanAG bool
	}{
		{"alternating", threeFns, []string{"analysis --quiet", "astgrep scan", "analysis --quiet", "astgrep scan", "analysis --quiet", "astgrep scan"}, 3, 0, true},
		{"no ast-grep", "", []string{"analysis --quiet", "analysis --quiet", "analysis --quiet"}, 0, 0, false},
		{"no match is a failure", noFns, []string{"analysis --quiet", "analysis --quiet", "analysis --quiet"}, 0, 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(log)
			o := &options{bin: bin, work: filepath.Join(dir, "work"), rounds: 3, timeout: time.Minute}
			f := measureFloor(context.Background(), o, s, peers{astgrep: tc.astgrep})
			data, _ := os.ReadFile(log)
			got := strings.Split(strings.TrimSpace(string(data)), "\n")
			if diff := cmp.Diff(tc.wantLog, got); diff != "" {
				t.Errorf("commands run (-want +got):\n%s", diff)
			}
			if len(f.analysis) != 3 || !f.analysisRan {
				t.Fatalf("analysis samples: %d, ran %v", len(f.analysis), f.analysisRan)
			}
			for i, smp := range f.analysis {
				if smp.err != nil {
					t.Errorf("analysis %d: %v", i, smp.err)
				}
			}
			if len(f.graph) != 3 || f.graph[0].wall != 125500*time.Microsecond {
				t.Errorf("graph (load phase) samples = %v, want three of 125.5ms", f.graph)
			}
			errs := 0
			for _, smp := range f.astgrep {
				if smp.err != nil {
					errs++
				}
			}
			if f.functions != tc.wantFns || errs != tc.wantErrs || f.astgrepRan != tc.wantRanAG {
				t.Errorf("functions %d, failed ast-grep runs %d, ran %v; want %d, %d, %v", f.functions, errs, f.astgrepRan, tc.wantFns, tc.wantErrs, tc.wantRanAG)
			}
			if _, err := os.Stat(filepath.Join(o.work, "analysis-cache", "tok-io")); !os.IsNotExist(err) {
				t.Errorf("the index directories were left behind: %v", err)
			}
		})
	}
}

func TestAnalysisArgs(t *testing.T) {
	want := []string{"index", "--root", "/r", "--quiet", "--cache-dir", "/c", "--verbose"}
	if diff := cmp.Diff(want, analysisArgs("/r", "/c")); diff != "" {
		t.Errorf("analysisArgs (-want +got):\n%s", diff)
	}
}

func TestLoadPhase(t *testing.T) {
	tests := []struct {
		stderr string
		want   time.Duration
		ok     bool
	}{
		{"time=1 level=INFO msg=loaded phase=load took=592.731ms lang=rust files=793\ntime=1 level=INFO msg=loaded phase=load took=605.584ms lang=all files=793\n", 605584 * time.Microsecond, true},
		{"time=1 level=INFO msg=loaded phase=load took=1.5s lang=all files=1\n", 1500 * time.Millisecond, true},
		{"time=1 level=INFO msg=loaded phase=load took=592ms lang=rust\n", 0, false},
		{"", 0, false},
		{"msg=loaded phase=load took=soon lang=all", 0, false},
	}
	for _, tt := range tests {
		got, ok := loadPhase(tt.stderr)
		if got != tt.want || ok != tt.ok {
			t.Errorf("loadPhase(%q) = %v, %v; want %v, %v", tt.stderr, got, ok, tt.want, tt.ok)
		}
	}
}
