package bundle

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/tokenize"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

const fixtureRoot = "testdata/repo"

// goSymbols derives a Go fixture's symbols from its syntax tree, the way a
// loader would report them (Start includes the doc comment).
func goSymbols(t testing.TB, rel string) []Symbol {
	return goSymbolsAt(t, fixtureRoot, rel)
}

func goSymbolsAt(t testing.TB, root, rel string) []Symbol {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	var out []Symbol
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			s := Symbol{Name: d.Name.Name, Kind: "func", Start: line(d.Pos()), End: line(d.End()), DeclLine: line(d.Name.Pos())}
			if d.Doc != nil {
				s.Start = line(d.Doc.Pos())
			}
			if d.Recv != nil {
				s.Kind, s.Container = "method", recvTypeName(d.Recv.List[0].Type)
			}
			out = append(out, s)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				s := Symbol{Kind: "var", Start: line(d.Pos()), End: line(d.End())}
				if d.Doc != nil {
					s.Start = line(d.Doc.Pos())
				}
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					s.Name, s.Kind, s.DeclLine = sp.Name.Name, "type", line(sp.Name.Pos())
					switch sp.Type.(type) {
					case *ast.StructType:
						s.Kind = "struct"
					case *ast.InterfaceType:
						s.Kind = "interface"
					}
				case *ast.ValueSpec:
					s.Name, s.DeclLine = sp.Names[0].Name, line(sp.Names[0].Pos())
					if d.Tok == token.CONST {
						s.Kind = "const"
					}
				default:
					continue
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// rustSymbols are the symbols a Rust loader reports for store/mem.rs:
// top-level items (Start at the doc comment, attributes not included)
// and, nested in the impl blocks, the methods.
var rustSymbols = []Symbol{
	{Name: "MAX_ORDERS", Kind: "const", Start: 8, End: 9, DeclLine: 9},
	{Name: "StoreError", Kind: "enum", Start: 11, End: 18, DeclLine: 13},
	{Name: "NotFound", Container: "StoreError", Kind: "variant", Start: 14, End: 15, DeclLine: 15},
	{Name: "OrderStore", Kind: "trait", Start: 20, End: 29, DeclLine: 21},
	{Name: "MemStore", Kind: "struct", Start: 31, End: 35, DeclLine: 33},
	{Name: "MemStore", Kind: "impl", Start: 37, End: 53, DeclLine: 37},
	{Name: "new", Container: "MemStore", Kind: "method", Start: 38, End: 41, DeclLine: 39},
	{Name: "len", Container: "MemStore", Kind: "method", Start: 43, End: 46, DeclLine: 44},
	{Name: "label", Container: "MemStore", Kind: "method", Start: 48, End: 52, DeclLine: 48},
	{Name: "MemStore", Kind: "impl", Start: 55, End: 72, DeclLine: 55},
	{Name: "save", Container: "MemStore", Kind: "method", Start: 56, End: 64, DeclLine: 56},
	{Name: "orders_of", Container: "MemStore", Kind: "method", Start: 66, End: 71, DeclLine: 66},
	{Name: "mem_store", Kind: "macro", Start: 74, End: 82, DeclLine: 76},
	{Name: "tests", Kind: "mod", Start: 85, End: 92, DeclLine: 85},
}

func goFile(t testing.TB) File {
	return File{
		Path: "service/user.go", Lang: analyze.LangGo, Score: 0.9, Category: "source",
		Reasons: []string{"seed: UserService.FindByEmail", "named in the query"},
		Spans:   []Span{{Start: 53, End: 67, Symbol: "FindByEmail"}},
		Symbols: goSymbols(t, "service/user.go"),
	}
}

func rustFile() File {
	return File{
		Path: "store/mem.rs", Lang: analyze.LangRust, Score: 0.55, Category: "source",
		Reasons: []string{"calls: UserService.FindByEmail -> OrderStore::orders_of"},
		Spans:   []Span{{Start: 66, End: 71, Symbol: "MemStore::orders_of"}, {Start: 20, End: 29, Symbol: "OrderStore"}},
		Symbols: rustSymbols,
	}
}

func newCounter(t testing.TB, name string) tokenize.Counter {
	t.Helper()
	c, err := tokenize.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
