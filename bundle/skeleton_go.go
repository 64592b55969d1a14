package bundle

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/internal/goast"
)

// goBodyPlaceholder replaces an elided Go body; it keeps the skeleton
// valid Go syntax.
const goBodyPlaceholder = "{ /* … */ }"

// bigLiteralLines is the size from which a composite literal in a var or
// const declaration is elided in a skeleton.
const bigLiteralLines = 4

// goSkeleton builds the skeleton of a Go file from its syntax tree: the
// package doc and clause, imports, type declarations whole, const and var
// declarations with function literal bodies and large composite literals
// elided, and every function and method as its doc comment and signature
// with the body elided. The result parses as Go. It also returns the names
// of the top-level declarations (methods as Type.Method). ok is false when
// the file does not parse; callers fall back to the symbol skeleton.
func goSkeleton(src string) (skel string, names []string, ok bool) {
	return memoGoSkeleton(src, keyOfText(src), true)
}

// memoGoSkeleton is goSkeleton for src, whose key is key; the lookup in
// the memo counts in SkeletonMemoStats only when counted (Prime's do not).
func memoGoSkeleton(src string, key textKey, counted bool) (skel string, names []string, ok bool) {
	e := skeletons.of(key, counted, func() skeletonEntry {
		skel, names, ok := buildGoSkeleton(src)
		return skeletonEntry{skel, names, ok}
	})
	return e.skel, e.names, e.ok
}

// buildGoSkeleton is goSkeleton without the memo.
func buildGoSkeleton(src string) (skel string, names []string, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil || f == nil {
		return "", nil, false
	}
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) }

	var b strings.Builder
	start := f.Package
	if f.Doc != nil {
		start = f.Doc.Pos()
	}
	b.WriteString(src[off(start):off(f.Name.End())])
	b.WriteByte('\n')

	for _, d := range f.Decls {
		var doc *ast.CommentGroup
		switch d := d.(type) {
		case *ast.FuncDecl:
			doc = d.Doc
			names = append(names, funcName(d))
		case *ast.GenDecl:
			doc = d.Doc
			names = append(names, genNames(d)...)
		default:
			continue
		}
		from := off(d.Pos())
		if doc != nil {
			from = off(doc.Pos())
		}
		to := trailingComment(src, off(d.End()))
		b.WriteByte('\n')
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body == nil {
				b.WriteString(src[from:to])
			} else {
				b.WriteString(strings.TrimRight(src[from:off(d.Body.Lbrace)], " \t\n"))
				b.WriteString(" " + goBodyPlaceholder)
			}
		case *ast.GenDecl:
			b.WriteString(splice(src, from, to, elisions(d, fset, off)))
		}
		b.WriteByte('\n')
	}
	return b.String(), names, true
}

// trailingComment extends a declaration's end over a line comment on the
// same line ("const X = 1 // why").
func trailingComment(src string, end int) int {
	rest := src[end:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		nl = len(rest)
	}
	if strings.HasPrefix(strings.TrimLeft(rest[:nl], " \t"), "//") {
		return end + nl
	}
	return end
}

type cut struct{ from, to int }

// elisions lists the byte ranges of a declaration to replace with the
// placeholder: function literal bodies, and composite literals of
// bigLiteralLines lines or more in const and var declarations.
func elisions(d *ast.GenDecl, fset *token.FileSet, off func(token.Pos) int) []cut {
	if d.Tok != token.VAR && d.Tok != token.CONST {
		return nil
	}
	var cuts []cut
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			cuts = append(cuts, cut{off(n.Body.Lbrace), off(n.Body.Rbrace) + 1})
			return false
		case *ast.CompositeLit:
			lines := fset.Position(n.Rbrace).Line - fset.Position(n.Lbrace).Line + 1
			if lines >= bigLiteralLines {
				cuts = append(cuts, cut{off(n.Lbrace), off(n.Rbrace) + 1})
				return false
			}
		}
		return true
	})
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].from < cuts[j].from })
	return cuts
}

// splice returns src[from:to] with each cut replaced by the placeholder.
func splice(src string, from, to int, cuts []cut) string {
	var b strings.Builder
	pos := from
	for _, c := range cuts {
		if c.from < pos || c.to > to {
			continue
		}
		b.WriteString(src[pos:c.from])
		b.WriteString(goBodyPlaceholder)
		pos = c.to
	}
	b.WriteString(src[pos:to])
	return b.String()
}

func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	return recvTypeName(d.Recv.List[0].Type) + "." + d.Name.Name
}

func recvTypeName(e ast.Expr) string {
	if id, ok := goast.BaseType(e).(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

func genNames(d *ast.GenDecl) []string {
	var out []string
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			out = append(out, s.Name.Name)
		case *ast.ValueSpec:
			for _, n := range s.Names {
				if n.Name != "_" {
					out = append(out, n.Name)
				}
			}
		}
	}
	return out
}
