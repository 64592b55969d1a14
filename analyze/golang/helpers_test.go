package golang

import (
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
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
		if got := guessPkgName(in); got != want {
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

func TestGoEnv(t *testing.T) {
	opt := Options{Env: []string{"PATH=/bin", "GOFLAGS=-mod=mod -tags=x -modfile=other.mod", "GOPROXY=https://proxy.example"}}
	env := opt.goEnv()
	for name, want := range map[string]string{
		"GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "-tags=x", "CGO_ENABLED": "1", "GOPACKAGESDRIVER": "off",
	} {
		if got, _ := envValue(env, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	opt = Options{Env: []string{"CGO_ENABLED=0", "GOPROXY=https://proxy.example"}, AllowNetwork: true}
	env = opt.goEnv()
	if got, _ := envValue(env, "CGO_ENABLED"); got != "0" {
		t.Errorf("CGO_ENABLED = %q, want the caller's 0", got)
	}
	if got, _ := envValue(env, "GOPROXY"); got != "https://proxy.example" {
		t.Errorf("GOPROXY = %q with AllowNetwork, want the caller's", got)
	}
}

func TestSanitizeUTF8(t *testing.T) {
	in := []byte("package p\n\n// caf\xe9\nvar s = \"\xff\xfe\"\n")
	out, line := sanitizeUTF8(in)
	if len(out) != len(in) || line != 3 || !utf8.Valid(out) {
		t.Errorf("sanitizeUTF8 = %q, line %d", out, line)
	}
	if !strings.Contains(string(in), "\xe9") {
		t.Error("input modified")
	}
	ok := []byte("package p\n")
	if out, line := sanitizeUTF8(ok); &out[0] != &ok[0] || line != 0 {
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

func TestLayoutImportPath(t *testing.T) {
	lay := &layout{mods: []*module{
		{rel: ".", path: "example.com/root"},
		{rel: "tools", path: "example.com/root/tools"},
		{rel: "x/y", path: "example.com/xy"},
	}}
	tests := map[string]string{
		".":         "example.com/root",
		"a/b":       "example.com/root/a/b",
		"tools":     "example.com/root/tools",
		"tools/gen": "example.com/root/tools/gen",
		"toolsx":    "example.com/root/toolsx",
		"x/y/z":     "example.com/xy/z",
	}
	for dir, want := range tests {
		if got := lay.importPath(dir, ""); got != want {
			t.Errorf("importPath(%q) = %q, want %q", dir, got, want)
		}
	}
	std := &layout{enclosing: &module{path: "std"}}
	if got := std.importPath("cookiejar", "net/http"); got != "net/http/cookiejar" {
		t.Errorf("std importPath = %q", got)
	}
	if got := std.importPath(".", "net/http"); got != "net/http" {
		t.Errorf("std root importPath = %q", got)
	}
}

// extractSource runs the syntax-only extraction and merge over one file.
func extractSource(src []byte) *analyze.Facts {
	fset := token.NewFileSet()
	clean, _ := sanitizeUTF8(src)
	f, _ := parser.ParseFile(fset, "x.go", clean, parser.ParseComments|parser.AllErrors)
	res := &pkgResult{scope: scopeKey(".", "x"), importPath: "example.com/x", pkgName: "x", dir: "."}
	x := newExtractor(res, fset)
	imports := x.extractFile("x.go", f, clean)
	file := fileFacts("x.go", src)
	res.files = append(res.files, fileRec{file: file, imports: imports})
	fs := &analyze.Facts{}
	newMerger(fs).merge([]*pkgResult{res})
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
		if msg := checkFacts(fs, c); msg != "" {
			t.Errorf("%v: %s", c, msg)
		}
	}
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

func TestUnavailableModules(t *testing.T) {
	msg := "err: exit status 1: stderr: go: downloading github.com/google/go-cmp v0.6.0\n" +
		"go: downloading golang.org/x/telemetry v0.0.0-20261009151841-97e8ea77aa2a\n" +
		"go: github.com/google/go-cmp@v0.6.0: module lookup disabled by GOPROXY=off\n" +
		"go: example.com/main@v1.0.0: whatever\n"
	got := unavailableModules(msg, "example.com/main")
	if diff := cmp.Diff([]string{"github.com/google/go-cmp"}, got); diff != "" {
		t.Errorf("unavailableModules (-want +got):\n%s", diff)
	}
	if got := goListMessage(errors.New(msg)); got != "github.com/google/go-cmp@v0.6.0: module lookup disabled by GOPROXY=off; example.com/main@v1.0.0: whatever" {
		t.Errorf("goListMessage = %q", got)
	}
}

func TestTempModfileDrops(t *testing.T) {
	dir := t.TempDir()
	gomod := "module example.com/m\n\ngo 1.22\n\nrequire (\n\texample.com/a v1.0.0\n\texample.com/b v1.0.0\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), []byte("example.com/a v1.0.0 h1:x=\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp, cleanup, err := tempModfile(dir, []string{"example.com/a"})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	data, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "example.com/a") || !strings.Contains(string(data), "example.com/b v1.0.0") {
		t.Errorf("temporary go.mod:\n%s", data)
	}
	if sum, err := os.ReadFile(filepath.Join(filepath.Dir(tmp), "go.sum")); err != nil || string(sum) != "example.com/a v1.0.0 h1:x=\n" {
		t.Errorf("go.sum copy = %q, %v", sum, err)
	}
	if orig, _ := os.ReadFile(filepath.Join(dir, "go.mod")); string(orig) != gomod {
		t.Error("original go.mod changed")
	}
}
