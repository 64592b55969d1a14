package bundle

import (
	"context"
	"strings"
	"testing"
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
