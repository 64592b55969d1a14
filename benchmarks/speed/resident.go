package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/benchmarks/varied"
)

// The resident server: `ctxexpand serve` on the tree, with the index the
// warm runs left, then queries through the command line as an agent would
// send them and edits each followed by a query.
//
//   - query: 100 queries made from the tree's own declarations in five
//     shapes (a fix, a question, a named symbol, a pinned file, a
//     directory), each asked once, JSON at 16k tokens. The wall time is
//     the whole `ctxexpand` process (start, socket, answer, exit); the
//     server's own time comes from the answer (--verbose).
//   - edit: append a comment line to a source file, then query at once;
//     the time runs from before the write to the answer, which must come
//     from a newer generation.
//   - declaration edit: append a new function to a source file, then ask
//     for it by its name at once; timed the same way, and the answer must
//     rank the edited file first (found).
//   - RSS: the server's resident set after the queries and edits.

// residentRun is what was measured of the server on one tree.
type residentRun struct {
	ran            bool
	err            error
	load           time.Duration   // server start to its first generation
	queries        []time.Duration // whole command, per query
	server         []time.Duration // the server's own time, per query
	edits          []time.Duration // write to answer
	editsFresh     int             // edits answered from a newer generation
	decls          []time.Duration // declaration edits: write to answer
	declsFound     int             // declaration edits whose answer ranks the edited file first
	fallbacks      int             // queries the server did not answer
	rss            int64           // bytes
	queriesWanted  int
	editRoundsDone int
}

var (
	serverTook = regexp.MustCompile(`answered by the server.* server_took=(\S+) generation=(\d+)`)
	statusGen  = regexp.MustCompile(`(?m)^generation: (\d+)$`)
	statusMem  = regexp.MustCompile(`(?m)^memory: (\d+) MiB$`)
)

