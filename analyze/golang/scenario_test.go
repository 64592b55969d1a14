package golang

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// TestScenarios loads each testdata/scenarios/*.txtar repository and checks
// the expectations written in the archive's comment, one per line:
//
//	file PATH [degraded] [errors=N] [cat=CATEGORY]   the file is a fact (with those properties)
//	!file PATH                                       the file is not a fact
//	!file PATH degraded                              the file is a fact and not degraded
//	symbol PATH QUALNAME KIND                        a symbol of that kind is declared in PATH
//	edge PATH:QUAL KIND PATH:QUAL [exact|inexact]    the edge exists
//	!edge PATH:QUAL KIND PATH:QUAL                   the edge does not exist
//	problem KIND PATH[:LINE] TEXT                    a problem of that kind whose message contains TEXT
//	!problem KIND PATH[:LINE] TEXT                   no such problem
//	import PATH IMPORTPATH [LINE]                    the file imports the path (on that line)
//	package PATH IMPORTPATH                          the file's package has that import path
//	binary PATH / invalid-utf8 PATH                  write such a file before loading
//	option syntax-only | skip-tests | all-dirs | no-go | max-file-size N
//	module MODPATH VERSION DIR                       the archive's files under DIR/ are that module
//
// The archive's first paragraph is prose.
//
// A scenario never depends on what this machine's module cache happens to
// hold: one with module directives gets a module cache of its own, filled
// from a file:// proxy built from the archive, and loads with it (the
// files under DIR/ are not written into the repository). One without them
// needs no module outside the standard library.
func TestScenarios(t *testing.T) {
	paths, err := filepath.Glob("testdata/scenarios/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(ar.Comment), "\noption no-go") {
				// exec looks the go command up in this process's PATH, so
				// hide it there; t.Setenv keeps this subtest sequential.
				t.Setenv("PATH", t.TempDir())
			} else {
				t.Parallel()
			}
			root := t.TempDir()
			mods := scenarioModules(t, ar)
			writeArchive(t, root, withoutModules(ar, mods))
			var opt Options
			if len(mods) > 0 {
				opt.Env = privateModuleCache(t, ar, mods)
			}
			var checks [][]string
			_, spec, _ := strings.Cut(string(ar.Comment), "\n\n") // prose, then directives
			for _, line := range strings.Split(spec, "\n") {
				f := strings.Fields(line)
				if len(f) == 0 {
					continue
				}
				if !isDirective(f[0]) {
					t.Fatalf("unknown directive %q", line)
				}
				switch f[0] {
				case "module":
					// Handled above.
				case "binary":
					writeFile(t, root, f[1], []byte("package x\x00\x01\x02\x03\xff\xfe"))
				case "invalid-utf8":
					writeFile(t, root, f[1], []byte("package bad\n\n// caf\xe9 au lait\nfunc Y() string { return \"\xff\" }\n"))
				case "option":
					switch f[1] {
					case "syntax-only":
						opt.SyntaxOnly = true
					case "skip-tests":
						opt.SkipTests = true
					case "all-dirs":
						opt.AllDirs = true
					case "no-go":
						// Handled above.
					case "max-file-size":
						n, err := strconv.Atoi(f[2])
						if err != nil {
							t.Fatal(err)
						}
						opt.MaxFileSize = int64(n)
					default:
						t.Fatalf("unknown option %q", f[1])
					}
				default:
					checks = append(checks, f)
				}
			}
			before := snapshot(t, root)
			facts, err := Load(context.Background(), root, opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, snapshot(t, root)); diff != "" {
				t.Errorf("Load changed the repository (-before +after):\n%s", diff)
			}
			failed := false
			for _, c := range checks {
				if msg := checkFacts(facts, c); msg != "" {
					t.Errorf("%s: %s", strings.Join(c, " "), msg)
					failed = true
				}
			}
			if failed {
				t.Logf("facts:\n%s", dumpFacts(facts))
			}
		})
	}
}

var directives = map[string]bool{
	"file": true, "!file": true, "symbol": true, "edge": true, "!edge": true, "problem": true, "!problem": true,
	"import": true, "package": true, "binary": true, "invalid-utf8": true, "option": true, "module": true,
}

func isDirective(w string) bool { return directives[w] }

func writeArchive(t testing.TB, root string, ar *txtar.Archive) {
	t.Helper()
	for _, f := range ar.Files {
		writeFile(t, root, f.Name, f.Data)
	}
}

