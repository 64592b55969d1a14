package draw

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/graph"
	"github.com/ctxexpand/ctxexpand/rank"
)

// repo builds a small graph: symbols given as "path:Name:kind", edges as
// "From>To:kind". Go files are in packages named by their directory.
type repo struct {
	facts *analyze.Facts
	g     *graph.Graph
}

func newRepo(t testing.TB, syms []string, edges []string) *repo {
	t.Helper()
	f := &analyze.Facts{Root: "/r"}
	files := map[string]analyze.FileID{}
	byName := map[string]analyze.SymID{}
	line := map[string]int{}
	for _, s := range syms {
		var p, name, kind string
		if _, err := fmt.Sscanf(replaceColons(s), "%s %s %s", &p, &name, &kind); err != nil {
			t.Fatalf("symbol %q: %v", s, err)
		}
		fid, ok := files[p]
		if !ok {
			lang := analyze.LangGo
			pkg, pkgName := "example.com/m/"+dirOf(p), baseOf(dirOf(p))
			if len(p) > 4 && p[:4] == "cmd/" {
				pkgName = "main"
			}
			if len(p) > 3 && p[len(p)-3:] == ".rs" {
				lang, pkg, pkgName = analyze.LangRust, "crate::"+baseOf(dirOf(p)), "crate"
			}
			fid = f.AddFile(analyze.File{Path: p, Lang: lang, Package: pkg, PkgName: pkgName, Lines: 100})
			files[p] = fid
		}
		line[p] += 10
		k := kindByName(t, kind)
		byName[name] = f.AddSymbol(analyze.Symbol{Name: name, Kind: k, File: fid, Start: line[p], End: line[p] + 5, DeclLine: line[p], Parent: analyze.NoSym})
	}
	for _, e := range edges {
		var from, to, kind string
		if _, err := fmt.Sscanf(replaceAll(e, ">:", ' '), "%s %s %s", &from, &to, &kind); err != nil {
			t.Fatalf("edge %q: %v", e, err)
		}
		k, ok := analyze.ParseEdgeKind(kind)
		if !ok {
			t.Fatalf("edge kind %q", kind)
		}
		f.AddEdge(analyze.Edge{From: byName[from], To: byName[to], Kind: k, Exact: true})
	}
	f.Normalize()
	return &repo{facts: f, g: graph.Build(f)}
}

func replaceColons(s string) string { return replaceAll(s, ":", ' ') }

func replaceAll(s, chars string, with byte) string {
	b := []byte(s)
	for i := range b {
		for j := 0; j < len(chars); j++ {
			if b[i] == chars[j] {
				b[i] = with
			}
		}
	}
	return string(b)
}

func dirOf(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return "."
}

