package query

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestExplainGolden pins the --explain rendering of representative
// queries; run with -update after a deliberate change and review the diff.
func TestExplainGolden(t *testing.T) {
	queries := []string{
		"fix UserService.find_by_email",
		"why does login return 500 when the token expired",
		"add rate limiting to the HTTP API",
		"how does the server start",
		"xdsclient: fix race in watcher cleanup",
		"explain @internal/auth/token.go#L10-20 and @grep:\"func \\(t \\*Token\\)\" without tests",
		"the login endpoint crashes\n" + readTestdata(t, "go_panic.txt"),
		readTestdata(t, "rust_backtrace.txt"),
		"@bad#Lx",
	}
	var b strings.Builder
	for _, q := range queries {
		b.WriteString(Analyze(q).Explain())
		b.WriteString("\n")
	}
	got := b.String()
	const golden = "testdata/explain.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("Explain (-want +got):\n%s", diff)
	}
}

func TestHeuristicPlanner(t *testing.T) {
	var pl Planner = Heuristic{}
	p, err := pl.Plan(t.Context(), "fix UserService.find_by_email")
	if err != nil || p.Planner != "heuristic" || len(p.Entities) != 1 {
		t.Fatalf("Plan = %+v, %v", p, err)
	}
	ctx, cancel := contextWithCancel(t)
	cancel()
	if _, err := pl.Plan(ctx, "x"); err == nil {
		t.Error("Plan with a cancelled context: want an error")
	}
}

func contextWithCancel(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithCancel(t.Context())
}
