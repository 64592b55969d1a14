package draw

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/graph"
)

const (
	legendHeight = 44.0
	fontFamily   = "DejaVu Sans Mono, Menlo, Consolas, monospace"
)

// WriteSVG lays the picture out (see the package documentation) and
// writes it as a standalone SVG document: a title, the clusters as boxes,
// the edges as curves with their labels, the nodes with a tooltip each,
// and a legend of the node colours and edge kinds used.
func WriteSVG(w io.Writer, pic *Picture) error {
	lo := place(pic)
	legend := legendItems(pic)
	width := max(lo.width, margin+legendWidth(legend)+margin, margin+textWidth(clip(oneLine(pic.Title), 100), 14)+margin)

	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s">`+"\n",
		num(width), num(lo.height), num(width), num(lo.height), fontFamily)
	p("<title>%s</title>\n", esc("ctxexpand graph: "+oneLine(pic.Title)))
	writeMarkers(bw, pic)
	p(`<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", num(width), num(lo.height))
	p(`<text x="%s" y="%s" font-size="14" font-weight="bold" fill="#222222">%s</text>`+"\n", num(margin), num(margin+16), esc(clip(oneLine(pic.Title), 100)))
	p(`<text x="%s" y="%s" font-size="10" fill="#666666">%s</text>`+"\n", num(margin), num(margin+34), esc(pic.summary()))

	for ci := range pic.Clusters {
		r := lo.clusters[ci]
		p(`<rect class="cluster" x="%s" y="%s" width="%s" height="%s" rx="8" fill="%s" stroke="%s"/>`+"\n",
			num(r.x), num(r.y), num(r.w), num(r.h), clusterFill, clusterStroke)
	}

	curves := make([]curve, len(pic.Edges))
	ports := lo.ports(pic)
	for i, e := range pic.Edges {
		st := e.style()
		curves[i] = lo.route(e.From, e.To, ports[i][0], ports[i][1])
		c := curves[i]
		p(`<path d="M%s,%s C%s,%s %s,%s %s,%s" fill="none" stroke="%s" stroke-width="%s"%s marker-end="url(#%s)"/>`+"\n",
			num(c.p0.x), num(c.p0.y), num(c.p1.x), num(c.p1.y), num(c.p2.x), num(c.p2.y), num(c.p3.x), num(c.p3.y),
			st.color, num(strokeWidth(st)), dashAttr(st.dash), markerID(st))
	}

	// Cluster names over the edges that cross them, under the nodes.
	for ci, c := range pic.Clusters {
		r := lo.clusters[ci]
		p(`<g class="cluster-label"><rect x="%s" y="%s" width="%s" height="14" fill="%s" fill-opacity="0.85"/>`,
			num(r.x+clusterPadX-3), num(r.y+5), num(textWidth(c.Label, detailSize)+6), clusterFill)
		p(`<text x="%s" y="%s" font-size="%s" fill="#666666">%s</text></g>`+"\n",
			num(r.x+clusterPadX), num(r.y+16), num(detailSize), esc(c.Label))
	}

	for i := range pic.Nodes {
		n := &pic.Nodes[i]
		r := lo.nodes[i]
		st := n.style()
		p(`<g class="node %s" id="%s"><title>%s</title>`, n.Role, n.ID, esc(n.Label+" — "+n.tooltip()))
		p(`<rect x="%s" y="%s" width="%s" height="%s" rx="5" fill="%s" stroke="%s" stroke-width="%s"%s/>`,
			num(r.x), num(r.y), num(r.w), num(r.h), st.fill, st.stroke, num(st.width), dashAttr(st.dash))
		p(`<text x="%s" y="%s" font-size="%s" fill="#111111">%s</text>`,
			num(r.x+nodePadX), num(r.y+16), num(labelSize), esc(clip(n.Label, maxLabel)))
		p(`<text x="%s" y="%s" font-size="%s" fill="#555555">%s</text></g>`+"\n",
			num(r.x+nodePadX), num(r.y+30), num(detailSize), esc(n.Detail()))
	}

	var taken []rect
	for i := range pic.Edges {
		e := &pic.Edges[i]
		text := e.Label()
		r := lo.labelSpot(curves[i], text, taken)
		taken = append(taken, r)
		st := e.style()
		p(`<g class="edge-label"><rect x="%s" y="%s" width="%s" height="%s" rx="3" fill="#ffffff" fill-opacity="0.9"/>`,
			num(r.x), num(r.y), num(r.w), num(r.h))
		p(`<text x="%s" y="%s" font-size="%s" fill="%s" text-anchor="middle">%s</text></g>`+"\n",
			num(r.x+r.w/2), num(r.y+r.h-4), num(edgeSize), st.color, esc(text))
	}

	writeLegend(bw, legend, lo.legendY)
	p("</svg>\n")
	return bw.Flush()
}

// num formats a coordinate with one decimal, without a trailing ".0".
func num(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// esc escapes text for XML content and attributes, dropping the control
// characters XML 1.0 cannot hold.
func esc(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		if r >= 0xD800 && r <= 0xDFFF {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
	return xmlEscaper.Replace(s)
}

func strokeWidth(st edgeStyle) float64 {
	if st.bold {
		return 2
	}
	return 1.3
}

func dashAttr(dash string) string {
	switch dash {
	case "dashed":
		return ` stroke-dasharray="6 4"`
	case "dotted":
		return ` stroke-dasharray="2 3"`
	}
	return ""
}

func markerID(st edgeStyle) string {
	id := "arrow-" + strings.TrimPrefix(st.color, "#")
	if st.bold {
		id += "-open"
	}
	return id
}

// writeMarkers defines one arrowhead per colour (and open head) in use.
func writeMarkers(w io.Writer, pic *Picture) {
	seen := map[string]edgeStyle{}
	for i := range pic.Edges {
		st := pic.Edges[i].style()
		seen[markerID(st)] = st
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	fmt.Fprintln(w, "<defs>")
	for _, id := range ids {
		st := seen[id]
		fill := st.color
		if st.bold {
			fill = "#ffffff"
		}
		fmt.Fprintf(w, `<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s" stroke="%s"/></marker>`+"\n", id, fill, st.color)
	}
	fmt.Fprintln(w, "</defs>")
}

