// Command speed measures how fast ctxexpand answers on large real
// repositories, cold (empty index), warm (nothing changed), and after five
// files were touched or edited, with its peak memory, next to peers
// measured in the same run on the same files: ripgrep reading them,
// gopls answering a references query from a cold cache, repomix packing
// them and, on Rust trees, ast-grep parsing them with tree-sitter (the
// floor for ctxexpand's analysis, which is timed alone there too). It
// writes a markdown table and a PNG chart.
//
// Run it through benchmarks/speed.sh (make bench-speed), which builds
// ctxexpand and installs the peers that are missing. Repositories come
// from -checkouts (OWNER+NAME/COMMIT working trees, used read-only: each
// is copied before being measured) and -repos (OWNER+NAME/repo git
// directories, checked out into a temporary directory); those not present
// are skipped with a message. $(go env GOROOT)/src and its net/http are
// always measured, in place and without edits (the go command treats the
// standard library specially).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

type options struct {
	bin, checkouts, repos, work string
	out, chart                  string
	rg, gopls, repomix, astgrep string
	only                        string
	warm, rounds, queries       int
	timeout                     time.Duration
	keep, load                  bool
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "", "ctxexpand binary (default: built from this checkout into the work directory)")
	flag.StringVar(&o.checkouts, "checkouts", os.Getenv("CTXEXPAND_BENCH_CHECKOUTS"), "directory of OWNER+NAME/COMMIT working trees (default $CTXEXPAND_BENCH_CHECKOUTS, else a bench-cache/checkouts above this checkout)")
	flag.StringVar(&o.repos, "repos", os.Getenv("CTXEXPAND_BENCH_REPOS"), "directory of OWNER+NAME/repo git directories (default $CTXEXPAND_BENCH_REPOS, else a bench-repos above this checkout)")
	flag.StringVar(&o.work, "work", "", "scratch directory (default: a temporary one, removed afterwards)")
	flag.StringVar(&o.out, "out", "benchmarks/results.md", "markdown results")
	flag.StringVar(&o.chart, "chart", "benchmarks/speed.png", "PNG chart")
	flag.StringVar(&o.rg, "rg", "rg", "ripgrep binary (\"\" to skip)")
	flag.StringVar(&o.gopls, "gopls", "gopls", "gopls binary (\"\" to skip)")
	flag.StringVar(&o.repomix, "repomix", "repomix", "repomix binary (\"\" to skip)")
	flag.StringVar(&o.astgrep, "astgrep", "ast-grep", "ast-grep binary, the tree-sitter parsing floor for Rust trees (\"\" to skip)")
	flag.StringVar(&o.only, "only", "", "comma-separated subjects to run (default all present)")
	flag.IntVar(&o.warm, "warm", 5, "warm runs per repository (the median is reported)")
	flag.IntVar(&o.rounds, "rounds", 3, "rounds of touching and of editing five files (the median is reported); the resident server gets three times as many one-file edits")
	flag.IntVar(&o.queries, "queries", 100, "queries sent to the resident server (ctxexpand serve) on each tree that may be edited; 0 skips it")
	flag.DurationVar(&o.timeout, "timeout", 15*time.Minute, "limit on any one command")
	flag.BoolVar(&o.keep, "keep", false, "keep the scratch directory")
	flag.BoolVar(&o.load, "load", true, "after the trees, run the resident server's load test (TestServeLoad -load-full) and report it")
	flag.Parse()
	if err := run(context.Background(), &o); err != nil {
		fmt.Fprintln(os.Stderr, "speed:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "speed: "+format+"\n", args...)
}

func run(ctx context.Context, o *options) error {
	if o.work == "" {
		dir, err := os.MkdirTemp("", "ctxexpand-speed-")
		if err != nil {
			return err
		}
		o.work = dir
		if !o.keep {
			defer os.RemoveAll(dir)
		}
	}
	if o.bin == "" {
		o.bin = filepath.Join(o.work, "ctxexpand")
		logf("building ctxexpand")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", o.bin, "./cmd/ctxexpand")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building ctxexpand (run from the repository root): %w", err)
		}
	}
	if o.checkouts == "" {
		o.checkouts = findAbove("bench-cache/checkouts")
	}
	if o.repos == "" {
		o.repos = findAbove("bench-repos")
	}
	peers := resolvePeers(o)
	env := machine()
	var results []*result
	for _, spec := range subjects {
		if o.only != "" && !contains(strings.Split(o.only, ","), spec.name) {
			continue
		}
		sub, err := prepare(ctx, o, spec)
		if err != nil {
			logf("%s: skipped: %v", spec.name, err)
			continue
		}
		logf("%s: %d files, %d lines at %s", sub.name, sub.files, sub.lines, sub.commit)
		res := measure(ctx, o, sub, peers)
		results = append(results, res)
		// Partial results are written as they come: a long run that is
		// interrupted still leaves a table.
		if err := writeResults(o, env, peers, results, nil); err != nil {
			return err
		}
	}
	if len(results) == 0 {
		return fmt.Errorf("no repository could be measured")
	}
	if o.load {
		lr := measureLoad(ctx, o)
		if err := writeResults(o, env, peers, results, &lr); err != nil {
			return err
		}
	}
	logf("wrote %s and %s", o.out, o.chart)
	return nil
}

// findAbove looks for rel in the working directory and its ancestors.
func findAbove(rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}

// env describes the machine, for the report.
type env struct {
	cpus      int
	goVersion string
	load      string
	date      string
}

func machine() env {
	e := env{cpus: runtime.NumCPU(), date: time.Now().UTC().Format("2006-01-02")}
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err == nil {
		e.goVersion = strings.TrimSpace(string(out))
	}
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		f := strings.Fields(string(data))
		if len(f) >= 3 {
			e.load = strings.Join(f[:3], " ")
		}
	}
	return e
}
