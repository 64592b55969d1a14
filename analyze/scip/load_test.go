package scip

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// sample is the path of a sample repository of the module's testdata.
func sample(t testing.TB, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func load(t testing.TB, root string) *Result {
	t.Helper()
	r, err := Load(context.Background(), root, Options{Indexes: []string{"index.scip"}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// edgeSet renders the facts' edges as "From -kind-> To" lines.
func edgeSet(f *analyze.Facts) map[string]analyze.Edge {
	out := map[string]analyze.Edge{}
	for _, e := range f.Edges {
		from, to := &f.Symbols[e.From], &f.Symbols[e.To]
		out[fmt.Sprintf("%s -%s-> %s", from.QualName(f.Files[from.File].Lang), e.Kind, to.QualName(f.Files[to.File].Lang))] = e
	}
	return out
}

func TestLoadSamples(t *testing.T) {
	for _, tc := range []struct {
		repo  string
		files int
		edges []string // must be present, exact, from SCIP
		not   []string // must be absent
		kinds map[string]analyze.SymbolKind
	}{
		{
			repo: "tssvc", files: 15,
			edges: []string{
				"UserService.findByEmail -calls-> normalizeEmail",
				"UserService.findByEmail -calls-> isValidEmail",
				"UserService.findByEmail -calls-> UserRepository.getByEmail",
				"UserService.findByEmail -calls-> UserNotFoundError.constructor", // new UserNotFoundError(…)
				"UserService.findByEmail -references-> User",
				"UserService.authenticate -calls-> UserService.findByEmail",
				"Handlers.getUser -calls-> UserService.findByEmail",
				"MemoryUserRepository -implements-> UserRepository",
				"MemoryUserRepository.getByEmail -implements-> UserRepository.getByEmail",
				"UserService.findByEmail -method_of-> UserService",
				"User -field-> User.email",
				"user.test -tests-> UserService.findByEmail", // a test callback's call, from the test file's module
				"user.test -calls-> test",
				"main -calls-> main", // the module's top-level call of main()
			},
			not: []string{
				"handlers -references-> user", // modules named in imports are import records, not edges
			},
			kinds: map[string]analyze.SymbolKind{
				"UserService": analyze.KindStruct, "UserRepository": analyze.KindInterface, "Role": analyze.KindEnum,
				"Route": analyze.KindTypeAlias, "UserService.findByEmail": analyze.KindMethod, "normalizeEmail": analyze.KindFunc,
				"slugify": analyze.KindFunc, "User.email": analyze.KindField, "Role.Admin": analyze.KindVariant,
			},
		},
		{
			repo: "pysvc", files: 12,
			edges: []string{
				"UserService.find_by_email -calls-> normalize_email",
				"UserService.find_by_email -calls-> is_valid_email",
				"UserService.find_by_email -calls-> UserRepository.get_by_email",
				"UserService.find_by_email -references-> UserNotFoundError", // raise UserNotFoundError(…): a class is called
				"InMemoryUserRepository -implements-> UserRepository",
				"InMemoryUserRepository.get_by_email -implements-> UserRepository.get_by_email",
				"FindByEmailTest.test_ignores_case_and_space -tests-> UserService.find_by_email",
				"test_authenticate_checks_password -tests-> UserService.authenticate",
				"Handlers.get_user -calls-> UserService.find_by_email",
				"UserService -field-> UserService._repo",
			},
			kinds: map[string]analyze.SymbolKind{
				"UserService": analyze.KindStruct, "UserService.find_by_email": analyze.KindMethod,
				"normalize_email": analyze.KindFunc, "User.email": analyze.KindField, "service": analyze.KindModule,
			},
		},
	} {
		t.Run(tc.repo, func(t *testing.T) {
			r := load(t, sample(t, tc.repo))
			f := r.Facts
			if len(f.Files) != tc.files || len(r.Fresh) != tc.files || len(r.Stale) != 0 {
				t.Errorf("files %d, fresh %d, stale %v; want %d fresh", len(f.Files), len(r.Fresh), r.Stale, tc.files)
			}
			edges := edgeSet(f)
			for _, want := range tc.edges {
				e, ok := edges[want]
				if !ok {
					t.Errorf("no edge %s", want)
					continue
				}
				if !e.Exact || e.Origin != analyze.OriginSCIP || e.Line == 0 {
					t.Errorf("edge %s: %+v, want exact from SCIP with a line", want, e)
				}
			}
			for _, no := range tc.not {
				if _, ok := edges[no]; ok {
					t.Errorf("unexpected edge %s", no)
				}
			}
			kinds := map[string]analyze.SymbolKind{}
			for _, s := range f.Symbols {
				kinds[s.QualName(f.Files[s.File].Lang)] = s.Kind
			}
			for name, want := range tc.kinds {
				if got := kinds[name]; got != want {
					t.Errorf("%s is %v, want %v", name, got, want)
				}
			}
		})
	}
}

// TestSpans: symbols span their enclosing ranges, widened over doc
// comments and decorators; the name's line is the declaration line.
func TestSpans(t *testing.T) {
	for _, tc := range []struct {
		repo, name       string
		start, decl, end int
	}{
		{"tssvc", "UserService.findByEmail", 10, 14, 24}, // the /** … */ above it included
		{"tssvc", "UserService", 6, 7, 64},
		{"pysvc", "UserService.find_by_email", 20, 20, 28},
		{"pysvc", "UserRepository.get_by_email", 16, 17, 18}, // @abstractmethod included
		{"pysvc", "User", 14, 15, 27},                        // @dataclass included
	} {
		t.Run(tc.repo+"/"+tc.name, func(t *testing.T) {
			f := load(t, sample(t, tc.repo)).Facts
			for _, s := range f.Symbols {
				if s.QualName(f.Files[s.File].Lang) != tc.name {
					continue
				}
				if s.Start != tc.start || s.DeclLine != tc.decl || s.End != tc.end {
					t.Errorf("%s spans %d-%d (name on %d), want %d-%d (%d)", tc.name, s.Start, s.End, s.DeclLine, tc.start, tc.end, tc.decl)
				}
				return
			}
			t.Errorf("no symbol %s", tc.name)
		})
	}
}

// TestStale edits copies of the TypeScript sample: a line inserted above
// the definitions makes the file stale; an edit that moves nothing keeps
// it; a deleted file is stale; a new file is added as text.
func TestStale(t *testing.T) {
	root := copyDir(t, sample(t, "tssvc"))
	edit := func(rel string, fn func(string) string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fn(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("src/util/email.ts", func(s string) string { return "// added after indexing\n" + s })
	edit("src/auth/password.ts", func(s string) string { return strings.Replace(s, "0x811c9dc5", "0x811C9DC5", 1) })
	if err := os.Remove(filepath.Join(root, "src", "http", "server.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "util", "new.ts"), []byte("export const x = 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := load(t, root)
	if diff := cmp.Diff([]string{"src/http/server.ts", "src/util/email.ts"}, r.Stale); diff != "" {
		t.Errorf("stale (-want +got):\n%s", diff)
	}
	if !r.Fresh["src/auth/password.ts"] || !r.Fresh["src/service/user.ts"] {
		t.Errorf("fresh = %v, want the unchanged and the line-preserving edit", r.Fresh)
	}
	var probs []string
	for _, p := range r.Facts.Problems {
		probs = append(probs, p.Path)
	}
	sort.Strings(probs)
	if diff := cmp.Diff([]string{"src/http/server.ts", "src/util/email.ts", "src/util/new.ts"}, probs); diff != "" {
		t.Errorf("problems name (-want +got):\n%s\n%v", diff, r.Facts.Problems)
	}
	for _, p := range []string{"src/util/email.ts", "src/util/new.ts"} {
		id, ok := r.Facts.FileByPath(p)
		if !ok || !r.Facts.Files[id].Degraded || len(r.Facts.SymbolsIn(id)) != 0 {
			t.Errorf("%s: present %v; want it as a degraded file with no symbols", p, ok)
		}
	}
	// The edges into the stale file are gone, the others stay.
	edges := edgeSet(r.Facts)
	if _, ok := edges["UserService.findByEmail -calls-> normalizeEmail"]; ok {
		t.Error("an edge into the stale file survived")
	}
	if _, ok := edges["UserService.findByEmail -calls-> UserRepository.getByEmail"]; !ok {
		t.Error("an edge between fresh files was lost")
	}
}

// TestMerge lays an index over a loader's facts for the same file: the
// loader's by-name call is replaced by the index's exact one, its exact
// edges and structure stay, and a file only the index knows is added.
func TestMerge(t *testing.T) {
	base := &analyze.Facts{}
	f := base.AddFile(analyze.File{Path: "src/lib.rs", Lang: analyze.LangRust})
	typ := base.AddSymbol(analyze.Symbol{Name: "Session", Kind: analyze.KindStruct, File: f, Start: 1, End: 3, DeclLine: 1, Parent: analyze.NoSym})
	a := base.AddSymbol(analyze.Symbol{Name: "is_expired", Container: "Session", Kind: analyze.KindMethod, File: f, Start: 5, End: 7, DeclLine: 5, Parent: typ})
	b := base.AddSymbol(analyze.Symbol{Name: "is_expired", Container: "Token", Kind: analyze.KindMethod, File: f, Start: 9, End: 11, DeclLine: 9, Parent: analyze.NoSym})
	c := base.AddSymbol(analyze.Symbol{Name: "purge", Kind: analyze.KindFunc, File: f, Start: 13, End: 15, DeclLine: 13, Parent: analyze.NoSym})
	base.AddEdge(analyze.Edge{From: c, To: b, Kind: analyze.EdgeCalls, Exact: false, Line: 14}) // the wrong guess
	base.AddEdge(analyze.Edge{From: a, To: typ, Kind: analyze.EdgeMethodOf, Exact: true, Line: 5})

	sf := &analyze.Facts{}
	sfFile := sf.AddFile(analyze.File{Path: "src/lib.rs", Lang: analyze.LangRust})
	sa := sf.AddSymbol(analyze.Symbol{Name: "is_expired", Container: "Session", Kind: analyze.KindMethod, File: sfFile, Start: 5, End: 7, DeclLine: 5, Parent: analyze.NoSym})
	sc := sf.AddSymbol(analyze.Symbol{Name: "purge", Kind: analyze.KindFunc, File: sfFile, Start: 13, End: 15, DeclLine: 13, Parent: analyze.NoSym})
	other := sf.AddFile(analyze.File{Path: "web/app.ts", Lang: analyze.LangTypeScript})
	sd := sf.AddSymbol(analyze.Symbol{Name: "start", Kind: analyze.KindFunc, File: other, Start: 1, End: 2, DeclLine: 1, Parent: analyze.NoSym})
	sf.AddEdge(analyze.Edge{From: sc, To: sa, Kind: analyze.EdgeCalls, Exact: true, Origin: analyze.OriginSCIP, Line: 14})
	sf.AddEdge(analyze.Edge{From: sd, To: sc, Kind: analyze.EdgeCalls, Exact: true, Origin: analyze.OriginSCIP, Line: 1})

	st := Merge(base, &Result{Facts: sf, Fresh: map[string]bool{"src/lib.rs": true, "web/app.ts": true}})
	if st.Overlaid != 1 || st.Added != 1 || st.Matched != 2 || st.Dropped != 1 || st.EdgesSCIP != 2 {
		t.Errorf("stats %+v", st)
	}
	base.Normalize()
	got := edgeSet(base)
	var names []string
	for k, e := range got {
		names = append(names, fmt.Sprintf("%s exact=%v %s", k, e.Exact, e.Origin))
	}
	sort.Strings(names)
	want := []string{
		"Session::is_expired -method_of-> Session exact=true loader",
		"purge -calls-> Session::is_expired exact=true scip",
		"start -calls-> purge exact=true scip",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
}

// TestUnreadableIndex: a file that is not an index is a problem, and the
// load goes on with the others.
func TestUnreadableIndex(t *testing.T) {
	root := copyDir(t, sample(t, "pysvc"))
	if err := os.WriteFile(filepath.Join(root, "broken.scip"), []byte("this is not protobuf \xff\xff\xff"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Load(context.Background(), root, Options{Indexes: []string{"broken.scip", "missing.scip", "index.scip"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Fresh) != 12 {
		t.Errorf("%d fresh documents, want the good index's 12", len(r.Fresh))
	}
	var msgs []string
	for _, p := range r.Facts.Problems {
		if p.Kind == analyze.ProblemLoad {
			msgs = append(msgs, p.Msg)
		}
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0]+msgs[1], "broken.scip not used: ") || !strings.Contains(msgs[0]+msgs[1], "missing.scip not used") {
		t.Errorf("problems %q, want one for each bad index", msgs)
	}
}

// copyDir copies src to a fresh temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	testfiles.CopyDir(t, src, dst)
	return dst
}
