package expand

import (
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/rank"
	"github.com/google/go-cmp/cmp"
)

// TestSpanRanks: a file's spans are listed by line and carry their place
// in relevance order: explicit ranges first, all of rank 0, then symbols
// by score, those of equal score sharing a rank.
func TestSpanRanks(t *testing.T) {
	fs := &analyze.Facts{Root: "/repo"}
	f := fs.AddFile(analyze.File{Path: "a.go", Lang: analyze.LangGo, PkgName: "a", Package: "x/a", Lines: 40})
	var syms []analyze.SymID
	for i, name := range []string{"A", "B", "C", "D"} {
		syms = append(syms, fs.AddSymbol(analyze.Symbol{Name: name, Kind: analyze.KindFunc, File: f, Start: 1 + 10*i, End: 5 + 10*i, DeclLine: 1 + 10*i, Parent: analyze.NoSym}))
	}
	fs.Normalize()
	e := &Engine{Facts: fs}
	fr := rank.FileRank{File: f, Symbols: []rank.SymHit{
		{Sym: syms[2], Score: 0.9}, // C
		{Sym: syms[0], Score: 0.6}, // A
		{Sym: syms[3], Score: 0.6}, // D, as relevant as A
		{Sym: syms[1], Score: 0.5}, // B
	}}
	got := e.spans(fr, []Span{{Start: 35, End: 36, Symbol: "changed"}}, 6)
	want := []Span{
		{Start: 1, End: 5, Symbol: "A", Rank: 2},
		{Start: 11, End: 15, Symbol: "B", Rank: 3},
		{Start: 21, End: 25, Symbol: "C", Rank: 1},
		{Start: 31, End: 35, Symbol: "D", Rank: 2},
		{Start: 35, End: 36, Symbol: "changed", Rank: 0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spans (-want +got):\n%s", d)
	}
	// Without explicit ranges the best symbol is rank 0.
	got = e.spans(fr, nil, 6)
	if got[2].Symbol != "C" || got[2].Rank != 0 || got[0].Rank != 1 || got[3].Rank != 1 || got[1].Rank != 2 {
		t.Errorf("ranks without explicit ranges: %+v", got)
	}
}
