package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang"
)

const gosvc = "../../testdata/gosvc"

// gopls is loaded once for all the tests that read its facts: a load
// costs seconds.
var goplsRun struct {
	once    sync.Once
	facts   *analyze.Facts
	err     error
	log     strings.Builder
	elapsed time.Duration
}

// goplsRequestTimeout bounds each request of these tests to gopls. They
// check which edges gopls gives, not how fast: a fresh gopls (its cache
// under the tests' own empty home) on a busy machine can take longer than
// the default 30 s for one request, and a request that times out loses
// its edges.
const goplsRequestTimeout = 2 * time.Minute

// goplsFacts loads testdata/gosvc through gopls, skipping the test where
// gopls is not installed.
func goplsFacts(t *testing.T) *analyze.Facts {
	t.Helper()
	path, err := lookCommand("gopls")
	if err != nil {
		t.Skipf("gopls is not installed (%v); install it with: go install golang.org/x/tools/gopls@v0.21.1", err)
	}
	goplsRun.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
		defer cancel()
		start := time.Now()
		var mu sync.Mutex
		goplsRun.facts, goplsRun.err = Load(ctx, gosvc, Options{
			Command:        []string{path},
			RequestTimeout: goplsRequestTimeout,
			Logf: func(format string, args ...any) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintf(&goplsRun.log, format+"\n", args...)
			},
		})
		goplsRun.elapsed = time.Since(start)
	})
	if goplsRun.err != nil {
		t.Fatalf("loading %s with gopls: %v\n%s", gosvc, goplsRun.err, goplsRun.log.String())
	}
	return goplsRun.facts
}

// builtinFacts loads testdata/gosvc with the built-in Go loader.
var builtinRun struct {
	once  sync.Once
	facts *analyze.Facts
	err   error
}

func builtinFacts(t *testing.T) *analyze.Facts {
	t.Helper()
	builtinRun.once.Do(func() {
		builtinRun.facts, builtinRun.err = golang.Load(context.Background(), gosvc, golang.Options{})
	})
	if builtinRun.err != nil {
		t.Fatal(builtinRun.err)
	}
	return builtinRun.facts
}

// symKey names a symbol independently of its ID.
func symKey(fs *analyze.Facts, id analyze.SymID) string {
	s := &fs.Symbols[id]
	f := fs.SymbolFile(id)
	return f.Path + ":" + s.QualName(f.Lang)
}

// edgeKey names an edge independently of symbol IDs.
func edgeKey(fs *analyze.Facts, e analyze.Edge) string {
	return symKey(fs, e.From) + " -" + e.Kind.String() + "-> " + symKey(fs, e.To)
}

type spanRow struct {
	Kind                  string
	Start, End, DeclLine  int
	Exported, Test        bool
	Signature, DocPrefix  string
	ParentQual, Container string
}

func TestGoplsSymbols(t *testing.T) {
	fs := goplsFacts(t)
	t.Logf("gopls load of %s: %v\n%s", gosvc, goplsRun.elapsed.Round(time.Millisecond), goplsRun.log.String())
	got := map[string]spanRow{}
	for i := range fs.Symbols {
		s := &fs.Symbols[i]
		parent := ""
		if s.Parent != analyze.NoSym {
			parent = symKey(fs, s.Parent)
		}
		doc, _, _ := strings.Cut(s.Doc, "\n")
		got[symKey(fs, analyze.SymID(i))] = spanRow{s.Kind.String(), s.Start, s.End, s.DeclLine, s.Exported, s.Test, s.Signature, doc, parent, s.Container}
	}
	want := map[string]spanRow{
		"internal/service/user.go:UserService.FindByEmail": {"method", 34, 50, 37, true, false,
			"func (s *UserService) FindByEmail(ctx context.Context, email string) (*models.User, error)",
			"FindByEmail returns the user registered with email. The address is",
			"internal/service/user.go:UserService", "UserService"},
		"internal/repository/repository.go:UserRepository": {"interface", 21, 33, 23, true, false,
			"type UserRepository interface", "UserRepository loads and stores users. Implementations compare emails in", "", ""},
		"internal/repository/repository.go:UserRepository.GetByEmail": {"method", 24, 25, 25, true, false,
			"GetByEmail(ctx context.Context, email string) (*models.User, error)", "GetByEmail returns the user with the given email or ErrNotFound.",
			"internal/repository/repository.go:UserRepository", "UserRepository"},
		"internal/repository/memory.go:MemoryRepository": {"struct", 11, 18, 14, true, false,
			"type MemoryRepository struct", "MemoryRepository is a UserRepository held in memory. It is safe for", "", ""},
		"internal/repository/memory.go:MemoryRepository.byEmail": {"field", 17, 17, 17, false, false,
			"byEmail map[string]string", "", "internal/repository/memory.go:MemoryRepository", "MemoryRepository"},
		"internal/service/errors.go:ErrUserNotFound": {"var", 10, 11, 11, true, false,
			"var ErrUserNotFound = errors.New(\"user not found\")", "ErrUserNotFound means no user matches the email or ID.", "", ""},
		"internal/service/user_test.go:TestUserService_FindByEmail": {"func", 19, 48, 19, true, true,
			"func TestUserService_FindByEmail(t *testing.T)", "", "", ""},
	}
	for key, w := range want {
		g, ok := got[key]
		if !ok {
			t.Errorf("no symbol %s", key)
			continue
		}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s (-want +got):\n%s", key, diff)
		}
	}
}

