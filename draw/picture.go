package draw

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/graph"
)

// Defaults of [Options].
const (
	DefaultMaxNodes = 24
	DefaultMaxFiles = 10
	DefaultPerFile  = 2
	DefaultMaxSeeds = 8
	// lexicalSeedsWithNamed caps the seeds from matching words drawn
	// beside seeds the query named; alone, they are capped by MaxSeeds.
	lexicalSeedsWithNamed = 2
)

// spanShare is the least share of a file's best symbol score for another
// symbol of the file to be drawn (the share the bundle uses for spans).
const spanShare = 0.4

// Options configures [Build]. The zero value means the defaults.
type Options struct {
	// MaxNodes caps the nodes drawn, links included (default 24).
	MaxNodes int
	// MaxFiles is how many of the best-ranked files contribute symbols
	// (default 10).
	MaxFiles int
	// PerFile is how many of a ranked file's evidence symbols are drawn
	// at most (default 2).
	PerFile int
	// MaxSeeds caps the seeds drawn, those the query named first
	// (default 8). Seeds found by matching words are drawn two at most
	// when the query named any.
	MaxSeeds int
	// MaxEdges caps the edges drawn (default: five for every four nodes);
	// negative draws every edge. The edges that join each node to a seed
	// come first, then the others by closeness to the seeds and by kind
	// (calls, implements, tests, embeds, uses, …).
	MaxEdges int
	// Title heads the picture (default: the query).
	Title string
}

func (o Options) withDefaults() Options {
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	if o.PerFile <= 0 {
		o.PerFile = DefaultPerFile
	}
	if o.MaxSeeds <= 0 {
		o.MaxSeeds = DefaultMaxSeeds
	}
	return o
}

// Role is why a node is in the picture.
type Role uint8

const (
	// RoleSeed: the walk started here.
	RoleSeed Role = iota
	// RoleRanked: a symbol behind a ranked file's evidence.
	RoleRanked
	// RoleLink: a symbol drawn only to connect others to a seed.
	RoleLink
)

func (r Role) String() string {
	switch r {
	case RoleSeed:
		return "seed"
	case RoleRanked:
		return "ranked"
	case RoleLink:
		return "link"
	}
	return fmt.Sprintf("role(%d)", r)
}

// Node is a drawn symbol, or a file that itself seeded the walk.
type Node struct {
	ID    string // "n0", "n1", … in output order
	Node  graph.NodeID
	Label string // UserService.FindByEmail, Store::orders_of, or a path
	Kind  string // func, method, struct, …; "file" for a file
	Path  string
	Line  int // declaration line; 0 for a file
	Role  Role
	// Named is set on a seed the query named (an entity, a path, a
	// stack frame, an @reference) rather than a lexical match.
	Named bool
	// Rank is the 1-based place of the node's file in the ranking, or 0.
	Rank int
	// Depth is the number of drawn edges between the node and the
	// nearest seed, or -1 when no drawn path joins them.
	Depth   int
	Cluster int // index into Picture.Clusters
}

// Detail is the node's second line: "method · user.go:37".
func (n *Node) Detail() string {
	if n.Line == 0 {
		return n.Kind
	}
	return fmt.Sprintf("%s · %s:%d", n.Kind, path.Base(n.Path), n.Line)
}

// Edge is an arrow between two drawn nodes, with every kind of relation
// the loaders found from one to the other.
type Edge struct {
	From, To int // indexes into Picture.Nodes
	Kinds    []graph.Kind
}

// Label is the edge's text: "calls", "implements, uses". A kind that
// says more hides the one it implies: "tests" hides "calls" and "uses"
// (a test calls what it tests), "method of" and "has field" hide "uses".
func (e *Edge) Label() string {
	var words []string
	for _, k := range e.Kinds {
		if e.implied(k) {
			continue
		}
		words = append(words, styleOf(k).word)
	}
	return strings.Join(words, ", ")
}

func (e *Edge) implied(k graph.Kind) bool {
	switch k {
	case graph.Calls:
		return containsKind(e.Kinds, graph.Tests)
	case graph.References:
		return containsKind(e.Kinds, graph.Tests) || containsKind(e.Kinds, graph.MethodOf) || containsKind(e.Kinds, graph.Field)
	}
	return false
}

// Cluster is a Go package or Rust module and the drawn nodes in it.
type Cluster struct {
	Key   string // package path or module path
	Label string // "internal/service", "mycrate::store"
	Nodes []int  // indexes into Picture.Nodes, in order
}

// Picture is the drawable part of an expansion.
type Picture struct {
	Title    string
	Nodes    []Node
	Edges    []Edge
	Clusters []Cluster
	// Omitted counts the evidence symbols of the drawn files that the
	// node cap left out; HiddenEdges the relations between drawn nodes
	// that the edge cap left out.
	Omitted     int
	HiddenEdges int
}

