package draw

import (
	"math"
	"sort"
	"unicode/utf8"
)

// Geometry of the built-in layout, in SVG user units (pixels). Text is
// set in a monospace font so that widths are known without measuring.
const (
	labelSize   = 12.0  // node name
	detailSize  = 10.0  // node detail line
	edgeSize    = 9.5   // edge labels
	charWidth   = 0.602 // advance of a monospace glyph, in ems
	nodeHeight  = 38.0
	nodePadX    = 10.0
	rowGap      = 14.0
	colGap      = 120.0
	bandPadTop  = 24.0 // room for the cluster's label
	bandPadBot  = 10.0
	bandGap     = 16.0
	clusterPadX = 14.0
	margin      = 20.0
	titleHeight = 52.0
	maxLabel    = 48 // runes of a node name shown before "…"
)

// textWidth is the width of s set at size in the monospace font.
func textWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * charWidth
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// rect is an axis-aligned box.
type rect struct{ x, y, w, h float64 }

func (r rect) overlaps(o rect) bool {
	return r.x < o.x+o.w && o.x < r.x+r.w && r.y < o.y+o.h && o.y < r.y+r.h
}

// layout is where everything of a picture goes.
type layout struct {
	width, height float64
	nodes         []rect // parallel to Picture.Nodes
	col           []int  // column of each node
	clusters      []rect // parallel to Picture.Clusters
	legendY       float64
}