func TestGoplsEdges(t *testing.T) {
	fs := goplsFacts(t)
	edges := map[string]analyze.Edge{}
	for _, e := range fs.Edges {
		edges[edgeKey(fs, e)] = e
	}
	for _, want := range []string{
		"internal/service/user.go:UserService.FindByEmail -calls-> internal/repository/repository.go:UserRepository.GetByEmail",
		"internal/service/user.go:UserService.FindByEmail -calls-> internal/models/user.go:NormalizeEmail",
		"internal/httpapi/handlers.go:Handlers.Login -calls-> internal/service/user.go:UserService.FindByEmail",
		"internal/repository/memory.go:MemoryRepository -implements-> internal/repository/repository.go:UserRepository",
		"internal/repository/sql.go:SQLRepository -implements-> internal/repository/repository.go:UserRepository",
		"internal/auth/token.go:TokenIssuer -implements-> internal/auth/token.go:TokenVerifier",
		"internal/repository/memory.go:MemoryRepository.GetByEmail -method_of-> internal/repository/memory.go:MemoryRepository",
		"internal/repository/repository.go:UserRepository.GetByEmail -method_of-> internal/repository/repository.go:UserRepository",
		"internal/service/user.go:UserService -field-> internal/service/user.go:UserService.repo",
		"internal/service/user.go:UserService.FindByEmail -references-> internal/service/errors.go:ErrUserNotFound",
		"internal/service/user.go:UserService.repo -references-> internal/repository/repository.go:UserRepository",
		"internal/service/user.go:UserService -references-> internal/repository/repository.go:UserRepository",
		"internal/service/user_test.go:TestUserService_FindByEmail -tests-> internal/service/user.go:UserService.FindByEmail",
	} {
		e, ok := edges[want]
		if !ok {
			t.Errorf("missing edge %s", want)
			continue
		}
		if !e.Exact && e.Kind != analyze.EdgeTests {
			t.Errorf("edge %s is not exact", want)
		}
	}
	call := edges["internal/service/user.go:UserService.FindByEmail -calls-> internal/repository/repository.go:UserRepository.GetByEmail"]
	if call.Line != 42 {
		t.Errorf("FindByEmail calls GetByEmail at line %d, want 42", call.Line)
	}
}

