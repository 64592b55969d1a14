package bundle

import (
	"sort"
)

// Selection is a multiple-choice knapsack: every item (a file or an extra)
// takes exactly one of its options (rungs), each with a token cost and a
// value, and the costs must fit the budget. allocate solves it the way
// that pays on bundles:
//
//  1. Each item's options are reduced to their upper convex hull (cost
//     against value), so successive upgrades of one item have falling
//     value per token; dominated options (dearer and worth no more) drop.
//  2. Greedy: all hull upgrades of all items in order of value density
//     (value gained per token spent), each applied while it fits.
//  3. Leftover: every item, in priority order, takes its most valuable
//     option that the leftover pays for, hull or not.
//  4. Exchange: an item whose next upgrade does not fit may take it when
//     downgrading other items (cheapest loss of value per freed token
//     first) frees the tokens for less value than the upgrade adds.
//
// Steps 3 and 4 repeat while they improve the total value (bounded).

// choice is one option of an item: its cost in tokens and its value.
type choice struct {
	cost  int
	value float64
}

// pitem is an item as the planner sees it. opts[0] is "omitted" (cost 0,
// value 0); cur indexes the chosen option.
type pitem struct {
	opts []choice
	cur  int
}

func (it *pitem) cost() int      { return it.opts[it.cur].cost }
func (it *pitem) value() float64 { return it.opts[it.cur].value }

// hull returns the indices of the options on the upper convex hull of
// (cost, value), starting at the omitted option and rising in cost.
func (it *pitem) hull() []int {
	idx := make([]int, 0, len(it.opts))
	for i := range it.opts {
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := it.opts[idx[a]], it.opts[idx[b]]
		if x.cost != y.cost {
			return x.cost < y.cost
		}
		return x.value > y.value
	})
	// Keep the options that are worth more than every cheaper one.
	var rising []int
	for _, i := range idx {
		if len(rising) == 0 || it.opts[i].value > it.opts[rising[len(rising)-1]].value {
			if len(rising) > 0 && it.opts[i].cost == it.opts[rising[len(rising)-1]].cost {
				continue
			}
			rising = append(rising, i)
		}
	}
	// Upper hull: drop points under the chord of their neighbours.
	var h []int
	for _, i := range rising {
		for len(h) >= 2 {
			a, b := it.opts[h[len(h)-2]], it.opts[h[len(h)-1]]
			c := it.opts[i]
			// b lies on or under the chord a–c when slope(a,b) <= slope(b,c).
			if (b.value-a.value)*float64(c.cost-b.cost) <= (c.value-b.value)*float64(b.cost-a.cost) {
				h = h[:len(h)-1]
				continue
			}
			break
		}
		h = append(h, i)
	}
	return h
}

// maxExchangeItems bounds the items the exchange step tries per round (the
// best-ranked ones), which keeps planning fast on long candidate lists.
const maxExchangeItems = 64

type step struct {
	item, from, to int
	dc             int
	dv, density    float64
	seq            int
}

// allocate chooses an option for every item within budget, starting from
// the items' current choices (normally all omitted), and returns the
// tokens left. Items earlier in the slice win ties.
func allocate(items []*pitem, budget int) int {
	left := budget
	for _, it := range items {
		left -= it.cost()
	}
	var steps []step
	for k, it := range items {
		h := it.hull()
		// Start from the current choice when it is on the hull.
		pos := -1
		for i, o := range h {
			if o == it.cur {
				pos = i
			}
		}
		if pos < 0 {
			continue
		}
		for i := pos; i+1 < len(h); i++ {
			a, b := it.opts[h[i]], it.opts[h[i+1]]
			dc := b.cost - a.cost
			dv := b.value - a.value
			d := dv / float64(max(dc, 1))
			steps = append(steps, step{item: k, from: h[i], to: h[i+1], dc: dc, dv: dv, density: d, seq: i})
		}
	}
	sort.SliceStable(steps, func(a, b int) bool {
		x, y := steps[a], steps[b]
		if x.density != y.density {
			return x.density > y.density
		}
		if x.item != y.item {
			return x.item < y.item
		}
		return x.seq < y.seq
	})
	for _, s := range steps {
		it := items[s.item]
		if it.cur == s.from && s.dc <= left {
			it.cur = s.to
			left -= s.dc
		}
	}
	for round := 0; round < 4; round++ {
		changed := false
		left, changed = useLeftover(items, left)
		var ex bool
		left, ex = exchange(items, left)
		if !changed && !ex {
			break
		}
	}
	return left
}

// useLeftover moves each item, in order, to its most valuable option the
// leftover pays for.
func useLeftover(items []*pitem, left int) (int, bool) {
	changed := false
	for _, it := range items {
		best := it.cur
		for i, o := range it.opts {
			extra := o.cost - it.cost()
			if extra > left {
				continue
			}
			b := it.opts[best]
			if o.value > b.value || (o.value == b.value && o.cost < b.cost) {
				best = i
			}
		}
		if best != it.cur {
			left -= it.opts[best].cost - it.cost()
			it.cur = best
			changed = true
		}
	}
	return left, changed
}

// exchange tries, for each item in order, its more valuable options that do
// not fit, paying for them by downgrading other items where that loses
// less value than it gains. It applies at most one exchange per item.
func exchange(items []*pitem, left int) (int, bool) {
	changed := false
	tried := 0
	for k, it := range items {
		if tried >= maxExchangeItems {
			break
		}
		tried++
		for o := range it.opts {
			gain := it.opts[o].value - it.value()
			need := it.opts[o].cost - it.cost() - left
			if gain <= 0 || need <= 0 {
				continue
			}
			moves, loss, freed := cheapestRelease(items, k, need, gain)
			if freed < need || loss >= gain*0.999 {
				continue
			}
			for j, to := range moves {
				left += items[j].cost() - items[j].opts[to].cost
				items[j].cur = to
			}
			left -= it.opts[o].cost - it.cost()
			it.cur = o
			changed = true
			break
		}
	}
	return left, changed
}

// cheapestRelease picks downgrades of items other than skip that free at
// least need tokens, greedily by value lost per token freed. It gives up
// once the loss reaches limit. It returns the new choice per item changed,
// the value lost and the tokens freed.
func cheapestRelease(items []*pitem, skip, need int, limit float64) (map[int]int, float64, int) {
	moves := map[int]int{}
	cur := func(j int) int {
		if to, ok := moves[j]; ok {
			return to
		}
		return items[j].cur
	}
	loss, freed := 0.0, 0
	for freed < need && loss < limit {
		bestJ, bestTo, bestRate := -1, -1, 0.0
		for j, it := range items {
			if j == skip {
				continue
			}
			c := it.opts[cur(j)]
			for to, o := range it.opts {
				if o.cost >= c.cost {
					continue
				}
				rate := (c.value - o.value) / float64(c.cost-o.cost)
				if bestJ < 0 || rate < bestRate {
					bestJ, bestTo, bestRate = j, to, rate
				}
			}
		}
		if bestJ < 0 {
			break
		}
		c, o := items[bestJ].opts[cur(bestJ)], items[bestJ].opts[bestTo]
		loss += c.value - o.value
		freed += c.cost - o.cost
		moves[bestJ] = bestTo
	}
	return moves, loss, freed
}
