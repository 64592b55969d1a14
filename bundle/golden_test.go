package bundle

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// ladder prepares one file and returns the section text of every rung it
// offers, plus the truncated versions of its target cut to limit tokens.
func ladder(t *testing.T, f File, format Format, limit int) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, mode := range []Truncation{SignatureFirst, Bookend} {
		req := Request{Root: fixtureRoot, Budget: 100000, Counter: newCounter(t, "o200k"), Format: format,
			Files: []File{f}, Options: Options{Truncation: mode}}
		fm, err := formatterFor(format)
		if err != nil {
			t.Fatal(err)
		}
		b := &builder{req: req, counter: req.Counter, fm: fm, ctxLines: DefaultContextLines, weights: fileWeights(req.Files)}
		if err := b.prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		it := b.files[0]
		for _, o := range it.opts[1:] {
			out[o.rung.String()] = o.text
		}
		o, ok := b.truncate(it, limit)
		if !ok {
			t.Fatalf("%s: no %s cut fits %d tokens", f.Path, mode, limit)
		}
		if o.cost > limit {
			t.Errorf("%s: %s cut costs %d, limit %d", f.Path, mode, o.cost, limit)
		}
		out[it.targetRung.String()+"-"+mode.String()] = o.text
	}
	return out
}

// TestLadderGolden shows every rung of the ladder, and both truncations,
// for a Go and a Rust file.
func TestLadderGolden(t *testing.T) {
	files := map[string]File{"go": goFile(t), "rust": rustFile()}
	wantRungs := []string{"full", "spans", "skeleton", "summary", "spans-signature-first", "spans-bookend"}
	for name, f := range files {
		got := ladder(t, f, Markdown, 150)
		for _, r := range wantRungs {
			text, ok := got[r]
			if !ok {
				t.Errorf("%s: no %s rung", name, r)
				continue
			}
			golden(t, fmt.Sprintf("ladder-%s.%s.md", name, r), text)
		}
	}
}

// TestBuildGolden records whole bundles in every format at budgets that
// force different rungs.
func TestBuildGolden(t *testing.T) {
	for _, format := range []Format{Markdown, XML, JSON, Plain} {
		for _, budget := range []int{60, 250, 700, 5000} {
			req := goldenRequest(t, format, budget)
			r, err := Build(context.Background(), req)
			if err != nil {
				t.Fatalf("%s/%d: %v", format, budget, err)
			}
			if r.TotalTokens > budget {
				t.Errorf("%s/%d: %d tokens", format, budget, r.TotalTokens)
			}
			ext := map[Format]string{Markdown: "md", XML: "xml", JSON: "json", Plain: "txt"}[format]
			golden(t, fmt.Sprintf("build-%d.%s", budget, ext), string(r.Output))
		}
	}
}

func goldenRequest(t *testing.T, format Format, budget int) Request {
	return Request{
		Query: "why does UserService.FindByEmail miss orders?", Strategy: "focused",
		Commit: "4d4e02d1c0a8f6b1e2f3a4b5c6d7e8f9a0b1c2d3", Root: fixtureRoot, Budget: budget,
		Counter: newCounter(t, "o200k"), Format: format,
		Files: []File{goFile(t), rustFile(), {Path: "missing/gone.go", Score: 0.1, Reasons: []string{"mentioned"}}},
		Extras: []Extra{{Kind: "grep", Title: "@grep:orders_of", Content: strings.Join([]string{
			"store/mem.rs:26:    fn orders_of(&self, user: UserId) -> Vec<Order> {",
			"store/mem.rs:66:    fn orders_of(&self, user: UserId) -> Vec<Order> {",
		}, "\n")}},
		Notes: []string{"type checking failed for package service; names resolved by syntax"},
	}
}