// place lays the picture out: one column per step from the seeds (nodes
// no drawn path joins to a seed in a last column), one horizontal band
// per cluster, nodes stacked within a band's column seeds first, then by
// the rank of their file.
func place(pic *Picture) *layout {
	n := len(pic.Nodes)
	lo := &layout{nodes: make([]rect, n), col: make([]int, n), clusters: make([]rect, len(pic.Clusters))}
	maxDepth := 0
	for i := range pic.Nodes {
		maxDepth = max(maxDepth, pic.Nodes[i].Depth)
	}
	ncols := 0
	for i := range pic.Nodes {
		d := pic.Nodes[i].Depth
		if d < 0 {
			d = maxDepth + 1
		}
		lo.col[i] = d
		ncols = max(ncols, d+1)
	}

	// Column widths and positions.
	colW := make([]float64, ncols)
	for i := range pic.Nodes {
		w := nodeWidth(&pic.Nodes[i])
		lo.nodes[i].w = w
		lo.nodes[i].h = nodeHeight
		colW[lo.col[i]] = max(colW[lo.col[i]], w)
	}
	colX := make([]float64, ncols)
	x := margin + clusterPadX
	for c := range colW {
		if colW[c] == 0 {
			colW[c] = 40 // an empty column (cannot happen with BFS depths) keeps its place
		}
		colX[c] = x
		x += colW[c] + colGap
	}
	lo.width = x - colGap + clusterPadX + margin

	// Bands: clusters ordered by their first column, their best rank,
	// their label.
	order := make([]int, len(pic.Clusters))
	first := make([]int, len(pic.Clusters))
	best := make([]int, len(pic.Clusters))
	for ci, c := range pic.Clusters {
		order[ci] = ci
		first[ci], best[ci] = math.MaxInt, math.MaxInt
		for _, i := range c.Nodes {
			first[ci] = min(first[ci], lo.col[i])
			if r := pic.Nodes[i].Rank; r > 0 {
				best[ci] = min(best[ci], r)
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := order[a], order[b]
		if first[x] != first[y] {
			return first[x] < first[y]
		}
		if best[x] != best[y] {
			return best[x] < best[y]
		}
		return pic.Clusters[x].Label < pic.Clusters[y].Label
	})

	y := margin + titleHeight
	for _, ci := range order {
		c := pic.Clusters[ci]
		byCol := map[int][]int{}
		for _, i := range c.Nodes {
			byCol[lo.col[i]] = append(byCol[lo.col[i]], i)
		}
		rows := 0
		minCol, maxCol := math.MaxInt, 0
		for col, ns := range byCol {
			sort.SliceStable(ns, func(a, b int) bool { return stackBefore(&pic.Nodes[ns[a]], &pic.Nodes[ns[b]]) })
			rows = max(rows, len(ns))
			minCol, maxCol = min(minCol, col), max(maxCol, col)
		}
		top := y + bandPadTop
		for col, ns := range byCol {
			for r, i := range ns {
				lo.nodes[i].x = colX[col] + (colW[col]-lo.nodes[i].w)/2
				lo.nodes[i].y = top + float64(r)*(nodeHeight+rowGap)
			}
		}
		h := bandPadTop + float64(rows)*(nodeHeight+rowGap) - rowGap + bandPadBot
		left := colX[minCol] - clusterPadX
		right := colX[maxCol] + colW[maxCol] + clusterPadX
		// The label must fit in the box.
		right = max(right, left+textWidth(c.Label, detailSize)+2*clusterPadX)
		lo.clusters[ci] = rect{left, y, right - left, h}
		lo.width = max(lo.width, right+margin)
		y += h + bandGap
	}
	lo.legendY = y + 4
	lo.height = lo.legendY + legendHeight + margin
	return lo
}

// stackBefore orders the nodes of one band's column: seeds, then by the
// rank of their file (unranked last), then by label.
func stackBefore(a, b *Node) bool {
	if (a.Role == RoleSeed) != (b.Role == RoleSeed) {
		return a.Role == RoleSeed
	}
	ra, rb := a.Rank, b.Rank
	if ra == 0 {
		ra = math.MaxInt
	}
	if rb == 0 {
		rb = math.MaxInt
	}
	if ra != rb {
		return ra < rb
	}
	if a.Label != b.Label {
		return a.Label < b.Label
	}
	return a.ID < b.ID
}

// nodeWidth leaves 5% slack over the monospace estimate for viewers
// whose monospace font runs a little wider.
func nodeWidth(n *Node) float64 {
	return 1.05*max(textWidth(clip(n.Label, maxLabel), labelSize), textWidth(n.Detail(), detailSize)) + 2*nodePadX
}

// point is a position.
type point struct{ x, y float64 }

// curve is an edge's cubic Bézier from p0 to p3.
type curve struct{ p0, p1, p2, p3 point }

func (c curve) at(t float64) point {
	u := 1 - t
	a, b, cc, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
	return point{
		a*c.p0.x + b*c.p1.x + cc*c.p2.x + d*c.p3.x,
		a*c.p0.y + b*c.p1.y + cc*c.p2.y + d*c.p3.y,
	}
}

// sides says where an edge leaves its source and enters its target:
// toward each other across columns, both on the right within a column.
// true is the right side.
func (lo *layout) sides(from, to int) (fromRight, toRight bool) {
	switch {
	case lo.col[to] > lo.col[from]:
		return true, false
	case lo.col[to] < lo.col[from]:
		return false, true
	}
	return true, true
}

// ports spreads the ends of the edges meeting one side of a node along
// that side, ordered by the height of the node at the other end, so that
// a node's edges fan out instead of leaving from one point. It returns
// the y of each edge's start and end.
func (lo *layout) ports(pic *Picture) [][2]float64 {
	type end struct {
		edge, which int // which: 0 start, 1 end
		otherY      float64
	}
	type side struct {
		node  int
		right bool
	}
	at := map[side][]end{}
	var order []side
	for ei, e := range pic.Edges {
		fr, tr := lo.sides(e.From, e.To)
		for which, sd := range []side{{e.From, fr}, {e.To, tr}} {
			other := lo.nodes[e.To]
			if which == 1 {
				other = lo.nodes[e.From]
			}
			if _, ok := at[sd]; !ok {
				order = append(order, sd)
			}
			at[sd] = append(at[sd], end{ei, which, other.y + other.h/2})
		}
	}
	ys := make([][2]float64, len(pic.Edges))
	for _, sd := range order {
		ends := at[sd]
		sort.SliceStable(ends, func(a, b int) bool {
			if ends[a].otherY != ends[b].otherY {
				return ends[a].otherY < ends[b].otherY
			}
			return ends[a].edge < ends[b].edge
		})
		r := lo.nodes[sd.node]
		span := r.h - 12
		for i, en := range ends {
			ys[en.edge][en.which] = r.y + 6 + span*float64(i+1)/float64(len(ends)+1)
		}
	}
	return ys
}

// route is the curve of an edge from y0 on its source's side to y1 on
// its target's (see sides); between nodes of one column, a bulge on the
// right.
func (lo *layout) route(from, to int, y0, y1 float64) curve {
	a, b := lo.nodes[from], lo.nodes[to]
	switch {
	case lo.col[to] > lo.col[from]:
		p0, p3 := point{a.x + a.w, y0}, point{b.x, y1}
		dx := (p3.x - p0.x) / 2
		return curve{p0, point{p0.x + dx, p0.y}, point{p3.x - dx, p3.y}, p3}
	case lo.col[to] < lo.col[from]:
		p0, p3 := point{a.x, y0}, point{b.x + b.w, y1}
		dx := (p0.x - p3.x) / 2
		return curve{p0, point{p0.x - dx, p0.y}, point{p3.x + dx, p3.y}, p3}
	}
	p0, p3 := point{a.x + a.w, y0}, point{b.x + b.w, y1}
	bulge := 30 + 0.15*math.Abs(y1-y0)
	right := max(p0.x, p3.x) + bulge
	return curve{p0, point{right, p0.y}, point{right, p3.y}, p3}
}

// labelSpot places an edge's label on its curve where it overlaps no
// node and no label placed before, trying past the middle first (where
// the edges leaving one node have parted); when every spot is taken it
// uses the first.
func (lo *layout) labelSpot(c curve, text string, taken []rect) rect {
	w := textWidth(text, edgeSize) + 6
	h := edgeSize + 5
	var first rect
	for i, t := range []float64{0.6, 0.45, 0.75, 0.35, 0.85, 0.25} {
		p := c.at(t)
		r := rect{p.x - w/2, p.y - h/2, w, h}
		if i == 0 {
			first = r
		}
		free := true
		for _, o := range lo.nodes {
			if r.overlaps(o) {
				free = false
				break
			}
		}
		for _, o := range taken {
			if !free || r.overlaps(o) {
				free = false
				break
			}
		}
		if free {
			return r
		}
	}
	return first
}
