package expand

import (
	"slices"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Relevance and reading order.
//
// The ranking says which files matter most: with the learned model, by
// the probability that the task touches them. A bundle is also read, top
// to bottom, and for a focused fix an engineer reads around the named
// symbol in a fixed order: its own file, what it calls and the types and
// traits it uses, its tests, its callers, and the entry point last. The
// hand-weighted walk keeps that order (Focused's fix weights; TestFixOrder
// holds it), so for a focused fix ranked by the model each file also gets
// its place in the hand-weighted order (File.ReadAt), and the bundle shows
// its files in that order while choosing what fits the budget by
// relevance.

// focusedFix reports whether the query is a fix of named symbols that
// resolved (StructureDecides).
func focusedFix(plan *query.Plan, res *Result) bool {
	return StructureDecides(plan, res.NamesResolved())
}

// NamesResolved reports whether a name the query gives resolved to a
// symbol.
func (r *Result) NamesResolved() bool {
	for _, res := range r.Resolutions {
		if len(res.Matches) > 0 {
			return true
		}
	}
	return false
}

// positions maps each file of a ranking to its place in it, from 0.
func positions(ranked []rank.FileRank) map[analyze.FileID]int {
	pos := make(map[analyze.FileID]int, len(ranked))
	for i, fr := range ranked {
		pos[fr.File] = i
	}
	return pos
}

// setReadingOrder numbers files in the reading order: explicit files
// first, in their order; then the files of the hand-weighted ranking in
// its order (pos: their places in it); then those it did not rank, in
// the ranking's order. It sets nothing when that order is the ranking's.
func setReadingOrder(files []File, pos map[analyze.FileID]int) {
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) (int, int) {
		f := &files[i]
		if f.Explicit {
			return 0, f.ExplicitOrder
		}
		if p, ok := pos[f.File]; ok {
			return 1, p
		}
		return 2, i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ga, pa := key(a)
		gb, pb := key(b)
		if ga != gb {
			return ga - gb
		}
		return pa - pb
	})
	same := true
	for i, j := range idx {
		same = same && i == j
	}
	if same {
		return
	}
	for place, i := range idx {
		files[i].ReadAt = place + 1
	}
}
