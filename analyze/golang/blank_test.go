package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// declarations prints a file's declarations with function bodies
// dropped, and the position of every declaration.
func declarations(t testing.TB, src []byte) (string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	var b bytes.Buffer
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			fd.Body = nil
		}
		b.WriteString(fset.Position(d.Pos()).String())
		b.WriteString(" ")
		if err := printer.Fprint(&b, fset, d); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
	}
	return b.String(), true
}

// checkBlank asserts that blanking src's bodies leaves its declarations,
// and their positions, as they were.
func checkBlank(t testing.TB, name string, src []byte) bool {
	want, ok := declarations(t, src)
	if !ok {
		return false
	}
	b := blankBodies(src)
	if b == nil {
		return false
	}
	if len(b) != len(src) || bytes.Count(b, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Fatalf("%s: blanking changed the size or the lines of the file", name)
	}
	got, ok := declarations(t, b)
	if !ok {
		t.Fatalf("%s: the blanked file does not parse", name)
	}
	if got != want {
		t.Fatalf("%s: blanking changed the declarations:\n--- want\n%s\n--- got\n%s", name, want, got)
	}
	return true
}

func TestBlankBodies(t *testing.T) {
	cases := map[string]string{
		"plain":           "package p\n\nfunc f() int {\n\treturn 1 // }\n}\n",
		"signature types": "package p\n\nfunc f(x struct{ a int }) interface{ M() } {\n\tif true { return nil }\n\treturn nil\n}\n",
		"result func":     "package p\n\nfunc f() func() int {\n\treturn func() int { return 1 }\n}\n",
		"generic":         "package p\n\nfunc f[T interface{ ~int }](x T) map[string]struct{} {\n\treturn nil\n}\n\nfunc (r *R[K]) M() {}\n\ntype R[K any] struct{}\n",
		"literals kept":   "package p\n\nvar fs = [...]func(){\n\tfunc() {},\n\tfunc() {},\n}\n\nvar g = func() int { return len(fs) }\n",
		"assembly":        "package p\n\nfunc add(a, b int) int\n\nfunc sub(a, b int) int { return a - b }\n",
		"strings":         "package p\n\nfunc f() string {\n\treturn \"}{\" + `}\n{` + string('}')\n}\n",
	}
	for name, src := range cases {
		if !checkBlank(t, name, []byte(src)) && name != "literals kept" {
			t.Errorf("%s: not blanked", name)
		}
	}
	// The array length of a literal outside any function must not change.
	b := blankBodies([]byte(cases["literals kept"]))
	if b != nil && !bytes.Contains(b, []byte("func() {},\n\tfunc() {},")) {
		t.Errorf("the elements of a package-level literal were blanked:\n%s", b)
	}
}

// TestBlankBodiesStandardLibrary blanks every file of a few large
// standard-library packages: their declarations stay as they were.
func TestBlankBodiesStandardLibrary(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src")
	blanked := 0
	for _, dir := range []string{"net/http", "go/types", "runtime", "reflect", "encoding/json", "crypto/tls", "cmd/compile/internal/ssa"} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Skipf("no standard library sources: %v", err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			p := filepath.Join(root, dir, e.Name())
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if checkBlank(t, p, src) {
				blanked++
			}
		}
	}
	if blanked < 500 {
		t.Errorf("only %d files blanked", blanked)
	}
}

func FuzzBlankBodies(f *testing.F) {
	f.Add([]byte("package p\n\nfunc f() int {\n\treturn 1\n}\n"))
	f.Add([]byte("package p\n\nfunc f(x struct{ a int }) interface{ M() } { return nil }\n"))
	f.Add([]byte("package p\n\nvar fs = [...]func(){func() {}}\n\nfunc add(a, b int) int\n"))
	f.Add([]byte("package p\n\nfunc f[T interface{ ~int }](x T) {}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkBlank(t, "fuzz", src)
	})
}

func BenchmarkParseDeclarations(b *testing.B) {
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Skip(err)
	}
	var srcs [][]byte
	size := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			src, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			srcs = append(srcs, src)
			size += len(src)
		}
	}
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, src := range srcs {
				parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
			}
		}
	})
	b.Run("blanked", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, src := range srcs {
				if bl := blankBodies(src); bl != nil {
					src = bl
				}
				parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
			}
		}
	})
}
