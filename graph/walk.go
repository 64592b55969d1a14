package graph

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Dir is the direction an edge is followed in: Forward from source to
// target (a call to its callee), Backward from target to source (a callee
// to its callers).
type Dir uint8

const (
	Forward Dir = iota
	Backward
)

func (d Dir) String() string {
	if d == Backward {
		return "backward"
	}
	return "forward"
}

// Weights gives the factor an edge of each kind contributes when followed
// in each direction; 0 means the edge is not followed.
type Weights [NumKinds][2]float64

// Seed is a starting node with the strength of its match.
type Seed struct {
	Node  NodeID
	Score float64
}

// WalkOptions configures Walk. The zero value follows nothing beyond the
// seeds.
type WalkOptions struct {
	MaxDepth int
	Weights  Weights
	// FanoutDamping divides the weight of a step by the square root of the
	// number of edges of the same kind and direction leaving the node,
	// once that number passes DampAfter (default 4), so that hubs — a type
	// used everywhere, a helper called from hundreds of places — do not hand
	// full strength to every neighbour.
	FanoutDamping bool
	DampAfter     int
	// InexactFactor scales steps along edges the loader matched by name
	// only (default 0.7).
	InexactFactor float64
	// MinScore stops propagation below this score (default 1e-4).
	MinScore float64
	// MaxVisits bounds the number of nodes reached (0: no bound).
	MaxVisits int
}

// Visit is a node reached by Walk: its best score (the maximum over paths
// from any seed of the seed's score times the product of step weights),
// the number of steps on that path, and the step that reached it.
type Visit struct {
	Node   NodeID
	Score  float64
	Depth  int
	Seed   NodeID             // the seed the best path starts from
	Parent NodeID             // previous node on the best path; -1 for a seed
	Via    Kind               // kind of the last step
	Dir    Dir                // direction of the last step
	Origin analyze.EdgeOrigin // which analysis found the edge of the last step
}

// Walk runs a depth-limited best-first expansion from the seeds: level by
// level up to MaxDepth steps, each node keeping the best-scoring path that
// reached it (evidence from several seeds is combined by max, not sum, so
// that hubs do not swamp the ranking). Cycles are harmless: a node is only
// re-expanded when its score improves. The result is sorted by score,
// then node, and is the same for the same inputs.
func (g *Graph) Walk(ctx context.Context, seeds []Seed, opt WalkOptions) ([]Visit, error) {
	if opt.DampAfter <= 0 {
		opt.DampAfter = 4
	}
	if opt.InexactFactor == 0 {
		opt.InexactFactor = 0.7
	}
	if opt.MinScore == 0 {
		opt.MinScore = 1e-4
	}
	best := make(map[NodeID]*Visit, len(seeds)*8)
	var frontier []NodeID
	for _, s := range seeds {
		if s.Node < 0 || int(s.Node) >= g.NumNodes() || s.Score <= 0 {
			continue
		}
		if v, ok := best[s.Node]; ok {
			if s.Score > v.Score {
				v.Score = s.Score
			}
			continue
		}
		best[s.Node] = &Visit{Node: s.Node, Score: s.Score, Seed: s.Node, Parent: -1}
		frontier = append(frontier, s.Node)
	}
	sortNodes(frontier)

	relax := func(from *Visit, h Half, dir Dir, w float64, next map[NodeID]bool) {
		s := from.Score * w
		if !h.Exact {
			s *= opt.InexactFactor
		}
		if s < opt.MinScore {
			return
		}
		v, ok := best[h.To]
		if ok && s <= v.Score {
			return
		}
		if !ok {
			if opt.MaxVisits > 0 && len(best) >= opt.MaxVisits {
				return
			}
			v = &Visit{Node: h.To}
			best[h.To] = v
		}
		v.Score, v.Depth, v.Seed, v.Parent, v.Via, v.Dir, v.Origin = s, from.Depth+1, from.Seed, from.Node, h.Kind, dir, h.Origin
		next[h.To] = true
	}

	var counts [NumKinds]int
	for depth := 1; depth <= opt.MaxDepth && len(frontier) > 0; depth++ {
		if err := ctx.Err(); err != nil {
			return collect(best), err
		}
		next := map[NodeID]bool{}
		for _, n := range frontier {
			from := *best[n]
			for di, row := range [2][]Half{g.Out(n), g.In(n)} {
				dir := Dir(di)
				if opt.FanoutDamping {
					counts = [NumKinds]int{}
					for _, h := range row {
						counts[h.Kind]++
					}
				}
				for _, h := range row {
					w := opt.Weights[h.Kind][dir]
					if w <= 0 {
						continue
					}
					if opt.FanoutDamping && counts[h.Kind] > opt.DampAfter {
						w *= math.Sqrt(float64(opt.DampAfter) / float64(counts[h.Kind]))
					}
					relax(&from, h, dir, w, next)
				}
			}
		}
		frontier = frontier[:0]
		for n := range next {
			frontier = append(frontier, n)
		}
		sortNodes(frontier)
	}
	return collect(best), nil
}

func collect(best map[NodeID]*Visit) []Visit {
	out := make([]Visit, 0, len(best))
	for _, v := range best {
		out = append(out, *v)
	}
	// A total order (nodes are unique): the same as any sort gives, without
	// sort.Slice's reflection, which was a twentieth of a warm query.
	slices.SortFunc(out, func(a, b Visit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Node, b.Node))
	})
	return out
}

func sortNodes(ns []NodeID) { slices.Sort(ns) }

// PathTo returns the chain of visits from the seed to n, seed first, by
// following parents in the visit table.
func PathTo(visits map[NodeID]Visit, n NodeID) []Visit {
	var path []Visit
	seen := map[NodeID]bool{}
	for {
		v, ok := visits[n]
		if !ok || seen[n] {
			break
		}
		seen[n] = true
		path = append(path, v)
		if v.Parent < 0 {
			break
		}
		n = v.Parent
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}