// TestGoplsMatchesBuiltin compares the gopls facts with the built-in Go
// loader's on the same tree: files, symbol spans and the share of the
// built-in edges that gopls found too, by kind.
func TestGoplsMatchesBuiltin(t *testing.T) {
	lsp := goplsFacts(t)
	ref := builtinFacts(t)

	type fileRow struct {
		Path, Package, PkgName, Category string
		Lines                            int
		Hash                             string
	}
	files := func(fs *analyze.Facts) []fileRow {
		var out []fileRow
		for _, f := range fs.Files {
			out = append(out, fileRow{f.Path, f.Package, f.PkgName, f.Category.String(), f.Lines, f.Hash})
		}
		return out
	}
	if diff := cmp.Diff(files(ref), files(lsp)); diff != "" {
		t.Errorf("files (-builtin +gopls):\n%s", diff)
	}

	spans := func(fs *analyze.Facts) map[string]string {
		out := map[string]string{}
		for i := range fs.Symbols {
			s := &fs.Symbols[i]
			out[symKey(fs, analyze.SymID(i))] = fmt.Sprintf("%s %d-%d@%d", s.Kind, s.Start, s.End, s.DeclLine)
		}
		return out
	}
	refSpans, lspSpans := spans(ref), spans(lsp)
	same := 0
	var diffs []string
	for k, v := range refSpans {
		if lspSpans[k] == v {
			same++
		} else {
			diffs = append(diffs, fmt.Sprintf("%s: builtin %s, gopls %q", k, v, lspSpans[k]))
		}
	}
	sort.Strings(diffs)
	t.Logf("symbols: %d/%d built-in symbols have the same kind and span under gopls (gopls has %d)", same, len(refSpans), len(lspSpans))
	if same*100 < len(refSpans)*95 {
		t.Errorf("only %d of %d symbols agree:\n%s", same, len(refSpans), strings.Join(diffs, "\n"))
	}

	have := map[string]bool{}
	for _, e := range lsp.Edges {
		have[edgeKey(lsp, e)] = true
	}
	total, found := map[analyze.EdgeKind]int{}, map[analyze.EdgeKind]int{}
	var missing []string
	for _, e := range ref.Edges {
		total[e.Kind]++
		if have[edgeKey(ref, e)] {
			found[e.Kind]++
		} else {
			missing = append(missing, edgeKey(ref, e))
		}
	}
	sort.Strings(missing)
	var all, allFound int
	var report []string
	for k := analyze.EdgeKind(1); int(k) < analyze.NumEdgeKinds; k++ {
		if total[k] == 0 {
			continue
		}
		all += total[k]
		allFound += found[k]
		report = append(report, fmt.Sprintf("%s %d/%d", k, found[k], total[k]))
	}
	t.Logf("edge coverage of the built-in loader: %d/%d (%.1f%%); %s; gopls has %d edges in all",
		allFound, all, 100*float64(allFound)/float64(all), strings.Join(report, ", "), len(lsp.Edges))
	if len(missing) > 0 {
		t.Logf("built-in edges gopls did not give:\n%s", strings.Join(missing, "\n"))
	}
	for _, k := range []analyze.EdgeKind{analyze.EdgeCalls, analyze.EdgeImplements, analyze.EdgeMethodOf} {
		if found[k] < total[k] {
			t.Errorf("%s: gopls found %d of the built-in loader's %d edges", k, found[k], total[k])
		}
	}
	if allFound*100 < all*95 {
		t.Errorf("gopls found %d of the built-in loader's %d edges, want at least 95%%", allFound, all)
	}
}

// TestGoplsNestedModule: a module inside the repository, outside the root
// module, is loaded as a module of its own (the loader passes it as a
// workspace folder; gopls 0.15 and later also find it for open files), so
// calls across its packages resolve.
func TestGoplsNestedModule(t *testing.T) {
	path, err := lookCommand("gopls")
	if err != nil {
		t.Skipf("gopls is not installed (%v)", err)
	}
	root := writeTree(t, map[string]string{
		"go.mod":               "module example.com/top\n\ngo 1.22\n",
		"top.go":               "package top\n\n// Top is the root module's function.\nfunc Top() int { return 1 }\n",
		"tools/gen/go.mod":     "module example.com/gen\n\ngo 1.22\n",
		"tools/gen/main.go":    "package main\n\nimport \"example.com/gen/lib\"\n\nfunc main() { lib.Render() }\n",
		"tools/gen/lib/lib.go": "package lib\n\n// Render renders.\nfunc Render() string { return helper() }\n\nfunc helper() string { return \"x\" }\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fs, err := Load(ctx, root, Options{Command: []string{path}, RequestTimeout: goplsRequestTimeout})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range fs.Edges {
		if e.Kind == analyze.EdgeCalls {
			got = append(got, edgeKey(fs, e))
		}
	}
	want := []string{
		"tools/gen/lib/lib.go:Render -calls-> tools/gen/lib/lib.go:helper",
		"tools/gen/main.go:main -calls-> tools/gen/lib/lib.go:Render",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	var pkgs []string
	for _, f := range fs.Files {
		pkgs = append(pkgs, f.Path+" "+f.Package)
	}
	if diff := cmp.Diff([]string{"tools/gen/lib/lib.go example.com/gen/lib", "tools/gen/main.go example.com/gen", "top.go example.com/top"}, pkgs); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
}

// TestGoplsDeterministic loads the tree again, one request at a time, and
// expects the same facts: answers arrive in any order, but they are merged
// in a fixed one.
func TestGoplsDeterministic(t *testing.T) {
	first := goplsFacts(t)
	path, _ := lookCommand("gopls")
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	again, err := Load(ctx, gosvc, Options{Command: []string{path}, Concurrency: 1, RequestTimeout: goplsRequestTimeout})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		name string
		a, b any
	}{
		{"files", first.Files, again.Files},
		{"symbols", first.Symbols, again.Symbols},
		{"edges", first.Edges, again.Edges},
		{"imports", first.Imports, again.Imports},
		{"problems", first.Problems, again.Problems},
	} {
		if diff := cmp.Diff(d.a, d.b); diff != "" {
			t.Errorf("%s differ between loads (-first +again):\n%s", d.name, diff)
		}
	}
}
