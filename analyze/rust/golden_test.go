package rust

import (
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// dumpFacts renders facts as sorted text, one record per line, for golden
// files and failure messages.
func dumpFacts(f *analyze.Facts) string {
	var b strings.Builder
	q := func(s analyze.SymID) string { return f.Symbols[s].QualName(analyze.LangRust) }
	for _, fl := range f.Files {
		fmt.Fprintf(&b, "file %s package=%s crate=%s category=%s lines=%d errors=%d degraded=%v\n",
			fl.Path, fl.Package, fl.PkgName, fl.Category, fl.Lines, fl.Errors, fl.Degraded)
	}
	for i, s := range f.Symbols {
		var flags []string
		if s.Exported {
			flags = append(flags, "exported")
		}
		if s.Test {
			flags = append(flags, "test")
		}
		if s.Parent != analyze.NoSym {
			flags = append(flags, "parent="+q(s.Parent))
		}
		fmt.Fprintf(&b, "sym %s:%d-%d decl=%d %s %s %s sig=%q\n", f.Files[s.File].Path, s.Start, s.End, s.DeclLine,
			s.Kind, q(analyze.SymID(i)), strings.Join(flags, " "), s.Signature)
	}
	for _, e := range f.Edges {
		exact := ""
		if e.Exact {
			exact = "!"
		}
		fmt.Fprintf(&b, "edge %s %s %s%s :%d\n", q(e.From), e.Kind, exact, q(e.To), e.Line)
	}
	for _, im := range f.Imports {
		fmt.Fprintf(&b, "import %s %s :%d\n", f.Files[im.File].Path, im.Path, im.Line)
	}
	for _, p := range f.Problems {
		fmt.Fprintf(&b, "problem %s\n", p)
	}
	return b.String()
}
