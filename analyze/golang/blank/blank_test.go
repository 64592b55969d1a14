package blank

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// declarations prints a file's declarations with function bodies
// dropped, and the position of every declaration. What Bodies may
// blank in package-level variables goes too: the elements of composite
// literals and the bodies of function literals (varTypes checks that
// their types stay).
func declarations(t testing.TB, src []byte) (string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	var b bytes.Buffer
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			d.Body = nil
		case *ast.GenDecl:
			if d.Tok == token.VAR {
				ast.Inspect(d, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.CompositeLit:
						n.Elts = nil
					case *ast.FuncLit:
						n.Body.List = nil
					}
					return true
				})
			}
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

// varTypes type-checks a file alone, as the loader checks a dependency
// (no function bodies; an import is an empty package), and gives the type
// of every package-level variable and constant by name.
func varTypes(src []byte) map[string]string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	conf := types.Config{
		IgnoreFuncBodies: true,
		FakeImportC:      true,
		Importer:         emptyImporter{},
		Error:            func(error) {},
	}
	pkg, _ := conf.Check("p", fset, []*ast.File{f}, nil)
	if pkg == nil {
		return nil
	}
	out := map[string]string{}
	for _, name := range pkg.Scope().Names() {
		switch o := pkg.Scope().Lookup(name).(type) {
		case *types.Var, *types.Const:
			out[name] = o.Type().String()
		}
	}
	return out
}

// emptyImporter gives every import as an empty package named after the
// last element of its path.
type emptyImporter struct{}

func (emptyImporter) Import(p string) (*types.Package, error) {
	pkg := types.NewPackage(p, path.Base(p))
	pkg.MarkComplete()
	return pkg, nil
}

// sameVarTypes reports the first variable or constant whose type blanking
// changed. A type the original leaves invalid may become valid: the error
// was in a value blanking removed (an initialization cycle through a
// literal, say), which a dependency that builds does not have.
func sameVarTypes(want, got map[string]string) (string, bool) {
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if got[name] != want[name] && want[name] != "invalid type" {
			return fmt.Sprintf("%s: %s, was %s", name, got[name], want[name]), false
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			return fmt.Sprintf("%s: %s, not declared before", name, got[name]), false
		}
	}
	return "", true
}

// checkBlank asserts that blanking src's bodies leaves its declarations,
// their positions and the types of its variables as they were.
func checkBlank(t testing.TB, name string, src []byte) bool {
	want, ok := declarations(t, src)
	if !ok {
		return false
	}
	b := Bodies(src)
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
	if diff, ok := sameVarTypes(varTypes(src), varTypes(b)); !ok {
		t.Fatalf("%s: blanking changed the type of a variable: %s", name, diff)
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
		"var literals":    "package p\n\nvar (\n\ttable = []struct{ a, b int }{\n\t\t{1, 2},\n\t\t{3, 4},\n\t}\n\tset = map[string]struct{}{\"a\": {}}\n\tn, counted = 2, [...]int{1, 2, 3}\n\tfixed = [3]int{1, 2, 3}\n)\n\nvar f = func() int { return len(table) }\n\nvar v interface{ M() } = T{x: 1}\n\ntype T struct{ x int }\n\nfunc (T) M() {}\n",
		"assembly":        "package p\n\nfunc add(a, b int) int\n\nfunc sub(a, b int) int { return a - b }\n",
		"strings":         "package p\n\nfunc f() string {\n\treturn \"}{\" + `}\n{` + string('}')\n}\n",
	}
	for name, src := range cases {
		if !checkBlank(t, name, []byte(src)) && name != "literals kept" {
			t.Errorf("%s: not blanked", name)
		}
	}
	// An array whose length counts its elements keeps them.
	b := Bodies([]byte(cases["literals kept"]))
	if b != nil && !bytes.Contains(b, []byte("func() {},\n\tfunc() {},")) {
		t.Errorf("the elements of a [...] literal were blanked:\n%s", b)
	}
	// Other literals in variables lose theirs.
	b = Bodies([]byte(cases["var literals"]))
	for _, gone := range []string{"{1, 2}", `"a": {}`, "[3]int{1, 2, 3}", "return len(table)", "x: 1"} {
		if bytes.Contains(b, []byte(gone)) {
			t.Errorf("%q was not blanked:\n%s", gone, b)
		}
	}
	if !bytes.Contains(b, []byte("[...]int{1, 2, 3}")) {
		t.Errorf("the [...] literal in a group was blanked:\n%s", b)
	}
}

// stdlibSources reads the .go files of a standard-library directory
// (the _test.go files too when tests is set), skipping the test or
// benchmark when the sources are not installed.
func stdlibSources(tb testing.TB, dir string, tests bool) (paths []string, srcs [][]byte) {
	tb.Helper()
	dir = filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(dir))
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Skipf("no standard library sources: %v", err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || !tests && strings.HasSuffix(name, "_test.go") {
			continue
		}
		p := filepath.Join(dir, name)
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		paths, srcs = append(paths, p), append(srcs, src)
	}
	return paths, srcs
}

// TestBlankBodiesStandardLibrary blanks every file of a few large
// standard-library packages: their declarations stay as they were.
func TestBlankBodiesStandardLibrary(t *testing.T) {
	blanked := 0
	for _, dir := range []string{"net/http", "go/types", "runtime", "reflect", "encoding/json", "crypto/tls", "cmd/compile/internal/ssa"} {
		paths, srcs := stdlibSources(t, dir, true)
		for i, src := range srcs {
			if checkBlank(t, paths[i], src) {
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
	f.Add([]byte("package p\n\nvar (\n\tt = []struct{ a int }{{1}}\n\tn = [...]int{1, 2}\n)\n\nvar m = map[string]int{\"a\": len(t)}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkBlank(t, "fuzz", src)
	})
}

func BenchmarkParseDeclarations(b *testing.B) {
	_, srcs := stdlibSources(b, "net/http", true)
	size := 0
	for _, src := range srcs {
		size += len(src)
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
				if bl := Bodies(src); bl != nil {
					src = bl
				}
				parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
			}
		}
	})
}

// BenchmarkCheckDeclarations parses and type-checks the unicode package
// (its tables are variables of thousands of elements) as the loader
// checks a dependency, from the whole source and from the blanked one.
func BenchmarkCheckDeclarations(b *testing.B) {
	_, srcs := stdlibSources(b, "unicode", false)
	check := func(b *testing.B, blank bool) {
		for b.Loop() {
			fset := token.NewFileSet()
			var files []*ast.File
			for _, src := range srcs {
				if bl := Bodies(src); blank && bl != nil {
					src = bl
				}
				f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
				if err != nil {
					b.Fatal(err)
				}
				files = append(files, f)
			}
			conf := types.Config{IgnoreFuncBodies: true, Error: func(error) {}}
			if _, err := conf.Check("unicode", fset, files, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("whole", func(b *testing.B) { check(b, false) })
	b.Run("blanked", func(b *testing.B) { check(b, true) })
}
