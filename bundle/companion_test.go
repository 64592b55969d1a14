package bundle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// TestCompanion: a review's diff and a better-ranked file leave a test of
// the change no room when it is planned with the implicit files; planned
// with the explicit items as a companion, it is shown, at its spans.
func TestCompanion(t *testing.T) {
	diff := Extra{Kind: "diff", Title: "store/mem.rs", Lang: "diff", Content: strings.Repeat("+\tlet order = orders.next();\n", 60)}
	build := func(budget int, companion bool) *Result {
		t.Helper()
		test := rustFile()
		test.Category, test.Score, test.Companion = "test", 0.2, companion
		r, err := Build(context.Background(), Request{Root: fixtureRoot, Budget: budget, Counter: newCounter(t, "o200k"),
			Extras: []Extra{diff}, Files: []File{goFile(t), test}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, b := range []int{800, 1100} {
		if r := build(b, false); r.Files[1].Rung >= RungSpans {
			t.Fatalf("budget %d: the implicit test is shown at %s; the case no longer tests the companion", b, r.Files[1].Rung)
		}
		r := build(b, true)
		if r.Files[1].Rung != RungSpans {
			t.Errorf("budget %d: the companion test is shown at %s, want its spans\n%s", b, r.Files[1].Rung, r.Output)
		}
		if r.Extras[0].Rung != RungFull {
			t.Errorf("budget %d: the diff is shown at %s; a companion must not displace the explicit items", b, r.Extras[0].Rung)
		}
	}
}

// TestCompanionShare: the companions take at most a third of the
// allowance together. A table test whose one span is longer than that is
// cut down, and the file ranked after it, which the whole span would have
// crowded out, is shown.
func TestCompanionShare(t *testing.T) {
	root := t.TempDir()
	var table strings.Builder
	table.WriteString("package service\n\nimport \"testing\"\n\nfunc TestNormalize(t *testing.T) {\n\tcases := []struct{ in, want string }{\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&table, "\t\t{in: \"User%03d@Example.COM\", want: \"user%03d@example.com\"},\n", i, i)
	}
	table.WriteString("\t}\n\tfor _, c := range cases {\n\t\tif got := normalize(c.in); got != c.want {\n\t\t\tt.Errorf(\"normalize(%q) = %q\", c.in, got)\n\t\t}\n\t}\n}\n")
	lines := strings.Count(table.String(), "\n")
	src, err := os.ReadFile(filepath.Join(fixtureRoot, "service/user.go"))
	if err != nil {
		t.Fatal(err)
	}
	for rel, data := range map[string][]byte{"service/user.go": src, "service/user_test.go": []byte(table.String())} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	test := File{Path: "service/user_test.go", Lang: analyze.LangGo, Score: 0.9, Category: "test", Companion: true,
		SpansOnly: true, Spans: []Span{{Start: 5, End: lines, Symbol: "TestNormalize"}}}
	code := goFile(t)
	code.Score = 0.5
	build := func(budget int) *Result {
		t.Helper()
		r, err := Build(context.Background(), Request{Root: root, Budget: budget, Counter: newCounter(t, "o200k"), Files: []File{test, code}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// A budget that holds the test's whole span and half the code's: the
	// span alone would leave the code no room for its own.
	costs := build(100000)
	// (The span is nearly the whole file, so the file is offered whole.)
	whole := costs.Files[0].Costs[RungFull]
	budget := whole + costs.Files[1].Costs[RungSpans]/2
	r := build(budget)
	if whole <= budget/companionShare {
		t.Fatalf("the table test costs %d, within the share; the case no longer tests it", whole)
	}
	if got := r.Files[0].Tokens; got > budget/companionShare {
		t.Errorf("the companion takes %d tokens, more than a third of %d", got, budget)
	}
	if r.Files[1].Rung < RungSpans {
		t.Errorf("service/user.go is shown at %s; the companion crowded it out\n%s", r.Files[1].Rung, r.Output)
	}
}
