package extract

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"func F(a int,\n\tb string) (int, error)", "func F(a int, b string) (int, error)"},
		{"func F(a int, // the a\n\tb string /* the b */)", "func F(a int, b string)"},
		{`const X = "a // not a comment"`, `const X = "a // not a comment"`},
		{"const Y = `raw\n  text`", "const Y = `raw   text`"},
		{`var r = '"'`, `var r = '"'`},
		{`var s = "esc\"aped // still"`, `var s = "esc\"aped // still"`},
		{"  leading   and trailing  ", "leading and trailing"},
		{"/* unterminated", ""},
	}
	for _, tt := range tests {
		if got := oneLine([]byte(tt.in)); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := oneLine([]byte("func F(" + strings.Repeat("a int, ", 100) + ")"))
	if len(long) > maxSignature+len("…") || !strings.HasSuffix(long, "…") {
		t.Errorf("long signature not capped: %d bytes %q", len(long), long)
	}
}

func TestGuessPkgName(t *testing.T) {
	tests := map[string]string{
		"fmt":                         "fmt",
		"net/http":                    "http",
		"gopkg.in/yaml.v3":            "yaml",
		"github.com/go-chi/chi/v5":    "chi",
		"github.com/mattn/go-sqlite3": "sqlite3",
		"example.com/foo-go":          "foo",
		"github.com/a/b.go":           "b",
		"example.com/v2":              "example",
	}
	for in, want := range tests {
		if got := GuessPkgName(in); got != want {
			t.Errorf("guessPkgName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTestSubject(t *testing.T) {
	tests := []struct {
		name, subject string
		ok            bool
	}{
		{"TestUserService_FindByEmail", "UserService_FindByEmail", true},
		{"TestFindByEmail", "FindByEmail", true},
		{"Test_parse", "parse", true},
		{"Test", "", true},
		{"Testify", "", false},
		{"BenchmarkParse", "Parse", true},
		{"FuzzParse", "Parse", true},
		{"ExampleUser_IsAdmin", "User_IsAdmin", true},
		{"Example", "", true},
		{"Examples", "", false},
		{"helper", "", false},
	}
	for _, tt := range tests {
		got, ok := testSubject(tt.name)
		if got != tt.subject || ok != tt.ok {
			t.Errorf("testSubject(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.subject, tt.ok)
		}
	}
}

func TestSanitizeUTF8(t *testing.T) {
	in := []byte("package p\n\n// caf\xe9\nvar s = \"\xff\xfe\"\n")
	out, line := SanitizeUTF8(in)
	if len(out) != len(in) || line != 3 || !utf8.Valid(out) {
		t.Errorf("sanitizeUTF8 = %q, line %d", out, line)
	}
	if !strings.Contains(string(in), "\xe9") {
		t.Error("input modified")
	}
	ok := []byte("package p\n")
	if out, line := SanitizeUTF8(ok); &out[0] != &ok[0] || line != 0 {
		t.Error("valid input copied or flagged")
	}
}

func TestCountLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\nb\n": 2, "\n\n": 2} {
		if got := countLines([]byte(in)); got != want {
			t.Errorf("countLines(%q) = %d, want %d", in, got, want)
		}
	}
}

// extractSource runs the syntax-only extraction and merge over one file.
func extractSource(src []byte) *analyze.Facts {
	fset := token.NewFileSet()
	clean, _ := SanitizeUTF8(src)
	f, _ := parser.ParseFile(fset, "x.go", clean, parser.ParseComments|parser.AllErrors)
	res := &Result{Scope: ScopeKey(".", "x"), ImportPath: "example.com/x", PkgName: "x", Dir: "."}
	x := NewExtractor(res, fset)
	imports := x.ExtractFile("x.go", f, clean)
	file := FileFacts("x.go", src)
	res.Files = append(res.Files, FileRec{File: file, Imports: imports})
	fs := &analyze.Facts{}
	NewMerger(fs).Merge([]*Result{res})
	fs.Normalize()
	return fs
}

func TestExtractSource(t *testing.T) {
	fs := extractSource([]byte(`package x

// T is a type.
type T struct {
	a, b int // pair
	U
}

type U interface{ M(int) string }

// M implements U.
func (t *T) M(n int) string { return helper(t.a) }

func helper(int) string { return "" }

var _ U = (*T)(nil)
`))
	var got []string
	for _, s := range fs.Symbols {
		got = append(got, s.QualName(analyze.LangGo)+" "+s.Kind.String())
	}
	// Normalize orders symbols by position; on one line, members first.
	want := []string{"T struct", "T.a field", "T.b field", "T.U field", "U.M method", "U interface", "T.M method", "helper func"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("symbols (-want +got):\n%s", diff)
	}
	for _, c := range [][]string{
		{"edge", "x.go:T.M", "calls", "x.go:helper", "exact"},
		{"edge", "x.go:T.M", "method_of", "x.go:T", "exact"},
		{"edge", "x.go:T", "embeds", "x.go:U", "exact"},
		{"edge", "x.go:T", "implements", "x.go:U", "inexact"},
		{"edge", "x.go:T.M", "references", "x.go:T.a", "inexact"},
	} {
		if !hasEdge(fs, c[1], c[2], c[3], c[4] == "exact") {
			t.Errorf("no %s edge %s → %s (%s)", c[2], c[1], c[3], c[4])
		}
	}
}

// hasEdge reports whether the facts hold an edge of kind from one symbol
// to another, each named "file:QualName", with the given exactness.
func hasEdge(fs *analyze.Facts, from, kind, to string, exact bool) bool {
	name := func(id analyze.SymID) string {
		s := fs.Symbols[id]
		return fs.Files[s.File].Path + ":" + s.QualName(analyze.LangGo)
	}
	return slices.ContainsFunc(fs.Edges, func(e analyze.Edge) bool {
		return name(e.From) == from && name(e.To) == to && e.Kind.String() == kind && e.Exact == exact
	})
}

// FuzzExtractSource feeds arbitrary bytes to the syntax-only extraction:
// it must not panic, and every symbol's span must be ordered and inside
// the file.
func FuzzExtractSource(f *testing.F) {
	f.Add([]byte("package x\n\nfunc F() { G() }\nfunc G() {}\n"))
	f.Add([]byte("package x\n\ntype T struct{ A int }\nfunc (t *T) M() { t.A++; t.M() }\n"))
	f.Add([]byte("package x\n\nimport \"example.com/y\"\nvar v = y.Z(1)\nconst (\n\tA = iota\n\tB\n)\n"))
	f.Add([]byte("package x\n\nfunc Broken( {\n"))
	f.Add([]byte("package x\n// caf\xe9\ntype I interface{ I; M() }\n"))
	f.Add([]byte("\x00\x01"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fs := extractSource(src)
		lines := countLines(src)
		for _, s := range fs.Symbols {
			if s.Start < 1 || s.Start > s.DeclLine || s.DeclLine > s.End || s.End > lines {
				t.Fatalf("bad span %d-%d decl %d (file has %d lines): %+v", s.Start, s.End, s.DeclLine, lines, s)
			}
			if !utf8.ValidString(s.Doc) || !utf8.ValidString(s.Signature) {
				t.Fatalf("invalid UTF-8 in %+v", s)
			}
		}
	})
}
