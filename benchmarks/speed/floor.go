package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The floor of a Rust tree: what parsing every file with tree-sitter costs
// a fast tool that does nothing more (ast-grep), next to ctxexpand's whole
// analysis without a query, so that the difference is what ctxexpand adds
// (module resolution, symbols, edges, the search index, storing it).

// astgrepRule is the rule ast-grep matches on every Rust file: all
// function items. The pattern `fn $NAME($$$ARGS) $$$BODY` is not used:
// a pattern's bare `fn` does not match a function with a visibility or an
// async modifier, so on tokio it finds fewer than half of the functions
// (3,384 of 7,250). A kind rule parses the same files the same way and
// matches them all.
const astgrepRule = "id: function\nlanguage: rust\nrule:\n  kind: function_item\n"

// astgrepArgs is the ast-grep command line for a tree: one short line per
// match on stdout (FILE:LINE:COL and the rule), the cheapest report.
func astgrepArgs(root string) []string {
	return []string{"scan", "--inline-rules", astgrepRule, "--report-style=short", "--color=never", root}
}

// analysisArgs is ctxexpand's analysis alone: `index` loads the
// repository and builds the whole graph and search index, as a cold query
// does before it plans, expands and bundles, and stores them in cacheDir,
// which must be empty for the run to be cold. --verbose makes it log the
// duration of each phase on stderr, of which loadPhase reads the graph's.
func analysisArgs(root, cacheDir string) []string {
	return []string{"index", "--root", root, "--quiet", "--cache-dir", cacheDir, "--verbose"}
}

// loadLine is the --verbose record of the load phase over all languages:
// reading every file, parsing it, extracting symbols and resolving the
// edges between them, i.e. building the full graph.
var loadLine = regexp.MustCompile(`msg=loaded phase=load took=(\S+) lang=all`)

// loadPhase returns the duration of the load phase a verbose run logged.
func loadPhase(stderr string) (time.Duration, bool) {
	m := loadLine.FindAllStringSubmatch(stderr, -1)
	if len(m) == 0 {
		return 0, false
	}
	d, err := time.ParseDuration(m[len(m)-1][1])
	return d, err == nil
}

// floor is what was measured of one Rust tree.
type floor struct {
	analysis    []sample // ctxexpand index into an empty index directory
	graph       []sample // the load phase of each successful analysis (wall time only)
	astgrep     []sample
	analysisRan bool
	astgrepRan  bool
	functions   int // matches of the last successful ast-grep run
}

// measureFloor times ctxexpand's cold analysis and ast-grep, alternating
// between them so that a change of the machine's load falls on both.
func measureFloor(ctx context.Context, o *options, s *subject, p peers) floor {
	var f floor
	runs := max(o.rounds, 1)
	base := filepath.Join(o.work, "analysis-cache", strings.ReplaceAll(s.name, "/", "-"))
	defer os.RemoveAll(base)
	logf("%s: ctxexpand analysis (cold) and ast-grep, %d runs each", s.name, runs)
	for i := 0; i < runs; i++ {
		cache := filepath.Join(base, strconv.Itoa(i))
		os.RemoveAll(cache)
		f.analysisRan = true
		an := runCmd(ctx, o.timeout, s.root, nil, o.bin, analysisArgs(s.root, cache)...)
		f.analysis = append(f.analysis, an)
		if an.err == nil {
			if d, ok := loadPhase(an.stderr); ok {
				f.graph = append(f.graph, sample{wall: d})
			}
		}
		os.RemoveAll(cache)
		if p.astgrep == "" {
			continue
		}
		f.astgrepRan = true
		var out lineCounter
		smp := runCmdOut(ctx, o.timeout, s.root, nil, &out, p.astgrep, astgrepArgs(s.root)...)
		if smp.err == nil && out.lines == 0 {
			smp.err = fmt.Errorf("ast-grep matched no function: the rule or its Rust support is broken")
		}
		if smp.err == nil {
			f.functions = out.lines
		}
		f.astgrep = append(f.astgrep, smp)
	}
	m, _ := median(f.analysis)
	report(s.name, "analysis (cold)", m)
	if g, ok := median(f.graph); ok {
		logf("%s: of which the graph (load phase): %v", s.name, g.wall.Round(time.Millisecond))
	}
	if f.astgrepRan {
		m, _ = median(f.astgrep)
		report(s.name, fmt.Sprintf("ast-grep (%d functions)", f.functions), m)
	}
	return f
}

