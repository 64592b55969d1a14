package draw

import (
	"math"
	"sort"

	"github.com/ctxexpand/ctxexpand/graph"
)

// kindOrder ranks the kinds of relation by how much they tell a reader:
// what a symbol calls first, what it merely lives in last.
var kindOrder = []graph.Kind{graph.Calls, graph.Implements, graph.Tests, graph.Embeds, graph.References, graph.Macro, graph.Field, graph.MethodOf, graph.Contains, graph.Imports}

// strength is the rank of an edge's most telling kind (lower is
// stronger).
func (e *Edge) strength() int {
	for i, k := range kindOrder {
		if containsKind(e.Kinds, k) && !e.implied(k) {
			return i
		}
	}
	return len(kindOrder)
}

// prune keeps the edges that join every node to a seed along a shortest
// drawn path (one per node, the strongest), then the others — those
// nearest the seeds first, stronger kinds first — while fewer than max
// are kept. The rest are counted in HiddenEdges.
func (pic *Picture) prune(max int) {
	if len(pic.Edges) <= max {
		return
	}
	depth := func(i int) int {
		if d := pic.Nodes[i].Depth; d >= 0 {
			return d
		}
		return math.MaxInt32
	}
	keep := make([]bool, len(pic.Edges))
	kept := 0
	best := make([]int, len(pic.Nodes)) // the tree edge of each node, or -1
	for i := range best {
		best[i] = -1
	}
	better := func(a, b int) bool { // edge a before edge b
		ea, eb := &pic.Edges[a], &pic.Edges[b]
		if sa, sb := ea.strength(), eb.strength(); sa != sb {
			return sa < sb
		}
		return a < b
	}
	for ei := range pic.Edges {
		e := &pic.Edges[ei]
		for _, end := range [2][2]int{{e.From, e.To}, {e.To, e.From}} {
			v, u := end[0], end[1]
			if d := pic.Nodes[v].Depth; d > 0 && pic.Nodes[u].Depth == d-1 {
				if best[v] < 0 || better(ei, best[v]) {
					best[v] = ei
				}
			}
		}
	}
	for _, ei := range best {
		if ei >= 0 && !keep[ei] {
			keep[ei] = true
			kept++
		}
	}
	rest := make([]int, 0, len(pic.Edges))
	for ei := range pic.Edges {
		if !keep[ei] {
			rest = append(rest, ei)
		}
	}
	sort.SliceStable(rest, func(a, b int) bool {
		ea, eb := &pic.Edges[rest[a]], &pic.Edges[rest[b]]
		da, db := min(depth(ea.From), depth(ea.To)), min(depth(eb.From), depth(eb.To))
		if da != db {
			return da < db
		}
		return better(rest[a], rest[b])
	})
	for _, ei := range rest {
		if kept >= max {
			break
		}
		keep[ei] = true
		kept++
	}
	edges := pic.Edges[:0]
	for ei, e := range pic.Edges {
		if keep[ei] {
			edges = append(edges, e)
		}
	}
	pic.HiddenEdges = len(pic.Edges) - len(edges)
	pic.Edges = edges
}
