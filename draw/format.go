package draw

import (
	"fmt"
	"io"
	"strings"
)

// Formats are the names of the picture formats Write writes.
var Formats = []string{"dot", "mermaid", "svg"}

// Write writes pic in format, one of Formats: Graphviz's language
// (WriteDOT), a Mermaid flowchart (WriteMermaid) or an SVG laid out here
// (WriteSVG).
func Write(w io.Writer, format string, pic *Picture) error {
	switch format {
	case "dot":
		return WriteDOT(w, pic)
	case "mermaid":
		return WriteMermaid(w, pic)
	case "svg":
		return WriteSVG(w, pic)
	}
	return fmt.Errorf("unknown picture format %q: use one of %s", format, strings.Join(Formats, ", "))
}
