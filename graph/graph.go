package graph

import (
	"sort"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// NodeID is a node of the graph: a symbol, a file or a package.
type NodeID int32

// Kind is the type of an edge. Values below analyze.NumEdgeKinds are the
// loaders' analyze.EdgeKind values; the rest are structural.
type Kind uint8

const (
	Calls      = Kind(analyze.EdgeCalls)
	References = Kind(analyze.EdgeReferences)
	MethodOf   = Kind(analyze.EdgeMethodOf)
	Implements = Kind(analyze.EdgeImplements)
	Embeds     = Kind(analyze.EdgeEmbeds)
	Tests      = Kind(analyze.EdgeTests)
	Field      = Kind(analyze.EdgeField)
	Macro      = Kind(analyze.EdgeMacro)

	// Contains links a file to each symbol it declares, and a package to
	// each of its files.
	Contains = Kind(analyze.NumEdgeKinds) + iota
	// Imports links a file to a package of the repository it imports.
	Imports

	numKinds
)

// NumKinds is one more than the largest Kind, for tables indexed by kind.
const NumKinds = int(numKinds)

func (k Kind) String() string {
	switch k {
	case Contains:
		return "contains"
	case Imports:
		return "imports"
	}
	return analyze.EdgeKind(k).String()
}

// Half is one end of an edge as seen from the other: the neighbour and the
// edge's kind. Exact is false when the loader matched the relation by name
// only; Origin says which analysis found it.
type Half struct {
	To     NodeID
	Kind   Kind
	Exact  bool
	Origin analyze.EdgeOrigin
}

// Package is a Go package or Rust module: the files whose File.Package is
// Path.
type Package struct {
	Path  string
	Files []analyze.FileID
}

// Graph is the frozen graph over one set of facts.
type Graph struct {
	Facts    *analyze.Facts
	Packages []Package

	nSym, nFile int
	out, in     rows
	pkgOf       []int32 // file → package index
	pkgByPath   map[string]int32
}

type rows struct {
	off   []int32 // len = nodes+1
	edges []Half
}

func (r *rows) of(n NodeID) []Half { return r.edges[r.off[n]:r.off[n+1]] }

// Build freezes the facts into a graph. Facts should be normalised
// (analyze.Facts.Normalize) so that node numbering and row order are
// deterministic.
func Build(f *analyze.Facts) *Graph {
	g := &Graph{Facts: f, nSym: len(f.Symbols), nFile: len(f.Files), pkgByPath: map[string]int32{}}

	// Packages, in path order.
	var paths []string
	for _, file := range f.Files {
		if file.Package == "" {
			continue
		}
		if _, ok := g.pkgByPath[file.Package]; !ok {
			g.pkgByPath[file.Package] = 0
			paths = append(paths, file.Package)
		}
	}
	sort.Strings(paths)
	g.Packages = make([]Package, len(paths))
	for i, p := range paths {
		g.pkgByPath[p] = int32(i)
		g.Packages[i].Path = p
	}
	g.pkgOf = make([]int32, len(f.Files))
	for i, file := range f.Files {
		g.pkgOf[i] = -1
		if file.Package == "" {
			continue
		}
		pi := g.pkgByPath[file.Package]
		g.pkgOf[i] = pi
		g.Packages[pi].Files = append(g.Packages[pi].Files, analyze.FileID(i))
	}

	type edge struct {
		from, to NodeID
		kind     Kind
		exact    bool
		origin   analyze.EdgeOrigin
	}
	var es []edge
	for _, e := range f.Edges {
		es = append(es, edge{NodeID(e.From), NodeID(e.To), Kind(e.Kind), e.Exact, e.Origin})
	}
	for i, s := range f.Symbols {
		es = append(es, edge{g.FileNode(s.File), NodeID(i), Contains, true, analyze.OriginLoader})
	}
	for pi, p := range g.Packages {
		for _, fid := range p.Files {
			es = append(es, edge{g.PackageNode(pi), g.FileNode(fid), Contains, true, analyze.OriginLoader})
		}
	}
	for _, im := range f.Imports {
		pi, ok := g.pkgByPath[im.Path]
		if !ok || pi == g.pkgOf[im.File] {
			continue
		}
		es = append(es, edge{g.FileNode(im.File), g.PackageNode(int(pi)), Imports, true, analyze.OriginLoader})
	}

	n := g.NumNodes()
	build := func(key func(e edge) (NodeID, Half)) rows {
		r := rows{off: make([]int32, n+1), edges: make([]Half, len(es))}
		for _, e := range es {
			from, _ := key(e)
			r.off[from+1]++
		}
		for i := 1; i <= n; i++ {
			r.off[i] += r.off[i-1]
		}
		fill := make([]int32, n)
		for _, e := range es {
			from, h := key(e)
			r.edges[r.off[from]+fill[from]] = h
			fill[from]++
		}
		for i := 0; i < n; i++ {
			row := r.edges[r.off[i]:r.off[i+1]]
			sort.Slice(row, func(a, b int) bool {
				if row[a].To != row[b].To {
					return row[a].To < row[b].To
				}
				return row[a].Kind < row[b].Kind
			})
		}
		return r
	}
	g.out = build(func(e edge) (NodeID, Half) { return e.from, Half{e.to, e.kind, e.exact, e.origin} })
	g.in = build(func(e edge) (NodeID, Half) { return e.to, Half{e.from, e.kind, e.exact, e.origin} })
	return g
}

// NumNodes is the number of nodes: symbols, files and packages.
func (g *Graph) NumNodes() int { return g.nSym + g.nFile + len(g.Packages) }

// NumEdges is the number of directed edges.
func (g *Graph) NumEdges() int { return len(g.out.edges) }

// Out returns the edges leaving n. The slice must not be modified.
func (g *Graph) Out(n NodeID) []Half { return g.out.of(n) }

// In returns the edges entering n, each Half naming the source. The slice
// must not be modified.
func (g *Graph) In(n NodeID) []Half { return g.in.of(n) }

// SymNode is the node of symbol s.
func (g *Graph) SymNode(s analyze.SymID) NodeID { return NodeID(s) }

// FileNode is the node of file f.
func (g *Graph) FileNode(f analyze.FileID) NodeID { return NodeID(g.nSym + int(f)) }

// PackageNode is the node of package index p.
func (g *Graph) PackageNode(p int) NodeID { return NodeID(g.nSym + g.nFile + p) }

// IsSym, IsFile and IsPackage tell what a node is.
func (g *Graph) IsSym(n NodeID) bool     { return int(n) < g.nSym }
func (g *Graph) IsFile(n NodeID) bool    { return int(n) >= g.nSym && int(n) < g.nSym+g.nFile }
func (g *Graph) IsPackage(n NodeID) bool { return int(n) >= g.nSym+g.nFile }

// Sym is the symbol of a symbol node.
func (g *Graph) Sym(n NodeID) analyze.SymID { return analyze.SymID(n) }

// File is the file of a file node.
func (g *Graph) File(n NodeID) analyze.FileID { return analyze.FileID(int(n) - g.nSym) }

// Package is the package index of a package node.
func (g *Graph) Package(n NodeID) int { return int(n) - g.nSym - g.nFile }

// FileOf is the file a node belongs to: a symbol's declaring file, a file
// itself; -1 for packages.
func (g *Graph) FileOf(n NodeID) analyze.FileID {
	switch {
	case g.IsSym(n):
		return g.Facts.Symbols[n].File
	case g.IsFile(n):
		return g.File(n)
	}
	return -1
}

// PackageOf is the package index of file f, or -1.
func (g *Graph) PackageOf(f analyze.FileID) int { return int(g.pkgOf[f]) }

// PackageByPath finds a package by its path.
func (g *Graph) PackageByPath(p string) (int, bool) {
	i, ok := g.pkgByPath[p]
	return int(i), ok
}

// Label is a short human name for a node: Container.Name for symbols, the
// path for files, the package path for packages.
func (g *Graph) Label(n NodeID) string {
	switch {
	case g.IsSym(n):
		s := &g.Facts.Symbols[n]
		return s.QualName(g.Facts.Files[s.File].Lang)
	case g.IsFile(n):
		return g.Facts.Files[g.File(n)].Path
	case g.IsPackage(n):
		return g.Packages[g.Package(n)].Path
	}
	return "?"
}

// Degree is the number of edges of kind k entering (in=true) or leaving n.
func (g *Graph) Degree(n NodeID, k Kind, in bool) int {
	row := g.Out(n)
	if in {
		row = g.In(n)
	}
	c := 0
	for _, h := range row {
		if h.Kind == k {
			c++
		}
	}
	return c
}