// Build picks the part of g that the result res was drawn from; see the
// package documentation for the rules. It never fails: a result without
// seeds or ranked files gives an empty picture.
func Build(g *graph.Graph, res *expand.Result, opt Options) *Picture {
	opt = opt.withDefaults()
	b := &builder{g: g, facts: g.Facts, opt: opt, at: map[graph.NodeID]int{}, rankOf: map[string]int{}}
	for i, f := range res.Files {
		if _, ok := b.rankOf[f.Path]; !ok {
			b.rankOf[f.Path] = i + 1
		}
	}
	b.seeds(res.Seeds)
	b.ranked(res.Files)
	b.link()
	pic := b.finish()
	pic.Title = opt.Title
	if pic.Title == "" && res.Plan != nil {
		pic.Title = res.Plan.Text
	}
	return pic
}

// builder collects the picture's nodes before they are ordered.
type builder struct {
	g      *graph.Graph
	facts  *analyze.Facts
	opt    Options
	nodes  []Node // in the order chosen
	at     map[graph.NodeID]int
	rankOf map[string]int
	// omitted counts ranked candidates past the cap.
	omitted int
}

// add draws node n in role r unless it is drawn already or the picture
// is full (limit nodes); it reports whether n is drawn afterwards.
func (b *builder) add(n graph.NodeID, r Role, limit int) bool {
	if _, ok := b.at[n]; ok {
		return true
	}
	if len(b.nodes) >= limit {
		return false
	}
	node := Node{Node: n, Label: b.g.Label(n), Role: r, Depth: -1}
	fid := b.g.FileOf(n)
	if fid >= 0 {
		node.Path = b.facts.Files[fid].Path
		node.Rank = b.rankOf[node.Path]
	}
	if b.g.IsSym(n) {
		s := &b.facts.Symbols[b.g.Sym(n)]
		node.Kind = s.Kind.String()
		node.Line = s.DeclLine
	} else {
		node.Kind = "file"
	}
	b.at[n] = len(b.nodes)
	b.nodes = append(b.nodes, node)
	return true
}

// seeds draws the seeds that name a symbol or a file, named ones first.
func (b *builder) seeds(seeds []expand.Seed) {
	ordered := append([]expand.Seed(nil), seeds...)
	sort.SliceStable(ordered, func(i, j int) bool {
		return isNamed(ordered[i]) && !isNamed(ordered[j])
	})
	count, named, lexical := 0, 0, 0
	for _, s := range ordered {
		if count == b.opt.MaxSeeds {
			break
		}
		if !isNamed(s) && named > 0 && lexical == lexicalSeedsWithNamed {
			break
		}
		n, ok := b.seedNode(s)
		if !ok || !b.drawn(n) {
			continue
		}
		if _, drawn := b.at[n]; drawn {
			continue // named first, so a lexical repeat adds nothing
		}
		b.add(n, RoleSeed, b.opt.MaxNodes)
		b.nodes[b.at[n]].Named = isNamed(s)
		count++
		if isNamed(s) {
			named++
		} else {
			lexical++
		}
	}
}

func isNamed(s expand.Seed) bool { return s.Source != "lexical" }

// seedNode finds the graph node of a reported seed: the symbol declared
// at its line with its label, or the file it names.
func (b *builder) seedNode(s expand.Seed) (graph.NodeID, bool) {
	if s.Path == "" {
		return 0, false // an area: a directory, not a node
	}
	fid, ok := b.facts.FileByPath(s.Path)
	if !ok {
		return 0, false
	}
	if s.Line <= 0 {
		return b.g.FileNode(fid), true
	}
	for _, sid := range b.facts.SymbolsIn(fid) {
		n := b.g.SymNode(sid)
		if b.facts.Symbols[sid].DeclLine == s.Line && b.g.Label(n) == s.Label {
			return n, true
		}
	}
	return 0, false
}

// ranked draws the evidence symbols of the best-ranked files a round at
// a time, keeping a fifth of the picture for links. A file without
// symbol evidence (matched by its path or words only) is not drawn.
func (b *builder) ranked(files []expand.File) {
	if len(files) > b.opt.MaxFiles {
		files = files[:b.opt.MaxFiles]
	}
	limit := b.opt.MaxNodes - b.opt.MaxNodes/5
	for round := 0; round < b.opt.PerFile; round++ {
		for _, f := range files {
			hits := f.Symbols
			if round >= len(hits) || hits[round].Score < spanShare*hits[0].Score {
				continue
			}
			if n := b.g.SymNode(hits[round].Sym); b.drawn(n) && !b.add(n, RoleRanked, limit) {
				b.omitted++
			}
		}
	}
}

// drawn reports whether a node may be drawn at all: files (as seeds)
// and symbols other than Rust impl blocks and modules, which stand for
// their items rather than say anything of their own.
func (b *builder) drawn(n graph.NodeID) bool {
	if !b.g.IsSym(n) {
		return b.g.IsFile(n)
	}
	switch b.facts.Symbols[b.g.Sym(n)].Kind {
	case analyze.KindImpl, analyze.KindModule:
		return false
	}
	return true
}

