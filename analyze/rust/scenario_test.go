package rust

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Scenario archives (testdata/scenarios/*.txtar) hold a small repository
// after a comment of expectations, one per line:
//
//	edge FROM KIND TO        an edge exists (FROM and TO are qualified names: UserService::find_by_email)
//	edge! FROM KIND TO       the same, and it is exact
//	edge~ FROM KIND TO       the same, and it is not exact
//	!edge FROM KIND TO       no such edge
//	sym KIND QUALNAME [START-END] [decl=N] [test|!test] [exported|!exported] [parent=QUALNAME] [file=PATH]
//	!sym QUALNAME
//	file PATH [package=GLOB] [crate=NAME] [errors=N] [degraded] [category=CAT]
//	import PATH MODULE
//	!import PATH MODULE
//	problem KIND [PATH[:LINE]] [TEXT…]
//	noproblem KIND
//	doc QUALNAME TEXT…       the symbol's doc contains TEXT
//	sig QUALNAME TEXT…       the symbol's signature equals TEXT
//
// A + in a qualified name stands for a space (Store+for+MemoryStore).
// Lines starting with # are comments.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			root, ar := extractTxtar(t, file)
			facts, err := Load(context.Background(), root, Options{})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			checkWants(t, facts, string(ar.Comment))
		})
	}
}

// extractTxtar writes the files of a txtar archive into a temporary
// directory and returns it with the archive.
func extractTxtar(t *testing.T, file string) (string, *txtar.Archive) {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, ar
}

// checkWants checks every expectation line against facts.
func checkWants(t *testing.T, facts *analyze.Facts, wants string) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(wants))
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		if err := checkWant(facts, line); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	if n == 0 {
		t.Fatal("scenario has no expectations")
	}
	if t.Failed() {
		t.Logf("facts: %s", dumpFacts(facts))
	}
}

func checkWant(f *analyze.Facts, line string) error {
	fields := strings.Fields(line)
	verb, args := fields[0], fields[1:]
	switch verb {
	case "edge", "edge!", "edge~", "!edge":
		if len(args) != 3 {
			return fmt.Errorf("want FROM KIND TO")
		}
		kind, ok := analyze.ParseEdgeKind(args[1])
		if !ok {
			return fmt.Errorf("unknown edge kind %q", args[1])
		}
		e, found := findEdge(f, args[0], kind, args[2])
		switch {
		case verb == "!edge" && found:
			return fmt.Errorf("unexpected edge (exact=%v, line %d)", e.Exact, e.Line)
		case verb == "!edge":
			return nil
		case !found:
			return fmt.Errorf("edge missing; edges from %s: %s", args[0], edgesFrom(f, args[0]))
		case verb == "edge!" && !e.Exact:
			return fmt.Errorf("edge is not exact")
		case verb == "edge~" && e.Exact:
			return fmt.Errorf("edge is exact")
		}
		return nil
	case "sym", "!sym":
		if verb == "!sym" {
			if ids := symsNamed(f, args[0]); len(ids) > 0 {
				return fmt.Errorf("unexpected symbol(s) %v", ids)
			}
			return nil
		}
		if len(args) < 2 {
			return fmt.Errorf("want KIND QUALNAME")
		}
		var errs []string
		for _, id := range symsNamed(f, args[1]) {
			err := symMatches(f, id, args[0], args[2:])
			if err == nil {
				return nil
			}
			errs = append(errs, err.Error())
		}
		if len(errs) == 0 {
			return fmt.Errorf("no symbol named %s", args[1])
		}
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	case "file":
		id, ok := f.FileByPath(args[0])
		if !ok {
			return fmt.Errorf("no such file")
		}
		fl := f.Files[id]
		for _, a := range args[1:] {
			k, v, _ := strings.Cut(a, "=")
			var got string
			switch k {
			case "package":
				if ok, _ := path.Match(v, fl.Package); !ok {
					return fmt.Errorf("package %q", fl.Package)
				}
				continue
			case "crate":
				if ok, _ := path.Match(v, fl.PkgName); !ok {
					return fmt.Errorf("crate %q", fl.PkgName)
				}
				continue
			case "errors":
				got = strconv.Itoa(fl.Errors)
			case "degraded":
				got, v = strconv.FormatBool(fl.Degraded), "true"
			case "category":
				got = fl.Category.String()
			default:
				return fmt.Errorf("unknown file attribute %q", k)
			}
			if got != v {
				return fmt.Errorf("%s is %q", k, got)
			}
		}
		return nil
	case "import", "!import":
		id, ok := f.FileByPath(args[0])
		if !ok {
			return fmt.Errorf("no such file")
		}
		var have []string
		for _, im := range f.Imports {
			if im.File == id {
				have = append(have, im.Path)
				if im.Path == args[1] && verb == "!import" {
					return fmt.Errorf("unexpected import")
				}
				if im.Path == args[1] {
					return nil
				}
			}
		}
		if verb == "!import" {
			return nil
		}
		return fmt.Errorf("imports are %v", have)
	case "problem", "noproblem":
		var kind analyze.ProblemKind
		for k := analyze.ProblemSyntax; k <= analyze.ProblemLimit; k++ {
			if k.String() == args[0] {
				kind = k
			}
		}
		if kind == 0 {
			return fmt.Errorf("unknown problem kind %q", args[0])
		}
		if verb == "noproblem" {
			for _, p := range f.Problems {
				if p.Kind == kind {
					return fmt.Errorf("unexpected problem %s", p)
				}
			}
			return nil
		}
		var where, text string
		if len(args) > 1 {
			where = args[1]
			text = strings.Join(args[2:], " ")
		}
		for _, p := range f.Problems {
			loc := p.Path
			if p.Line > 0 && strings.Contains(where, ":") {
				loc = fmt.Sprintf("%s:%d", p.Path, p.Line)
			}
			if p.Kind == kind && (where == "" || loc == where) && strings.Contains(p.Msg, text) {
				return nil
			}
		}
		return fmt.Errorf("not among %v", f.Problems)
	case "doc", "sig":
		want := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, verb), " "+args[0]))
		var got []string
		for _, id := range symsNamed(f, args[0]) {
			s := f.Symbols[id]
			if verb == "doc" && strings.Contains(s.Doc, want) || verb == "sig" && s.Signature == want {
				return nil
			}
			got = append(got, fmt.Sprintf("doc=%q sig=%q", s.Doc, s.Signature))
		}
		return fmt.Errorf("got %v", got)
	}
	return fmt.Errorf("unknown expectation %q", verb)
}

// symsNamed returns the symbols whose qualified name is q; a + in q stands
// for a space ("Store+for+MemoryStore").
func symsNamed(f *analyze.Facts, q string) []analyze.SymID {
	q = strings.ReplaceAll(q, "+", " ")
	var out []analyze.SymID
	for i := range f.Symbols {
		if f.Symbols[i].QualName(analyze.LangRust) == q {
			out = append(out, analyze.SymID(i))
		}
	}
	return out
}

func symMatches(f *analyze.Facts, id analyze.SymID, kind string, attrs []string) error {
	s := f.Symbols[id]
	if s.Kind.String() != kind {
		return fmt.Errorf("kind %s", s.Kind)
	}
	for _, a := range attrs {
		k, v, _ := strings.Cut(a, "=")
		switch {
		case strings.Contains(a, "-") && !strings.Contains(a, "="):
			if got := fmt.Sprintf("%d-%d", s.Start, s.End); got != a {
				return fmt.Errorf("span %s", got)
			}
		case k == "decl":
			if strconv.Itoa(s.DeclLine) != v {
				return fmt.Errorf("decl line %d", s.DeclLine)
			}
		case k == "test":
			if !s.Test {
				return fmt.Errorf("not a test")
			}
		case k == "!test":
			if s.Test {
				return fmt.Errorf("marked as test")
			}
		case k == "exported":
			if !s.Exported {
				return fmt.Errorf("not exported")
			}
		case k == "!exported":
			if s.Exported {
				return fmt.Errorf("exported")
			}
		case k == "parent":
			if s.Parent == analyze.NoSym || f.Symbols[s.Parent].QualName(analyze.LangRust) != strings.ReplaceAll(v, "+", " ") {
				return fmt.Errorf("parent %v", s.Parent)
			}
		case k == "file":
			if f.Files[s.File].Path != v {
				return fmt.Errorf("file %s", f.Files[s.File].Path)
			}
		default:
			return fmt.Errorf("unknown symbol attribute %q", a)
		}
	}
	return nil
}

func findEdge(f *analyze.Facts, from string, kind analyze.EdgeKind, to string) (analyze.Edge, bool) {
	from, to = strings.ReplaceAll(from, "+", " "), strings.ReplaceAll(to, "+", " ")
	for _, e := range f.Edges {
		if e.Kind == kind && f.Symbols[e.From].QualName(analyze.LangRust) == from && f.Symbols[e.To].QualName(analyze.LangRust) == to {
			return e, true
		}
	}
	return analyze.Edge{}, false
}

func edgesFrom(f *analyze.Facts, from string) string {
	var out []string
	for _, e := range f.Edges {
		if f.Symbols[e.From].QualName(analyze.LangRust) == strings.ReplaceAll(from, "+", " ") {
			out = append(out, fmt.Sprintf("%s(%v) %s", e.Kind, e.Exact, f.Symbols[e.To].QualName(analyze.LangRust)))
		}
	}
	return strings.Join(out, ", ")
}
