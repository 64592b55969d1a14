package draw

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteDOT writes the picture in Graphviz's DOT language: one subgraph
// cluster per package, seeds filled in yellow (those the query named
// with a thick border), links dashed, and every edge labelled and
// coloured by its kinds. Render it with `dot -Tsvg`.
func WriteDOT(w io.Writer, pic *Picture) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("// ctxexpand graph: %s\n", oneLine(pic.Title))
	p("// %s\n", pic.summary())
	p("digraph ctxexpand {\n")
	p("\tgraph [label=%s, labelloc=t, fontname=\"Helvetica\", fontsize=12, rankdir=LR, nodesep=0.25, ranksep=0.7];\n", dotQuote(pic.Title))
	p("\tnode [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, margin=\"0.12,0.06\"];\n")
	p("\tedge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.7];\n")
	for ci, c := range pic.Clusters {
		p("\n\tsubgraph cluster_%d {\n", ci)
		p("\t\tlabel=%s;\n", dotQuote(c.Label))
		p("\t\tstyle=\"rounded,filled\"; fillcolor=%q; color=%q; fontsize=10;\n", clusterFill, clusterStroke)
		for _, i := range c.Nodes {
			n := &pic.Nodes[i]
			st := n.style()
			style := "rounded,filled"
			if st.dash != "" {
				style += "," + st.dash
			}
			p("\t\t%s [label=%s, tooltip=%s, fillcolor=%q, color=%q, penwidth=%g, style=%q];\n",
				n.ID, dotQuote(n.Label+"\n"+n.Detail()), dotQuote(n.tooltip()), st.fill, st.stroke, st.width, style)
		}
		p("\t}\n")
	}
	if len(pic.Edges) > 0 {
		p("\n")
	}
	for _, e := range pic.Edges {
		st := e.style()
		attrs := fmt.Sprintf("label=%s, color=%q, fontcolor=%q", dotQuote(e.Label()), st.color, st.color)
		if st.dash != "" {
			attrs += fmt.Sprintf(", style=%s", st.dash)
		}
		if st.bold {
			attrs += ", penwidth=1.8, arrowhead=empty"
		}
		p("\t%s -> %s [%s];\n", pic.Nodes[e.From].ID, pic.Nodes[e.To].ID, attrs)
	}
	p("}\n")
	return bw.Flush()
}

// dotQuote quotes s as a DOT string: backslashes and quotes escaped,
// line breaks as DOT's centred-line escape.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range printable(s) {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// oneLine folds a title to a single line for a comment, without
// control characters.
func oneLine(s string) string { return strings.Join(strings.Fields(printable(s)), " ") }

// printable drops the control characters other than line breaks and
// tabs, and replaces invalid UTF-8, so that no writer passes them on.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// tooltip is where a node is declared and why it is drawn.
func (n *Node) tooltip() string {
	loc := n.Path
	if n.Line > 0 {
		loc = fmt.Sprintf("%s:%d", n.Path, n.Line)
	}
	why := n.Role.String()
	if n.Role == RoleSeed && !n.Named {
		why = "lexical seed"
	}
	if n.Rank > 0 {
		why += fmt.Sprintf(", file ranked %d", n.Rank)
	}
	return loc + " (" + why + ")"
}

// summary is the picture in numbers: "14 nodes (2 seeds) in 5
// packages, 21 edges".
func (pic *Picture) summary() string {
	s := fmt.Sprintf("%s (%s) in %s, %s", plural(len(pic.Nodes), "node"), plural(pic.Seeds(), "seed"), plural(len(pic.Clusters), "package"), plural(len(pic.Edges), "edge"))
	if pic.HiddenEdges > 0 {
		s += fmt.Sprintf(" (%s not drawn)", plural(pic.HiddenEdges, "weaker relation"))
	}
	if pic.Omitted > 0 {
		s += fmt.Sprintf("; %s left out (raise the node limit)", plural(pic.Omitted, "more ranked symbol"))
	}
	return s
}

// plural is "1 node", "2 nodes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