// legendItem is one entry of the legend: a node swatch or an edge kind.
type legendItem struct {
	text string
	node *nodeStyle
	edge *edgeStyle
}

// legendItems lists the node roles and edge kinds the picture uses.
func legendItems(pic *Picture) []legendItem {
	var items []legendItem
	roles := []struct {
		text string
		n    Node
	}{
		{"seed named by the query", Node{Role: RoleSeed, Named: true}},
		{"seed from matching words", Node{Role: RoleSeed}},
		{"symbol of a ranked file", Node{Role: RoleRanked}},
		{"link on the way", Node{Role: RoleLink}},
	}
	for _, r := range roles {
		for i := range pic.Nodes {
			n := &pic.Nodes[i]
			if n.Role == r.n.Role && (n.Role != RoleSeed || n.Named == r.n.Named) {
				st := r.n.style()
				items = append(items, legendItem{text: r.text, node: &st})
				break
			}
		}
	}
	var kinds []graph.Kind
	for i := range pic.Edges {
		for _, k := range pic.Edges[i].Kinds {
			if !containsKind(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	for _, k := range kinds {
		st := styleOf(k)
		items = append(items, legendItem{text: st.word, edge: &st})
	}
	return items
}

const (
	swatchWidth = 26.0
	legendGap   = 18.0
)

func itemWidth(it legendItem) float64 { return swatchWidth + 6 + textWidth(it.text, detailSize) }

// legendWidth is the width of the longer of the legend's two rows.
func legendWidth(items []legendItem) float64 {
	var nodes, edges float64
	for _, it := range items {
		if it.node != nil {
			nodes += itemWidth(it) + legendGap
		} else {
			edges += itemWidth(it) + legendGap
		}
	}
	return max(nodes, edges)
}

// writeLegend writes the node swatches on one row and the edge kinds on
// the next.
func writeLegend(w io.Writer, items []legendItem, y float64) {
	fmt.Fprintln(w, `<g class="legend">`)
	xNode, xEdge := margin, margin
	for _, it := range items {
		switch {
		case it.node != nil:
			st := it.node
			fmt.Fprintf(w, `<rect x="%s" y="%s" width="%s" height="12" rx="3" fill="%s" stroke="%s" stroke-width="%s"%s/>`,
				num(xNode), num(y+2), num(swatchWidth), st.fill, st.stroke, num(min(st.width, 2)), dashAttr(st.dash))
			fmt.Fprintf(w, `<text x="%s" y="%s" font-size="%s" fill="#444444">%s</text>`+"\n", num(xNode+swatchWidth+6), num(y+12), num(detailSize), esc(it.text))
			xNode += itemWidth(it) + legendGap
		default:
			st := it.edge
			ly := y + 22 + 8
			fmt.Fprintf(w, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>`,
				num(xEdge), num(ly), num(xEdge+swatchWidth), num(ly), st.color, num(strokeWidth(*st)), dashAttr(st.dash))
			fmt.Fprintf(w, `<text x="%s" y="%s" font-size="%s" fill="%s">%s</text>`+"\n", num(xEdge+swatchWidth+6), num(ly+4), num(detailSize), st.color, esc(it.text))
			xEdge += itemWidth(it) + legendGap
		}
	}
	fmt.Fprintln(w, "</g>")
}
