package main

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// The resident server under load (issue 23): the full form of the serve
// package's TestServeLoad, run after the trees. 8 clients on the loopback
// socket ask 200 queries each of a copy of testdata/gosvc while one of its
// files is saved every 100 ms; every answer must come from one generation
// and be byte for byte a fresh load's answer for that generation, and the
// server's RSS at the end must be within 10% of its RSS after the first
// 100 queries. The test asserts those; this reports its figures.

// loadRun is the outcome of one load test; nil when none ran.
type loadRun struct {
	err    error  // the test failed, or could not run
	report string // the test's "serve load:" line
	took   time.Duration
	tail   string // the end of its output, when it failed
}

// loadFigure picks the percentiles and memory out of the report line.
var loadFigure = regexp.MustCompile(`p50 (\S+), p95 (\S+), p99 (\S+);`)

func measureLoad(ctx context.Context, o *options) loadRun {
	logf("load test: 8 clients × 200 queries with edits (go test -run TestServeLoad -load-full)")
	start := time.Now()
	cmd := exec.CommandContext(ctx, "go", "test", "-v", "-count=1", "-timeout", o.timeout.String(),
		"-run", "^TestServeLoad$", "./cmd/ctxexpand/internal/serve", "-load-full")
	out, err := cmd.CombinedOutput()
	lr := loadRun{took: time.Since(start), err: err}
	for _, line := range strings.Split(string(out), "\n") {
		if r, ok := strings.CutPrefix(line, "serve load: "); ok {
			lr.report = strings.TrimSpace(r)
		}
	}
	if err == nil && lr.report == "" {
		lr.err = fmt.Errorf("the test printed no figures")
	}
	if lr.err != nil {
		s := strings.TrimSpace(string(out))
		if len(s) > 2000 {
			s = "…" + s[len(s)-2000:]
		}
		lr.tail = s
		logf("load test failed: %v", lr.err)
	} else {
		logf("load test: %s", lr.report)
	}
	return lr
}

func writeLoad(b *strings.Builder, lr *loadRun) {
	if lr == nil {
		return
	}
	b.WriteString("\n## The resident server under load\n\n")
	b.WriteString("`go test -run TestServeLoad ./cmd/ctxexpand/internal/serve -load-full`: a server on a copy of testdata/gosvc, 8 clients on its socket asking 200 queries each (three shapes: a fix in JSON at 6,000 tokens, a question in markdown at 3,000, a directory in XML at 1,500) while a file of the tree is saved every 100 ms all along. ")
	b.WriteString("Every answer must come from one generation and be byte for byte what a fresh load of that generation's tree answers, with no errors, and the server's RSS at the end must be within 10% of its RSS after the first 100 queries; the test fails otherwise. Latency is the client's, socket included, in one process (no process start).\n\n")
	if lr.err != nil {
		fmt.Fprintf(b, "**Failed** after %s: %v\n\n```\n%s\n```\n", dur(sample{wall: lr.took}, true), lr.err, lr.tail)
		return
	}
	fmt.Fprintf(b, "Passed in %s: %s.\n", dur(sample{wall: lr.took}, true), lr.report)
}

// loadTargets: the load test passed (no error, every answer a fresh
// load's, memory held).
func loadTargets(lr *loadRun) []target {
	if lr == nil {
		return nil
	}
	t := target{what: "Resident server under load: 1,600 answers, each a fresh load's, no error, RSS within 10%", repo: "testdata/gosvc", got: "failed", met: "no"}
	if lr.err == nil {
		t.got, t.met = "passed", "yes"
		if m := loadFigure.FindStringSubmatch(lr.report); m != nil {
			t.got = fmt.Sprintf("passed; p50 %s, p95 %s, p99 %s", m[1], m[2], m[3])
		}
	}
	return []target{t}
}