func writeFile(t testing.TB, root, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkFacts evaluates one directive, returning "" when it holds.
func checkFacts(fs *analyze.Facts, c []string) string {
	need := func(n int) bool { return len(c) >= n }
	switch c[0] {
	case "file", "!file":
		if !need(2) {
			return "malformed"
		}
		id, ok := fs.FileByPath(c[1])
		if c[0] == "!file" && len(c) == 2 {
			if ok {
				return "file is present"
			}
			return ""
		}
		if !ok {
			return "file is missing"
		}
		f := fs.Files[id]
		for _, prop := range c[2:] {
			switch {
			case prop == "degraded":
				if f.Degraded == (c[0] == "!file") {
					return fmt.Sprintf("Degraded = %v", f.Degraded)
				}
			case strings.HasPrefix(prop, "errors="):
				if want, _ := strconv.Atoi(prop[len("errors="):]); f.Errors != want {
					return fmt.Sprintf("Errors = %d", f.Errors)
				}
			case strings.HasPrefix(prop, "cat="):
				if f.Category.String() != prop[len("cat="):] {
					return fmt.Sprintf("Category = %v", f.Category)
				}
			default:
				return "unknown property " + prop
			}
		}
		return ""
	case "symbol":
		if !need(4) {
			return "malformed"
		}
		if findSym(fs, c[1]+":"+c[2], c[3]) == analyze.NoSym {
			return "no such symbol"
		}
		return ""
	case "edge", "!edge":
		if !need(4) {
			return "malformed"
		}
		from, to := findSym(fs, c[1], ""), findSym(fs, c[3], "")
		if from == analyze.NoSym || to == analyze.NoSym {
			if c[0] == "!edge" {
				return ""
			}
			return fmt.Sprintf("endpoint missing (from %d, to %d)", from, to)
		}
		kind, ok := analyze.ParseEdgeKind(c[2])
		if !ok {
			return "unknown edge kind"
		}
		for _, e := range fs.Edges {
			if e.From != from || e.To != to || e.Kind != kind {
				continue
			}
			if c[0] == "!edge" {
				return "edge is present"
			}
			if len(c) > 4 && (c[4] == "exact") != e.Exact {
				return fmt.Sprintf("Exact = %v", e.Exact)
			}
			return ""
		}
		if c[0] == "!edge" {
			return ""
		}
		return "edge is missing"
	case "problem", "!problem":
		if !need(4) {
			return "malformed"
		}
		p, line, _ := strings.Cut(c[2], ":")
		text := strings.Join(c[3:], " ")
		for _, pr := range fs.Problems {
			if pr.Kind.String() != c[1] || pr.Path != p || !strings.Contains(pr.Msg, text) {
				continue
			}
			if line != "" && strconv.Itoa(pr.Line) != line {
				continue
			}
			if c[0] == "!problem" {
				return "problem is present: " + pr.String()
			}
			return ""
		}
		if c[0] == "!problem" {
			return ""
		}
		return "no such problem"
	case "import", "package":
		if !need(3) {
			return "malformed"
		}
		id, ok := fs.FileByPath(c[1])
		if !ok {
			return "file is missing"
		}
		if c[0] == "package" {
			if fs.Files[id].Package != c[2] {
				return "Package = " + fs.Files[id].Package
			}
			return ""
		}
		for _, im := range fs.Imports {
			if im.File == id && im.Path == c[2] {
				if len(c) > 3 && strconv.Itoa(im.Line) != c[3] {
					return fmt.Sprintf("Line = %d", im.Line)
				}
				return ""
			}
		}
		return "import is missing"
	}
	return "unknown directive"
}

// findSym finds the symbol "path:QualName" (of the given kind, if any).
func findSym(fs *analyze.Facts, ref, kind string) analyze.SymID {
	p, qual, ok := strings.Cut(ref, ":")
	if !ok {
		return analyze.NoSym
	}
	for i, s := range fs.Symbols {
		if fs.Files[s.File].Path == p && s.QualName(analyze.LangGo) == qual && (kind == "" || s.Kind.String() == kind) {
			return analyze.SymID(i)
		}
	}
	return analyze.NoSym
}

// dumpFacts renders facts for failure messages and golden files.
func dumpFacts(fs *analyze.Facts) string {
	var b strings.Builder
	name := func(id analyze.SymID) string {
		s := &fs.Symbols[id]
		return fs.Files[s.File].Path + ":" + s.QualName(analyze.LangGo)
	}
	for _, f := range fs.Files {
		fmt.Fprintf(&b, "file %s package=%s name=%s cat=%s lines=%d degraded=%v errors=%d\n",
			f.Path, f.Package, f.PkgName, f.Category, f.Lines, f.Degraded, f.Errors)
	}
	for i, s := range fs.Symbols {
		parent := ""
		if s.Parent != analyze.NoSym {
			parent = " parent=" + name(s.Parent)
		}
		fmt.Fprintf(&b, "symbol %s %s %d-%d decl=%d exported=%v test=%v%s sig=%q\n",
			name(analyze.SymID(i)), s.Kind, s.Start, s.End, s.DeclLine, s.Exported, s.Test, parent, s.Signature)
	}
	for _, e := range fs.Edges {
		exact := "inexact"
		if e.Exact {
			exact = "exact"
		}
		fmt.Fprintf(&b, "edge %s %s %s %s line=%d\n", name(e.From), e.Kind, name(e.To), exact, e.Line)
	}
	for _, im := range fs.Imports {
		fmt.Fprintf(&b, "import %s %s line=%d\n", fs.Files[im.File].Path, im.Path, im.Line)
	}
	for _, p := range fs.Problems {
		fmt.Fprintf(&b, "problem %s\n", p)
	}
	return b.String()
}

// snapshot maps every file under root to its content.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	files := make(map[string]string)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		files[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
