package draw

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMermaid writes the picture as a Mermaid flowchart (left to right)
// with one subgraph per package, classes for seeds, ranked symbols and
// links, and every edge labelled by its kinds and coloured by linkStyle.
// The title goes in the front matter, so GitHub shows it above the chart.
func WriteMermaid(w io.Writer, pic *Picture) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("---\ntitle: %s\n---\n", yamlQuote(oneLine(pic.Title)))
	p("%%%% ctxexpand graph: %s\n", pic.summary())
	p("flowchart LR\n")
	for ci, c := range pic.Clusters {
		p("  subgraph c%d[\"%s\"]\n", ci, mermaidText(c.Label))
		for _, i := range c.Nodes {
			n := &pic.Nodes[i]
			p("    %s[\"%s<br/>%s\"]\n", n.ID, mermaidText(n.Label), mermaidText(n.Detail()))
		}
		p("  end\n")
	}
	for _, e := range pic.Edges {
		st := e.style()
		arrow := "-->"
		switch {
		case st.bold:
			arrow = "==>"
		case st.dash != "":
			arrow = "-.->"
		}
		p("  %s %s|%s| %s\n", pic.Nodes[e.From].ID, arrow, mermaidText(e.Label()), pic.Nodes[e.To].ID)
	}
	classes := []struct {
		name string
		st   nodeStyle
		has  func(n *Node) bool
	}{
		{"seed", (&Node{Role: RoleSeed, Named: true}).style(), func(n *Node) bool { return n.Role == RoleSeed && n.Named }},
		{"lexicalSeed", (&Node{Role: RoleSeed}).style(), func(n *Node) bool { return n.Role == RoleSeed && !n.Named }},
		{"ranked", (&Node{Role: RoleRanked}).style(), func(n *Node) bool { return n.Role == RoleRanked }},
		{"link", (&Node{Role: RoleLink}).style(), func(n *Node) bool { return n.Role == RoleLink }},
	}
	for _, c := range classes {
		var ids []string
		for i := range pic.Nodes {
			if c.has(&pic.Nodes[i]) {
				ids = append(ids, pic.Nodes[i].ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		def := fmt.Sprintf("fill:%s,stroke:%s,stroke-width:%gpx", c.st.fill, c.st.stroke, c.st.width)
		if c.st.dash != "" {
			def += ",stroke-dasharray:4 3"
		}
		p("  classDef %s %s\n", c.name, def)
		p("  class %s %s\n", strings.Join(ids, ","), c.name)
	}
	for ci := range pic.Clusters {
		p("  style c%d fill:%s,stroke:%s\n", ci, clusterFill, clusterStroke)
	}
	for i, e := range pic.Edges {
		st := e.style()
		p("  linkStyle %d stroke:%s,color:%s\n", i, st.color, st.color)
	}
	return bw.Flush()
}

// mermaidText escapes a label for a quoted Mermaid string with Mermaid's
// entity codes, so that quotes, angle brackets (Rust generics), '#' and
// '|' cannot end the label or be read as markup.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch r {
		case '"':
			b.WriteString("#quot;")
		case '<':
			b.WriteString("#lt;")
		case '>':
			b.WriteString("#gt;")
		case '&':
			b.WriteString("#amp;")
		case '#':
			b.WriteString("#35;")
		case '|':
			b.WriteString("#124;")
		case '`':
			b.WriteString("#96;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// yamlQuote is a double-quoted YAML scalar.
func yamlQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
