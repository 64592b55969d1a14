package extract

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// prepareSyntax indexes the file for syntax-only resolution: the objects
// the parser declared at file scope, by key, and the names imports bind.
func (x *Extractor) prepareSyntax(f *ast.File) {
	x.fileObjs = make(map[*ast.Object]Key)
	x.importNames = make(map[string]bool)
	if f.Scope != nil {
		for _, obj := range f.Scope.Objects {
			if id := declIdent(obj); id != nil {
				if k := x.keyOf(id); k.valid() {
					x.fileObjs[obj] = k
				}
			}
		}
	}
	for _, is := range f.Imports {
		switch {
		case is.Name != nil:
			x.importNames[is.Name.Name] = true
		case is.Path != nil:
			if p, err := unquote(is.Path.Value); err == nil {
				x.importNames[GuessPkgName(p)] = true
			}
		}
	}
}

// declIdent finds the identifier that declares a file-scope object.
func declIdent(obj *ast.Object) *ast.Ident {
	switch d := obj.Decl.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return d.Name
		}
	case *ast.TypeSpec:
		return d.Name
	case *ast.ValueSpec:
		for _, n := range d.Names {
			if n.Name == obj.Name {
				return n
			}
		}
	}
	return nil
}

// refsSyntax records what n refers to using the parser's scopes:
// identifiers bound to file-scope declarations resolve exactly, free
// identifiers are looked up in the package scope by the Merger, selectors
// on an import name in the imported package, and selectors on values
// through the declared type of receivers, parameters and simply initialised
// locals, else by method name.
func (x *Extractor) refsSyntax(froms []Key, n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id := calleeIdent(n.Fun); id != nil {
				x.callee[id] = true
			}
		case *ast.CompositeLit:
			x.skipLiteralKeys(n)
		case *ast.SelectorExpr:
			x.syntaxSelector(froms, n)
		case *ast.Ident:
			x.syntaxIdent(froms, n)
		}
		return true
	})
}

func (x *Extractor) syntaxIdent(froms []Key, id *ast.Ident) {
	if x.skip[id] || id.Name == "_" {
		return
	}
	line := x.line(id.Pos())
	if id.Obj != nil {
		to, ok := x.fileObjs[id.Obj]
		if !ok {
			return // a local, parameter or label
		}
		kind := analyze.EdgeReferences
		if x.callee[id] && id.Obj.Kind == ast.Fun {
			kind = analyze.EdgeCalls
		}
		for _, from := range froms {
			x.edge(from, to, kind, true, line)
		}
		return
	}
	if x.importNames[id.Name] || types.Universe.Lookup(id.Name) != nil {
		return
	}
	x.addRaw(froms, RawRef{Kind: x.refKind(id, true), Line: line, Name: id.Name, ExactScope: true})
}

func (x *Extractor) syntaxSelector(froms []Key, sel *ast.SelectorExpr) {
	if x.skip[sel.Sel] {
		return
	}
	x.skip[sel.Sel] = true
	line := x.line(sel.Sel.Pos())
	call := x.callee[sel.Sel]
	kind := x.refKind(sel.Sel, true)
	member := func(t TypeRef, field string) {
		x.addRaw(froms, RawRef{Kind: kind, Line: line, Name: sel.Sel.Name,
			RecvQual: t.Qual, RecvType: t.Name, Field: field, Member: true})
	}
	byName := func() {
		if call {
			x.addRaw(froms, RawRef{Kind: analyze.EdgeCalls, Line: line, Name: sel.Sel.Name, Member: true})
		}
	}
	switch X := ast.Unparen(sel.X).(type) {
	case *ast.Ident:
		switch {
		case X.Obj == nil && x.importNames[X.Name]:
			x.skip[X] = true
			x.addRaw(froms, RawRef{Kind: kind, Line: line, Qual: X.Name, Name: sel.Sel.Name, ExactScope: true})
		case X.Obj == nil:
			// A package-level name from another file: a type (method
			// expression) or a variable; the Merger tries the type first.
			member(TypeRef{Name: X.Name}, "")
		case X.Obj.Kind == ast.Typ:
			member(TypeRef{Name: X.Name}, "")
		default:
			if t := localType(X); t.Name != "" {
				member(t, "")
			} else {
				byName()
			}
		}
	case *ast.SelectorExpr:
		if base, ok := ast.Unparen(X.X).(*ast.Ident); ok && base.Obj != nil && base.Obj.Kind == ast.Var {
			if t := localType(base); t.Name != "" {
				member(t, X.Sel.Name)
				return
			}
		}
		byName()
	default:
		byName()
	}
}

// localType is the type a local identifier was declared with, when the
// declaration spells it: a receiver or parameter, "var v T", "v := T{}",
// "v := &T{}" or "v := new(T)".
func localType(id *ast.Ident) TypeRef {
	if id.Obj == nil {
		return TypeRef{}
	}
	switch d := id.Obj.Decl.(type) {
	case *ast.Field:
		return typeRefOf(d.Type)
	case *ast.ValueSpec:
		if d.Type != nil {
			return typeRefOf(d.Type)
		}
		for i, n := range d.Names {
			if n.Name == id.Name && i < len(d.Values) && len(d.Values) == len(d.Names) {
				return literalType(d.Values[i])
			}
		}
	case *ast.AssignStmt:
		if d.Tok != token.DEFINE || len(d.Lhs) != len(d.Rhs) {
			return TypeRef{}
		}
		for i, l := range d.Lhs {
			if n, ok := l.(*ast.Ident); ok && n.Name == id.Name {
				return literalType(d.Rhs[i])
			}
		}
	}
	return TypeRef{}
}

// literalType is the type of T{…}, &T{…} or new(T).
func literalType(e ast.Expr) TypeRef {
	switch v := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if v.Op == token.AND {
			if cl, ok := ast.Unparen(v.X).(*ast.CompositeLit); ok && cl.Type != nil {
				return typeRefOf(cl.Type)
			}
		}
	case *ast.CompositeLit:
		if v.Type != nil {
			return typeRefOf(v.Type)
		}
	case *ast.CallExpr:
		if f, ok := v.Fun.(*ast.Ident); ok && f.Name == "new" && len(v.Args) == 1 {
			return typeRefOf(v.Args[0])
		}
	}
	return TypeRef{}
}
