package diffmode

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/internal/goast"
)

// scanGo lists the top-level declarations of Go source: functions,
// methods (with their receiver type as container), types, constants and
// variables, with spans that include doc comments. Source with syntax
// errors gives what parsed.
func scanGo(src []byte) []Decl {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	line := func(p token.Pos) int {
		if !p.IsValid() {
			return 0
		}
		return fset.Position(p).Line
	}
	start := func(doc *ast.CommentGroup, pos token.Pos) int {
		if doc != nil {
			return line(doc.Pos())
		}
		return line(pos)
	}
	var out []Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			decl := Decl{Name: d.Name.Name, Kind: analyze.KindFunc, Start: start(d.Doc, d.Pos()), End: line(d.End()), Parent: -1}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				decl.Kind = analyze.KindMethod
				decl.Container = recvName(d.Recv.List[0].Type)
			}
			out = append(out, decl)
		case *ast.GenDecl:
			single := !d.Lparen.IsValid()
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					decl := Decl{Name: s.Name.Name, Kind: analyze.KindType, Start: start(s.Doc, s.Pos()), End: line(s.End()), Parent: -1}
					if single {
						decl.Start, decl.End = start(d.Doc, d.Pos()), line(d.End())
					}
					switch {
					case s.Assign.IsValid():
						decl.Kind = analyze.KindTypeAlias
					default:
						switch s.Type.(type) {
						case *ast.StructType:
							decl.Kind = analyze.KindStruct
						case *ast.InterfaceType:
							decl.Kind = analyze.KindInterface
						}
					}
					out = append(out, decl)
				case *ast.ValueSpec:
					kind := analyze.KindVar
					if d.Tok == token.CONST {
						kind = analyze.KindConst
					}
					st, end := start(s.Doc, s.Pos()), line(s.End())
					if single {
						st, end = start(d.Doc, d.Pos()), line(d.End())
					}
					for _, n := range s.Names {
						if n.Name == "_" {
							continue
						}
						out = append(out, Decl{Name: n.Name, Kind: kind, Start: st, End: end, Parent: -1})
					}
				}
			}
		}
	}
	// Source cut short (a function missing its end, the parser's "_" for
	// a name it never saw) must not give a backwards span or a phantom
	// declaration: blank names go, a span without an end runs to the
	// last line.
	last := bytes.Count(src, []byte("\n")) + 1
	kept := out[:0]
	for _, d := range out {
		if d.Name == "_" || d.Start < 1 || d.Start > last {
			continue
		}
		if d.End < d.Start || d.End > last {
			d.End = last
		}
		kept = append(kept, d)
	}
	return sortDecls(kept)
}

// recvName is the type name of a receiver: T for T, *T, T[K], *T[K, V].
func recvName(e ast.Expr) string {
	switch t := goast.BaseType(e).(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}
