package draw

import (
	"container/heap"

	"github.com/ctxexpand/ctxexpand/graph"
)

// The search for links: a step onto a drawn node costs stepDrawn, onto
// any other symbol stepLink, and no path costs more than maxLinkCost — so
// a drawn node is joined to a seed through at most three links, and
// through drawn nodes whenever such a path is not much longer.
const (
	stepDrawn   = 1
	stepLink    = 3
	maxLinkCost = 10
	// maxLinkVisits bounds the search on a huge graph around hubs.
	maxLinkVisits = 50_000
)

// link adds, for every drawn node the search reaches, the undrawn
// symbols on its cheapest path from a seed, while the picture has room.
// When no seed is drawn, the first drawn node stands in for one.
func (b *builder) link() {
	if len(b.nodes) == 0 {
		return
	}
	var sources []graph.NodeID
	for _, n := range b.nodes {
		if n.Role == RoleSeed {
			sources = append(sources, n.Node)
		}
	}
	if len(sources) == 0 {
		sources = []graph.NodeID{b.nodes[0].Node}
	}
	cost, parent := b.search(sources)

	// Closest first, so that a chain found early can be crossed by later
	// ones; ties by node for determinism.
	targets := make([]graph.NodeID, 0, len(b.nodes))
	for _, n := range b.nodes {
		if _, ok := cost[n.Node]; ok && n.Role != RoleSeed {
			targets = append(targets, n.Node)
		}
	}
	sortByCost(targets, cost)
	for _, t := range targets {
		var chain []graph.NodeID
		for n := parent[t]; n >= 0; n = parent[n] {
			if _, drawn := b.at[n]; drawn {
				break
			}
			chain = append(chain, n)
		}
		if len(b.nodes)+len(chain) > b.opt.MaxNodes {
			continue
		}
		for i := len(chain) - 1; i >= 0; i-- {
			b.add(chain[i], RoleLink, b.opt.MaxNodes)
		}
	}
}

// search runs a cheapest-path search from the sources over the loaders'
// relations (either direction) and from files to the symbols they
// contain. It returns each reached node's cost and predecessor (-1 for a
// source).
func (b *builder) search(sources []graph.NodeID) (map[graph.NodeID]int, map[graph.NodeID]graph.NodeID) {
	cost := map[graph.NodeID]int{}
	parent := map[graph.NodeID]graph.NodeID{}
	q := &nodeHeap{}
	for _, s := range sources {
		if _, ok := cost[s]; ok {
			continue
		}
		cost[s] = 0
		parent[s] = -1
		heap.Push(q, item{s, 0})
	}
	done := map[graph.NodeID]bool{}
	for q.Len() > 0 && len(done) < maxLinkVisits {
		it := heap.Pop(q).(item)
		if done[it.n] || it.cost > cost[it.n] {
			continue
		}
		done[it.n] = true
		relax := func(to graph.NodeID) {
			if !b.g.IsSym(to) || !b.drawn(to) {
				return
			}
			step := stepLink
			if _, drawn := b.at[to]; drawn {
				step = stepDrawn
			}
			c := it.cost + step
			if c > maxLinkCost {
				return
			}
			if old, ok := cost[to]; ok && old <= c {
				return
			}
			cost[to] = c
			parent[to] = it.n
			heap.Push(q, item{to, c})
		}
		for _, h := range b.g.Out(it.n) {
			if b.drawable(it.n, h.To, h.Kind) {
				relax(h.To)
			}
		}
		for _, h := range b.g.In(it.n) {
			if int(h.Kind) < int(graph.Contains) {
				relax(h.To)
			}
		}
	}
	return cost, parent
}

func sortByCost(ns []graph.NodeID, cost map[graph.NodeID]int) {
	h := nodeHeap{}
	for _, n := range ns {
		h = append(h, item{n, cost[n]})
	}
	heap.Init(&h)
	for i := range ns {
		ns[i] = heap.Pop(&h).(item).n
	}
}

type item struct {
	n    graph.NodeID
	cost int
}

// nodeHeap orders items by cost, then node, so that the search is
// deterministic.
type nodeHeap []item

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].cost != h[j].cost {
		return h[i].cost < h[j].cost
	}
	return h[i].n < h[j].n
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(item)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
