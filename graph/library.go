package graph

import (
	"sort"

	dgraph "github.com/dominikbraun/graph"
)

// Library copies the subgraph induced by nodes (all nodes when nodes is
// nil) into a dominikbraun/graph directed graph keyed by NodeID, for the
// algorithms that library provides (SCCs, drawing, checks). Each edge
// carries its kind in the "kind" attribute; parallel edges of different
// kinds between the same two nodes collapse into the first kind.
func (g *Graph) Library(nodes []NodeID) (dgraph.Graph[NodeID, NodeID], error) {
	lib := dgraph.New(func(n NodeID) NodeID { return n }, dgraph.Directed())
	in := map[NodeID]bool{}
	if nodes == nil {
		for n := 0; n < g.NumNodes(); n++ {
			nodes = append(nodes, NodeID(n))
		}
	}
	sorted := append([]NodeID(nil), nodes...)
	sortNodes(sorted)
	for _, n := range sorted {
		if in[n] {
			continue
		}
		in[n] = true
		if err := lib.AddVertex(n, dgraph.VertexAttribute("label", g.Label(n))); err != nil {
			return nil, err
		}
	}
	for _, n := range sorted {
		for _, h := range g.Out(n) {
			if !in[h.To] {
				continue
			}
			err := lib.AddEdge(n, h.To, dgraph.EdgeAttribute("kind", h.Kind.String()))
			if err != nil && err != dgraph.ErrEdgeAlreadyExists {
				return nil, err
			}
		}
	}
	return lib, nil
}

// ImportCycles returns the groups of packages that import each other
// (strongly connected components of the package import graph with more
// than one member), each group sorted by path and the groups by their
// first path. Go forbids such cycles, Rust modules allow them; either way
// they tell expansion that a set of packages belongs together.
func (g *Graph) ImportCycles() ([][]string, error) {
	// Vertices are package index + 1: the library's SCC search stops
	// popping its stack at the key type's zero value, so a vertex keyed 0
	// would be lost from its component.
	lib := dgraph.New(dgraph.IntHash, dgraph.Directed())
	for i := range g.Packages {
		if err := lib.AddVertex(i + 1); err != nil {
			return nil, err
		}
	}
	for i, p := range g.Packages {
		for _, fid := range p.Files {
			for _, h := range g.Out(g.FileNode(fid)) {
				if h.Kind != Imports {
					continue
				}
				j := g.Package(h.To)
				if j == i {
					continue
				}
				if err := lib.AddEdge(i+1, j+1); err != nil && err != dgraph.ErrEdgeAlreadyExists {
					return nil, err
				}
			}
		}
	}
	sccs, err := dgraph.StronglyConnectedComponents(lib)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for _, comp := range sccs {
		if len(comp) < 2 {
			continue
		}
		var names []string
		for _, i := range comp {
			names = append(names, g.Packages[i-1].Path)
		}
		sort.Strings(names)
		out = append(out, names)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out, nil
}