// drawable reports whether an edge of kind k from a to b is drawn: the
// loaders' relations between symbols, and a drawn file's containment of
// its symbols.
func (b *builder) drawable(from, to graph.NodeID, k graph.Kind) bool {
	if int(k) < analyze.NumEdgeKinds {
		return true
	}
	return k == graph.Contains && b.g.IsFile(from) && b.g.IsSym(to)
}

// finish orders the nodes (by cluster, path, line, label), numbers them,
// and collects the edges, depths and clusters.
func (b *builder) finish() *Picture {
	pic := &Picture{Omitted: b.omitted}
	type keyed struct {
		node    Node
		cluster string
		label   string
	}
	ks := make([]keyed, len(b.nodes))
	for i, n := range b.nodes {
		key, label := b.clusterOf(n.Node)
		ks[i] = keyed{n, key, label}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		x, y := ks[i], ks[j]
		if x.label != y.label {
			return x.label < y.label
		}
		if x.cluster != y.cluster {
			return x.cluster < y.cluster
		}
		if x.node.Path != y.node.Path {
			return x.node.Path < y.node.Path
		}
		if x.node.Line != y.node.Line {
			return x.node.Line < y.node.Line
		}
		if x.node.Label != y.node.Label {
			return x.node.Label < y.node.Label
		}
		return x.node.Node < y.node.Node
	})
	index := map[graph.NodeID]int{}
	clusterAt := map[string]int{}
	for i, k := range ks {
		n := k.node
		n.ID = fmt.Sprintf("n%d", i)
		ci, ok := clusterAt[k.cluster]
		if !ok {
			ci = len(pic.Clusters)
			clusterAt[k.cluster] = ci
			pic.Clusters = append(pic.Clusters, Cluster{Key: k.cluster, Label: k.label})
		}
		n.Cluster = ci
		pic.Clusters[ci].Nodes = append(pic.Clusters[ci].Nodes, i)
		index[n.Node] = i
		pic.Nodes = append(pic.Nodes, n)
	}
	for i := range pic.Nodes {
		from := pic.Nodes[i].Node
		var cur *Edge
		for _, h := range b.g.Out(from) {
			j, ok := index[h.To]
			if !ok || !b.drawable(from, h.To, h.Kind) {
				continue
			}
			if cur == nil || cur.To != j {
				pic.Edges = append(pic.Edges, Edge{From: i, To: j})
				cur = &pic.Edges[len(pic.Edges)-1]
			}
			if !containsKind(cur.Kinds, h.Kind) {
				cur.Kinds = append(cur.Kinds, h.Kind)
			}
		}
	}
	sort.Slice(pic.Edges, func(a, c int) bool {
		x, y := pic.Edges[a], pic.Edges[c]
		if x.From != y.From {
			return x.From < y.From
		}
		return x.To < y.To
	})
	for i := range pic.Edges {
		ks := pic.Edges[i].Kinds
		sort.Slice(ks, func(a, c int) bool { return ks[a] < ks[c] })
	}
	pic.depths()
	maxEdges := b.opt.MaxEdges
	if maxEdges == 0 {
		maxEdges = len(pic.Nodes) * 5 / 4
	}
	if maxEdges > 0 {
		pic.prune(maxEdges)
	}
	return pic
}

func containsKind(ks []graph.Kind, k graph.Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// clusterOf is the package a node is drawn in: its key and its label.
// Go packages are labelled by directory (with the package name when it
// differs from the directory's, as for main and external tests), Rust
// modules by module path.
func (b *builder) clusterOf(n graph.NodeID) (key, label string) {
	fid := b.g.FileOf(n)
	if fid < 0 {
		return "", "(none)"
	}
	f := &b.facts.Files[fid]
	dir := path.Dir(f.Path)
	key = f.Package
	if key == "" {
		key = dir
	}
	if f.Lang == analyze.LangRust && f.Package != "" {
		return key, f.Package
	}
	label = dir
	if dir == "." {
		label = "(root)"
	}
	if f.PkgName != "" && f.PkgName != path.Base(dir) {
		label += " (" + f.PkgName + ")"
	}
	return key, label
}

// depths sets every node's distance in drawn edges from the nearest seed,
// edges taken in either direction.
func (pic *Picture) depths() {
	adj := make([][]int, len(pic.Nodes))
	for _, e := range pic.Edges {
		adj[e.From] = append(adj[e.From], e.To)
		adj[e.To] = append(adj[e.To], e.From)
	}
	var queue []int
	for i := range pic.Nodes {
		pic.Nodes[i].Depth = -1
		if pic.Nodes[i].Role == RoleSeed {
			pic.Nodes[i].Depth = 0
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range adj[n] {
			if pic.Nodes[m].Depth < 0 {
				pic.Nodes[m].Depth = pic.Nodes[n].Depth + 1
				queue = append(queue, m)
			}
		}
	}
}

// Seeds counts the drawn seeds.
func (pic *Picture) Seeds() int {
	c := 0
	for i := range pic.Nodes {
		if pic.Nodes[i].Role == RoleSeed {
			c++
		}
	}
	return c
}