func measureResident(ctx context.Context, o *options, s *subject, cache string) residentRun {
	r := residentRun{ran: true, queriesWanted: o.queries}
	env := append(os.Environ(), "CTXEXPAND_CACHE_DIR="+cache)
	srv := exec.CommandContext(ctx, o.bin, "serve", "--root", s.root, "--quiet", "--idle-timeout", "30m")
	srv.Env = env
	start := time.Now()
	if err := srv.Start(); err != nil {
		r.err = err
		return r
	}
	exited := make(chan struct{})
	go func() { srv.Wait(); close(exited) }()
	defer func() {
		runCmd(ctx, time.Minute, s.root, []string{"CTXEXPAND_CACHE_DIR=" + cache}, o.bin, "serve", "--stop", "--root", s.root)
		select {
		case <-exited:
		case <-time.After(time.Minute):
			srv.Process.Kill()
			<-exited
		}
	}()
	status := func() string {
		cmd := exec.CommandContext(ctx, o.bin, "serve", "--status", "--root", s.root)
		cmd.Env = env
		out, _ := cmd.Output()
		return string(out)
	}
	for gen := 0; gen == 0; {
		select {
		case <-exited:
			r.err = fmt.Errorf("the server exited before loading")
			return r
		case <-time.After(20 * time.Millisecond):
		}
		if m := statusGen.FindStringSubmatch(status()); m != nil {
			gen, _ = strconv.Atoi(m[1])
		}
		if time.Since(start) > o.timeout {
			r.err = fmt.Errorf("the server did not load within %v", o.timeout)
			return r
		}
	}
	r.load = time.Since(start)
	logf("%s: server loaded in %v", s.name, r.load.Round(time.Millisecond))

	var stdout strings.Builder // the last answer
	ask := func(q string) (time.Duration, time.Duration, int, bool) {
		cmd := exec.CommandContext(ctx, o.bin, "--root", s.root, "--quiet", "--verbose", "--format", "json", "--budget", "16000", q)
		cmd.Env = env
		var stderr strings.Builder
		stdout.Reset()
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		t := time.Now()
		err := cmd.Run()
		wall := time.Since(t)
		m := serverTook.FindStringSubmatch(stderr.String())
		if err != nil || m == nil {
			return wall, 0, 0, false
		}
		d, _ := time.ParseDuration(m[1])
		g, _ := strconv.Atoi(m[2])
		return wall, d, g, true
	}
	queries := varied.Queries(s.root, s.sources, o.queries)
	ask("where does the program start") // the client and server warm, outside the figures
	for _, q := range queries {
		wall, took, _, ok := ask(q)
		if !ok {
			r.fallbacks++
			continue
		}
		r.queries = append(r.queries, wall)
		r.server = append(r.server, took)
	}
	// editAndAsk edits the source file rel with write, which gives the
	// query to ask next (false when it wrote nothing: nothing is asked),
	// asks it at once and times both, from before the write to the
	// answer; false when no answer came.
	editAndAsk := func(rel string, write func(path string) (string, bool)) (time.Duration, int, bool) {
		t := time.Now()
		q, ok := write(filepath.Join(s.root, filepath.FromSlash(rel)))
		if !ok {
			return 0, 0, false
		}
		_, _, g, ok := ask(q)
		wall := time.Since(t)
		if !ok {
			r.fallbacks++
			return 0, 0, false
		}
		return wall, g, true
	}
	_, _, gen, _ := ask(s.query)
	for round := 0; round < o.rounds*3; round++ {
		rel := s.sources[(len(s.sources)*(2*round+1)/(o.rounds*6)+13*round)%len(s.sources)]
		wall, g, ok := editAndAsk(rel, func(p string) (string, bool) {
			appendLine(p, s.lang, 100+round)
			return s.query, true
		})
		if !ok {
			continue
		}
		r.edits = append(r.edits, wall)
		if g > gen {
			r.editsFresh++
		}
		gen = g
		r.editRoundsDone++
	}
	for round := 0; round < o.rounds*3; round++ {
		rel := s.sources[(len(s.sources)*(2*round+1)/(o.rounds*6)+29*round+7)%len(s.sources)]
		wall, g, ok := editAndAsk(rel, func(p string) (string, bool) { return appendDecl(p, s.lang, round) })
		if !ok {
			continue
		}
		r.decls = append(r.decls, wall)
		if g > gen && firstFile(stdout.String()) == rel {
			r.declsFound++
		}
		gen = g
	}
	if m := statusMem.FindStringSubmatch(status()); m != nil {
		mib, _ := strconv.ParseInt(m[1], 10, 64)
		r.rss = mib << 20
	}
	p50, p95 := pct(r.queries)
	sp50, sp95 := pct(r.server)
	e50, e95 := pct(r.edits)
	d50, d95 := pct(r.decls)
	logf("%s: resident queries p50 %v p95 %v (server %v / %v), edits p50 %v p95 %v (%d of %d fresh), declaration edits p50 %v p95 %v (%d of %d found), RSS %d MiB, %d fallbacks",
		s.name, p50, p95, sp50, sp95, e50, e95, r.editsFresh, len(r.edits), d50, d95, r.declsFound, len(r.decls), r.rss>>20, r.fallbacks)
	return r
}

// appendDecl adds a new function at the end of a source file, named
// so that nothing else in the tree spells it, and returns the name.
func appendDecl(p, lang string, round int) (string, bool) {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var name, decl string
	switch lang {
	case "go":
		name = fmt.Sprintf("SpeedBenchmarkDecl%d", round)
		decl = fmt.Sprintf("\n// %s is a declaration the speed benchmark added.\nfunc %s() int { return %d }\n", name, name, round)
	case "rust":
		name = fmt.Sprintf("speed_benchmark_decl_%d", round)
		decl = fmt.Sprintf("\n/// A declaration the speed benchmark added.\npub fn %s() -> i32 {\n    %d\n}\n", name, round)
	default:
		return "", false
	}
	if _, err := f.WriteString(decl); err != nil {
		return "", false
	}
	return name, true
}

// firstFile is the path of the first file of a JSON bundle, "" when it
// has none.
func firstFile(bundle string) string {
	var doc struct {
		Files []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if json.Unmarshal([]byte(bundle), &doc) != nil || len(doc.Files) == 0 {
		return ""
	}
	return doc.Files[0].Path
}

// pct is the median and 95th percentile, rounded to the millisecond.
func pct(d []time.Duration) (time.Duration, time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2].Round(time.Millisecond), s[min(len(s)-1, len(s)*95/100)].Round(time.Millisecond)
}