func baseOf(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

func kindByName(t testing.TB, name string) analyze.SymbolKind {
	for k := analyze.KindUnknown; k <= analyze.KindVariant; k++ {
		if k.String() == name {
			return k
		}
	}
	t.Fatalf("symbol kind %q", name)
	return 0
}

// sym finds a symbol by name.
func (r *repo) sym(t testing.TB, name string) analyze.SymID {
	t.Helper()
	for i, s := range r.facts.Symbols {
		if s.Name == name {
			return analyze.SymID(i)
		}
	}
	t.Fatalf("no symbol %s", name)
	return analyze.NoSym
}

// seed is a reported seed of the named symbol.
func (r *repo) seed(t testing.TB, name, source string) expand.Seed {
	s := &r.facts.Symbols[r.sym(t, name)]
	return expand.Seed{Label: s.Name, Path: r.facts.Files[s.File].Path, Line: s.DeclLine, Score: 1, Source: source}
}

// ranked is a ranked file with evidence symbols, best first.
func (r *repo) ranked(t testing.TB, path string, names ...string) expand.File {
	fid, ok := r.facts.FileByPath(path)
	if !ok {
		t.Fatalf("no file %s", path)
	}
	fr := rank.FileRank{File: fid, Path: path, Score: 1}
	for i, n := range names {
		fr.Symbols = append(fr.Symbols, rank.SymHit{Sym: r.sym(t, n), Score: 1 - 0.1*float64(i)})
	}
	return expand.File{FileRank: fr}
}

// shape is what a test compares of a picture.
type shape struct {
	Nodes    []string // "Label role depth cluster"
	Edges    []string // "From -label-> To"
	Clusters []string
}

func shapeOf(pic *Picture) shape {
	var s shape
	for _, n := range pic.Nodes {
		role := n.Role.String()
		if n.Role == RoleSeed && !n.Named {
			role = "lexical"
		}
		s.Nodes = append(s.Nodes, fmt.Sprintf("%s %s %d %s", n.Label, role, n.Depth, pic.Clusters[n.Cluster].Label))
	}
	for _, e := range pic.Edges {
		s.Edges = append(s.Edges, fmt.Sprintf("%s -%s-> %s", pic.Nodes[e.From].Label, e.Label(), pic.Nodes[e.To].Label))
	}
	for _, c := range pic.Clusters {
		s.Clusters = append(s.Clusters, c.Label)
	}
	return s
}

// sample: a seed in svc that calls a helper, which calls into the
// store through a function no ranked file holds; a test of the seed;
// a Rust-free Go module.
func sample(t testing.TB) *repo {
	return newRepo(t,
		[]string{
			"svc/svc.go:Find:func", "svc/svc.go:helper:func", "svc/svc_test.go:TestFind:func",
			"mid/mid.go:Bridge:func", "store/store.go:Get:func", "store/store.go:Put:func",
			"store/store.go:Unrelated:func", "cmd/app/main.go:main:func",
		},
		[]string{
			"Find>helper:calls", "helper>Bridge:calls", "Bridge>Get:calls",
			"TestFind>Find:calls", "TestFind>Find:tests", "Put>Get:calls", "main>Find:calls",
		})
}

func TestBuild(t *testing.T) {
	r := sample(t)
	res := &expand.Result{
		Seeds: []expand.Seed{r.seed(t, "helper", "lexical"), r.seed(t, "Find", "entity")},
		Files: []expand.File{
			r.ranked(t, "svc/svc.go", "Find", "helper"),
			r.ranked(t, "store/store.go", "Get", "Put"),
			r.ranked(t, "svc/svc_test.go", "TestFind"),
			r.ranked(t, "cmd/app/main.go", "main"),
		},
	}
	got := shapeOf(Build(r.g, res, Options{Title: "find"}))
	want := shape{
		Nodes: []string{
			"main ranked 1 cmd/app (main)",
			"Bridge link 1 mid",
			"Get ranked 2 store",
			"Put ranked 3 store",
			"Find seed 0 svc",
			"helper lexical 0 svc",
			"TestFind ranked 1 svc",
		},
		Edges: []string{
			"main -calls-> Find",
			"Bridge -calls-> Get",
			"Put -calls-> Get",
			"Find -calls-> helper",
			"helper -calls-> Bridge",
			"TestFind -tests-> Find",
		},
		Clusters: []string{"cmd/app (main)", "mid", "store", "svc"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestBuildCaps(t *testing.T) {
	r := sample(t)
	res := &expand.Result{
		Seeds: []expand.Seed{r.seed(t, "Find", "entity")},
		Files: []expand.File{
			r.ranked(t, "store/store.go", "Get", "Put", "Unrelated"),
			r.ranked(t, "svc/svc_test.go", "TestFind"),
			r.ranked(t, "cmd/app/main.go", "main"),
		},
	}
	tests := []struct {
		name        string
		opt         Options
		nodes       int
		omitted     int
		perFileSeen []string
	}{
		// Ranked symbols fill four fifths of the picture (4 of 5: Put
		// is left out), and the two links to Get do not fit in the rest.
		{"max nodes", Options{MaxNodes: 5}, 4, 1, nil},
		{"per file", Options{PerFile: 1, MaxNodes: 40}, -1, 0, []string{"Get"}},
		{"files", Options{MaxFiles: 1, PerFile: 3, MaxNodes: 40}, -1, 0, []string{"Get", "Put", "Unrelated"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pic := Build(r.g, res, tc.opt)
			if tc.nodes >= 0 && len(pic.Nodes) != tc.nodes {
				t.Errorf("%d nodes, want %d", len(pic.Nodes), tc.nodes)
			}
			if pic.Omitted != tc.omitted {
				t.Errorf("omitted %d, want %d", pic.Omitted, tc.omitted)
			}
			if tc.perFileSeen != nil {
				var store []string
				for _, n := range pic.Nodes {
					if n.Path == "store/store.go" && n.Role == RoleRanked {
						store = append(store, n.Label)
					}
				}
				if diff := cmp.Diff(tc.perFileSeen, store); diff != "" {
					t.Errorf("store symbols (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestBuildSeeds(t *testing.T) {
	r := sample(t)
	lexical := []expand.Seed{r.seed(t, "Get", "lexical"), r.seed(t, "Put", "lexical"), r.seed(t, "Unrelated", "lexical")}
	tests := []struct {
		name  string
		seeds []expand.Seed
		want  []string
	}{
		{"named first, two lexical beside them", append(append([]expand.Seed(nil), lexical...), r.seed(t, "Find", "entity")), []string{"Get", "Put", "Find"}},
		{"lexical alone up to MaxSeeds", lexical, []string{"Get", "Put", "Unrelated"}},
		{"area and unknown file skipped", []expand.Seed{{Label: "svc (area, 2 files)", Source: "area"}, {Label: "x.go", Path: "x.go", Source: "path"}}, nil},
		{"file seed drawn as the file", []expand.Seed{{Label: "mid/mid.go", Path: "mid/mid.go", Source: "path"}}, []string{"mid/mid.go"}},
		{"stale line skipped", []expand.Seed{{Label: "Find", Path: "svc/svc.go", Line: 999, Source: "entity"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pic := Build(r.g, &expand.Result{Seeds: tc.seeds}, Options{})
			var got []string
			for _, n := range pic.Nodes {
				if n.Role == RoleSeed {
					got = append(got, n.Label)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("seeds (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildFileSeedContains(t *testing.T) {
	r := sample(t)
	res := &expand.Result{
		Seeds: []expand.Seed{{Label: "store/store.go", Path: "store/store.go", Source: "path"}},
		Files: []expand.File{r.ranked(t, "store/store.go", "Get", "Put")},
	}
	got := shapeOf(Build(r.g, res, Options{}))
	want := []string{"store/store.go -contains-> Get", "store/store.go -contains-> Put", "Put -calls-> Get"}
	if diff := cmp.Diff(want, got.Edges, sortStrings()); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
}

func TestBuildSkipsImplBlocks(t *testing.T) {
	r := newRepo(t,
		[]string{"src/svc.rs:UserService:struct", "src/svc.rs:UserServiceImpl:impl", "src/svc.rs:find:method"},
		[]string{"find>UserService:method_of"})
	res := &expand.Result{
		Seeds: []expand.Seed{r.seed(t, "UserServiceImpl", "lexical"), r.seed(t, "find", "entity")},
		Files: []expand.File{r.ranked(t, "src/svc.rs", "UserServiceImpl", "UserService")},
	}
	got := shapeOf(Build(r.g, res, Options{}))
	want := shape{
		Nodes:    []string{"UserService ranked 1 crate::src", "find seed 0 crate::src"},
		Edges:    []string{"find -method of-> UserService"},
		Clusters: []string{"crate::src"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestEdgeLabel(t *testing.T) {
	tests := []struct {
		kinds []graph.Kind
		want  string
	}{
		{[]graph.Kind{graph.Calls}, "calls"},
		{[]graph.Kind{graph.Calls, graph.References}, "calls, uses"},
		{[]graph.Kind{graph.Calls, graph.Tests}, "tests"},
		{[]graph.Kind{graph.References, graph.Tests}, "tests"},
		{[]graph.Kind{graph.References, graph.MethodOf}, "method of"},
		{[]graph.Kind{graph.References, graph.Implements}, "uses, implements"},
		{[]graph.Kind{graph.Field}, "has field"},
	}
	for _, tc := range tests {
		e := Edge{Kinds: tc.kinds}
		if got := e.Label(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.kinds, got, tc.want)
		}
	}
}

func TestPruneKeepsEveryNodeJoined(t *testing.T) {
	// A clique around one seed: every node is one step away, and every
	// pair is related.
	names := []string{"S", "A", "B", "C", "D", "E"}
	var syms, edges []string
	for _, n := range names {
		syms = append(syms, "p/p.go:"+n+":func")
	}
	for i, a := range names {
		for _, b := range names[i+1:] {
			edges = append(edges, a+">"+b+":calls", b+">"+a+":references")
		}
	}
	r := newRepo(t, syms, edges)
	res := &expand.Result{Seeds: []expand.Seed{r.seed(t, "S", "entity")}, Files: []expand.File{r.ranked(t, "p/p.go", "A", "B", "C", "D", "E")}}
	pic := Build(r.g, res, Options{PerFile: 5, MaxEdges: 7})
	if len(pic.Edges) != 7 || pic.HiddenEdges != 30-7 {
		t.Errorf("%d edges drawn, %d hidden; want 7 and 23", len(pic.Edges), pic.HiddenEdges)
	}
	joined := map[string]bool{}
	for _, e := range pic.Edges {
		if pic.Nodes[e.From].Label == "S" {
			joined[pic.Nodes[e.To].Label] = true
		}
		if pic.Nodes[e.To].Label == "S" {
			joined[pic.Nodes[e.From].Label] = true
		}
	}
	if len(joined) != 5 {
		t.Errorf("nodes joined to the seed: %v, want all five", joined)
	}
	for _, n := range pic.Nodes {
		if n.Label != "S" && n.Depth != 1 {
			t.Errorf("%s at depth %d after pruning", n.Label, n.Depth)
		}
	}
	all := Build(r.g, res, Options{PerFile: 5, MaxEdges: -1})
	if len(all.Edges) != 30 || all.HiddenEdges != 0 {
		t.Errorf("MaxEdges -1 drew %d edges, hid %d", len(all.Edges), all.HiddenEdges)
	}
}

func TestBuildEmptyAndDeterministic(t *testing.T) {
	r := sample(t)
	empty := Build(r.g, &expand.Result{}, Options{})
	if len(empty.Nodes) != 0 || len(empty.Edges) != 0 {
		t.Errorf("empty result drew %+v", empty)
	}
	res := &expand.Result{
		Seeds: []expand.Seed{r.seed(t, "Find", "entity")},
		Files: []expand.File{r.ranked(t, "store/store.go", "Get", "Put"), r.ranked(t, "cmd/app/main.go", "main")},
	}
	a, b := Build(r.g, res, Options{}), Build(r.g, res, Options{})
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two builds differ:\n%s", diff)
	}
}

func sortStrings() cmp.Option {
	return cmp.Transformer("sort", func(in []string) []string {
		out := append([]string(nil), in...)
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				if out[j] < out[i] {
					out[i], out[j] = out[j], out[i]
				}
			}
		}
		return out
	})
}

// TestEdgesMatchLibrarySubgraph checks the drawn edges against the
// subgraph dominikbraun/graph gets from graph.Graph.Library: with no edge
// cap, the picture has an arrow for exactly the pairs of drawn nodes the
// library joins.
func TestEdgesMatchLibrarySubgraph(t *testing.T) {
	r := sample(t)
	res := &expand.Result{
		Seeds: []expand.Seed{r.seed(t, "Find", "entity")},
		Files: []expand.File{r.ranked(t, "store/store.go", "Get", "Put"), r.ranked(t, "svc/svc_test.go", "TestFind"), r.ranked(t, "cmd/app/main.go", "main")},
	}
	pic := Build(r.g, res, Options{MaxEdges: -1})
	var nodes []graph.NodeID
	for _, n := range pic.Nodes {
		nodes = append(nodes, n.Node)
	}
	lib, err := r.g.Library(nodes)
	if err != nil {
		t.Fatal(err)
	}
	adj, err := lib.AdjacencyMap()
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for from, tos := range adj {
		for to := range tos {
			want = append(want, r.g.Label(from)+">"+r.g.Label(to))
		}
	}
	for _, e := range pic.Edges {
		got = append(got, pic.Nodes[e.From].Label+">"+pic.Nodes[e.To].Label)
	}
	if diff := cmp.Diff(want, got, sortStrings()); diff != "" {
		t.Errorf("edges (-library +picture):\n%s", diff)
	}
}