// lineCounter counts the lines written to it.
type lineCounter struct{ lines int }

func (c *lineCounter) Write(b []byte) (int, error) {
	c.lines += bytes.Count(b, []byte{'\n'})
	return len(b), nil
}

// floorTarget is the most the graph phase of ctxexpand's cold analysis
// of a Rust tree may take, in multiples of ast-grep's time on it, and
// analysisTarget the most the whole `ctxexpand index` run may take
// (issue 16).
const (
	floorTarget    = 2.0
	analysisTarget = 1.5
)

// writeFloor writes the section on the Rust trees' analysis and ast-grep,
// when any was measured.
func writeFloor(b *strings.Builder, p peers, rs []*result) {
	var measured []*result
	for _, r := range rs {
		if r.floor.analysisRan {
			measured = append(measured, r)
		}
	}
	if len(measured) == 0 {
		return
	}
	runs := len(measured[0].floor.analysis)
	b.WriteString("\n## Rust: the analysis next to a tree-sitter parse (ast-grep)\n\n")
	version := p.versions["ast-grep"]
	if version == "" {
		version = "not available: its cells are –"
	}
	fmt.Fprintf(b, "ast-grep (%s) parses every Rust file with tree-sitter, as ctxexpand does, and does nothing more than match one rule, every function item (`ast-grep scan --inline-rules 'rule: {kind: function_item}' --report-style=short DIR`; the pattern `fn $NAME($$$ARGS) $$$BODY` would miss every `pub` and `async` function): the least a tree-sitter analysis of the tree costs. ", version)
	fmt.Fprintf(b, "*Analysis (cold)* is `ctxexpand index --root DIR --cache-dir EMPTY --verbose`: loading the repository and building the whole graph and search index, as a cold query does before it plans, expands and bundles, and storing them. *Graph* is the load phase that run logs: walking the tree, reading and parsing every file, extracting the items and resolving the edges between them — the full graph, without the search index, the on-disk store and the process's start and exit. Medians of %d runs each, the two alternating; peak RSS of the median run. Targets: the whole analysis within %.1f× ast-grep's wall time, the full graph within %.0f×.\n\n", runs, analysisTarget, floorTarget)
	b.WriteString("| repository | files | lines | graph | analysis (cold) | analysis CPU | analysis RSS | ast-grep | ast-grep CPU | ast-grep RSS | functions matched |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range measured {
		c := r.cells()
		agRSS, fns := "–", "–"
		if c.astgrepOK {
			agRSS, fns = mib(c.astgrep), strconv.Itoa(r.floor.functions)
		}
		anRSS := "–"
		if c.analysisOK {
			anRSS = mib(c.analysis)
		}
		fmt.Fprintf(b, "| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, r.files, r.lines,
			dur(c.graph, c.graphOK), dur(c.analysis, c.analysisOK), cpuOf(c.analysis, c.analysisOK), anRSS,
			r.cell(r.floor.astgrepRan, c.astgrep, c.astgrepOK), cpuOf(c.astgrep, c.astgrepOK), agRSS, fns)
	}
}

// floorTargets checks each Rust tree's analysis against ast-grep.
func floorTargets(rs []*result) []target {
	var out []target
	for _, r := range rs {
		c := r.cells()
		if !r.floor.analysisRan || !c.astgrepOK {
			continue
		}
		a := target{what: fmt.Sprintf("Rust: ctxexpand index (cold) within %.1f× ast-grep", analysisTarget), repo: r.name,
			got: ratio(c.analysis, c.astgrep, c.analysisOK, c.astgrepOK), met: "no"}
		if c.analysisOK && c.analysis.wall.Seconds() <= analysisTarget*c.astgrep.wall.Seconds() {
			a.met = "yes"
		}
		t := target{what: fmt.Sprintf("Rust: full graph (cold load) within %.0f× ast-grep", floorTarget), repo: r.name,
			got: ratio(c.graph, c.astgrep, c.graphOK, c.astgrepOK), met: "no"}
		if c.graphOK && c.graph.wall.Seconds() <= floorTarget*c.astgrep.wall.Seconds() {
			t.met = "yes"
		}
		out = append(out, a, t)
	}
	return out
}

// hasSubdirOfGoroot says whether a directory under GOROOT/src, rather
// than all of it, was measured.
func hasSubdirOfGoroot(rs []*result) bool {
	for _, r := range rs {
		if r.where == "goroot" && r.id != "" {
			return true
		}
	}
	return false
}