// writeResident adds the resident server's table.
func writeResident(b *strings.Builder, rs []*result) {
	any := false
	for _, r := range rs {
		any = any || r.resident.ran
	}
	if !any {
		return
	}
	b.WriteString("\n## Resident server (`ctxexpand serve`)\n\n")
	b.WriteString("The server started on the tree with the index the warm runs left (*load*: start to first answer-ready state), then `ctxexpand --format json --budget 16000 --verbose QUERY` sent each of 100 queries made from the tree's own declarations (a fix, a question, a named symbol, a pinned file, a directory; each asked once). *Query* is the whole command, process start to exit; *server* is the server's own time in the answer. *Edit* appends a comment line to a source file and asks at once: the time runs from before the write to the answer, which must come from a newer generation (*fresh*). *Decl* appends a new function to a source file and asks for it by its name at once, timed the same way; *found* counts the answers that come from a newer generation and rank the edited file first. RSS is the server's after the queries and edits. Ratios against ripgrep reading the same tree in the same run.\n\n")
	b.WriteString("| repository | load | query p50 | query p95 | server p50 | server p95 | edit p50 | edit p95 | fresh | decl p50 | decl p95 | found | server RSS | query p50 ÷ ripgrep |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rs {
		res := r.resident
		if !res.ran {
			continue
		}
		if res.err != nil {
			fmt.Fprintf(b, "| %s | failed: %v | | | | | | | | | | | | |\n", r.name, res.err)
			continue
		}
		q50, q95 := pct(res.queries)
		s50, s95 := pct(res.server)
		e50, e95 := pct(res.edits)
		d50, d95 := pct(res.decls)
		c := r.cells()
		rg := "–"
		if c.rgOK && q50 > 0 {
			rg = fmt.Sprintf("%.2f×", q50.Seconds()/c.rg.wall.Seconds())
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %d of %d | %s | %s | %d of %d | %d MiB | %s |\n", r.name, msOf(res.load), msOf(q50), msOf(q95), msOf(s50), msOf(s95), msOf(e50), msOf(e95),
			res.editsFresh, len(res.edits), msOf(d50), msOf(d95), res.declsFound, len(res.decls), res.rss>>20, rg)
		if res.fallbacks > 0 {
			fmt.Fprintf(b, "\n%s: %d queries were answered without the server.\n", r.name, res.fallbacks)
		}
	}
}

func msOf(d time.Duration) string { return dur(sample{wall: d}, true) }

// residentTargets are the targets for the server.
func residentTargets(rs []*result) []target {
	var out []target
	for _, r := range rs {
		res := r.resident
		if !res.ran || res.err != nil || len(res.queries) == 0 {
			continue
		}
		q50, q95 := pct(res.queries)
		e50, e95 := pct(res.edits)
		met := func(ok bool) string {
			if ok {
				return "yes"
			}
			return "no"
		}
		if r.name == "hugo" {
			out = append(out, target{"Resident: query p50 at most 30 ms (JSON, 16k, 100 queries)", r.name, msOf(q50), met(q50 <= 30*time.Millisecond)},
				target{"Resident: query p95 at most 80 ms", r.name, msOf(q95), met(q95 <= 80*time.Millisecond)})
		}
		if r.name == "hugo" || r.name == "tokio" {
			out = append(out, target{"Resident: an edit in the next answer within 200 ms (p50; p95 " + msOf(e95) + ")", r.name, msOf(e50),
				met(e50 <= 200*time.Millisecond && res.editsFresh == len(res.edits))})
			if len(res.decls) > 0 {
				d50, d95 := pct(res.decls)
				out = append(out, target{"Resident: a new declaration found by its name in the next answer within 400 ms (p50; p95 " + msOf(d95) + ")", r.name, msOf(d50),
					met(d50 <= 400*time.Millisecond && res.declsFound == len(res.decls))})
			}
		}
	}
	return out
}
