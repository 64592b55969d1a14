package draw

import (
	"github.com/ctxexpand/ctxexpand/graph"
)

// edgeStyle is how every writer draws an edge of one kind: the word on
// it, its colour, its line (solid, dashed, dotted) and its weight.
type edgeStyle struct {
	word  string
	color string
	dash  string // "", "dashed" or "dotted"
	bold  bool
}

var edgeStyles = map[graph.Kind]edgeStyle{
	graph.Calls:      {word: "calls", color: "#1f5fa8"},
	graph.References: {word: "uses", color: "#6b6b6b", dash: "dashed"},
	graph.MethodOf:   {word: "method of", color: "#9a9a9a", dash: "dotted"},
	graph.Implements: {word: "implements", color: "#7b3fa0", bold: true},
	graph.Embeds:     {word: "embeds", color: "#7b3fa0", dash: "dashed"},
	graph.Tests:      {word: "tests", color: "#2e8540", dash: "dashed"},
	graph.Field:      {word: "has field", color: "#9a9a9a", dash: "dotted"},
	graph.Macro:      {word: "invokes macro", color: "#b35900", dash: "dashed"},
	graph.Contains:   {word: "contains", color: "#9a9a9a", dash: "dotted"},
	graph.Imports:    {word: "imports", color: "#9a9a9a", dash: "dashed"},
}

func styleOf(k graph.Kind) edgeStyle {
	if s, ok := edgeStyles[k]; ok {
		return s
	}
	return edgeStyle{word: k.String(), color: "#6b6b6b"}
}

// style is the style of an edge with several kinds: that of its most
// telling kind that its label shows (see kindOrder and Label).
func (e *Edge) style() edgeStyle {
	for _, k := range kindOrder {
		if containsKind(e.Kinds, k) && !e.implied(k) {
			return styleOf(k)
		}
	}
	if len(e.Kinds) > 0 {
		return styleOf(e.Kinds[0])
	}
	return styleOf(0)
}

// Node colours: a named seed, a lexical seed, a ranked symbol, a link.
type nodeStyle struct {
	fill, stroke string
	width        float64
	dash         string
}

func (n *Node) style() nodeStyle {
	switch {
	case n.Role == RoleSeed && n.Named:
		return nodeStyle{fill: "#ffd966", stroke: "#b45f06", width: 2.5}
	case n.Role == RoleSeed:
		return nodeStyle{fill: "#fff2cc", stroke: "#b45f06", width: 1.5}
	case n.Role == RoleLink:
		return nodeStyle{fill: "#f3f3f3", stroke: "#9a9a9a", width: 1, dash: "dashed"}
	}
	return nodeStyle{fill: "#dde8f5", stroke: "#3c78b4", width: 1}
}

// clusterStyle colours a cluster's box.
const (
	clusterFill   = "#fafafa"
	clusterStroke = "#b7b7b7"
)
