package expand

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
)

type noSource struct{}

func (noSource) Content(analyze.FileID) ([]byte, error) { return nil, errors.New("no content") }

// hubFacts is a hub function called by n functions, one file each.
func hubFacts(n int) *analyze.Facts {
	fs := &analyze.Facts{Root: "/repo"}
	hf := fs.AddFile(analyze.File{Path: "hub.go", Lang: analyze.LangGo, Lines: 3})
	hub := fs.AddSymbol(analyze.Symbol{Name: "Hub", Kind: analyze.KindFunc, File: hf, Start: 1, End: 3, DeclLine: 1, Exported: true, Parent: analyze.NoSym})
	for i := range n {
		f := fs.AddFile(analyze.File{Path: fmt.Sprintf("c/caller%04d.go", i), Lang: analyze.LangGo, Lines: 3})
		s := fs.AddSymbol(analyze.Symbol{Name: fmt.Sprintf("Caller%04d", i), Kind: analyze.KindFunc, File: f, Start: 1, End: 3, DeclLine: 1, Parent: analyze.NoSym})
		fs.AddEdge(analyze.Edge{From: s, To: hub, Kind: analyze.EdgeCalls, Exact: true, Line: 2})
	}
	fs.Normalize()
	return fs
}

// TestMaxVisits: the walk stops at MaxVisits symbols and says so in a
// warning; below the limit there is no warning.
func TestMaxVisits(t *testing.T) {
	eng, err := NewEngine(context.Background(), hubFacts(500), noSource{})
	if err != nil {
		t.Fatal(err)
	}
	plan := query.Analyze("fix Hub")
	for _, tt := range []struct {
		max  int
		warn bool
	}{{50, true}, {0, false}} {
		res, err := eng.Expand(context.Background(), plan, nil, Options{Strategy: "focused", Depth: 2, MaxFiles: 1000, MaxVisits: tt.max})
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(strings.Join(res.Warnings, "\n"), "stopped at its limit")
		if warned != tt.warn {
			t.Errorf("MaxVisits %d: warnings %q, want a limit warning: %v", tt.max, res.Warnings, tt.warn)
		}
		if tt.max > 0 && len(res.Files) > tt.max {
			t.Errorf("MaxVisits %d: %d files ranked", tt.max, len(res.Files))
		}
		if tt.max == 0 && len(res.Files) < 400 {
			t.Errorf("no limit: only %d files ranked", len(res.Files))
		}
	}
}
