package extract

import (
	"go/ast"
	"go/types"
	"sort"
	"strconv"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// refsTyped records what n refers to, resolved through types.Info: calls
// to functions and methods (a call through an interface reaches the
// interface method), and references to types, package-level constants and
// variables, fields and functions used as values. Objects outside the
// repository are dropped. In a package with type errors, identifiers the
// checker could not resolve fall back to syntactic lookup.
func (x *Extractor) refsTyped(froms []Key, n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id := calleeIdent(n.Fun); id != nil {
				x.callee[id] = true
			}
		case *ast.CompositeLit:
			if x.Hybrid {
				x.skipLiteralKeys(n)
			}
		case *ast.SelectorExpr:
			if x.Hybrid && x.Info.Uses[n.Sel] == nil {
				x.hybridSelector(froms, n)
			}
		case *ast.Ident:
			x.typedIdent(froms, n)
		}
		return true
	})
}

func (x *Extractor) typedIdent(froms []Key, id *ast.Ident) {
	obj := x.Info.Uses[id]
	if obj == nil {
		if x.Hybrid && !x.skip[id] && id.Name != "_" && x.Info.Defs[id] == nil && types.Universe.Lookup(id.Name) == nil {
			x.addRaw(froms, RawRef{Kind: x.refKind(id, true), Line: x.line(id.Pos()), Name: id.Name})
		}
		return
	}
	to, ok := x.objKey(obj)
	if !ok {
		return
	}
	kind := analyze.EdgeReferences
	if _, isFunc := obj.(*types.Func); isFunc && x.callee[id] {
		kind = analyze.EdgeCalls
	}
	line := x.line(id.Pos())
	for _, from := range froms {
		x.edge(from, to, kind, true, line)
	}
}

// hybridSelector handles a selector whose member the checker did not
// resolve: a name from a package that failed to import, or a method called
// on a value of invalid type.
func (x *Extractor) hybridSelector(froms []Key, sel *ast.SelectorExpr) {
	x.skip[sel.Sel] = true
	line := x.line(sel.Sel.Pos())
	if q, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
		if pn, ok := x.Info.Uses[q].(*types.PkgName); ok {
			if x.RepoPkg(pn.Imported().Path()) {
				x.addRaw(froms, RawRef{Kind: x.refKind(sel.Sel, true), Line: line, QualPath: pn.Imported().Path(), Name: sel.Sel.Name})
			}
			return
		}
	}
	if x.callee[sel.Sel] {
		x.addRaw(froms, RawRef{Kind: analyze.EdgeCalls, Line: line, Name: sel.Sel.Name, Member: true})
	}
}

// skipLiteralKeys marks the field names of a struct literal, which no
// package-level lookup may claim.
func (x *Extractor) skipLiteralKeys(lit *ast.CompositeLit) {
	if _, isMap := lit.Type.(*ast.MapType); isMap {
		return
	}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				x.skip[id] = true
			}
		}
	}
}

// refKind is calls for a callee identifier when calls are plausible, and
// references otherwise.
func (x *Extractor) refKind(id *ast.Ident, maybeCall bool) analyze.EdgeKind {
	if maybeCall && x.callee[id] {
		return analyze.EdgeCalls
	}
	return analyze.EdgeReferences
}

// addRaw records a reference for the Merger to resolve, once per source
// declaration.
func (x *Extractor) addRaw(froms []Key, r RawRef) {
	r.File, r.Scope = x.rel, x.scope
	for _, from := range froms {
		r.From = from
		x.res.Raws = append(x.res.Raws, r)
	}
}

// objKey is the key of a repository object worth an edge: a function or
// method, a package-level type, constant or variable, or a struct field.
func (x *Extractor) objKey(obj types.Object) (Key, bool) {
	switch o := obj.(type) {
	case *types.Func:
		obj = o.Origin()
	case *types.Var:
		if o.IsField() {
			obj = o.Origin()
		} else if o.Pkg() == nil || o.Parent() != o.Pkg().Scope() {
			return Key{}, false
		}
	case *types.Const:
		if o.Pkg() == nil || o.Parent() != o.Pkg().Scope() {
			return Key{}, false
		}
	case *types.TypeName:
		if o.Pkg() == nil || o.Parent() != o.Pkg().Scope() {
			return Key{}, false
		}
	default:
		return Key{}, false
	}
	pkg := obj.Pkg()
	if pkg == nil || !x.RepoPkg(pkg.Path()) || !obj.Pos().IsValid() {
		return Key{}, false
	}
	p := x.fset.PositionFor(obj.Pos(), false)
	rel, ok := x.RelOf(p.Filename)
	if !ok {
		return Key{}, false
	}
	return Key{Path: rel, Line: int32(p.Line), Col: int32(p.Column)}, true
}

// TypedMethodSets records, for each named type the file declares at
// package level, the method set the implements relation compares: an
// interface's methods, or the methods of *T for any other type.
func (x *Extractor) TypedMethodSets(f *ast.File) {
	qual := func(p *types.Package) string { return p.Path() }
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gd.Specs {
			ts, ok := s.(*ast.TypeSpec)
			if !ok || ts.Assign.IsValid() {
				continue
			}
			tn, ok := x.Info.Defs[ts.Name].(*types.TypeName)
			if !ok {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			k := x.keyOf(ts.Name)
			if !k.valid() {
				continue
			}
			ms := MethodSet{Key: k, Scope: x.scope}
			add := func(m *types.Func) {
				sig, ok := m.Type().(*types.Signature)
				if !ok {
					return
				}
				name := m.Name()
				if !m.Exported() && m.Pkg() != nil {
					name = m.Pkg().Path() + "." + name
				}
				ms.Exact = append(ms.Exact, name+" "+types.TypeString(sig, qual))
				ms.Arity = append(ms.Arity, name+"/"+strconv.Itoa(sig.Params().Len())+"/"+strconv.Itoa(sig.Results().Len()))
			}
			switch u := named.Underlying().(type) {
			case *types.Interface:
				if !u.IsMethodSet() || u.NumMethods() == 0 {
					continue
				}
				ms.Iface = true
				for i := 0; i < u.NumMethods(); i++ {
					add(u.Method(i))
				}
			case *types.Pointer:
				continue
			default:
				mset := types.NewMethodSet(types.NewPointer(named))
				if mset.Len() == 0 {
					continue
				}
				for i := 0; i < mset.Len(); i++ {
					if m, ok := mset.At(i).Obj().(*types.Func); ok {
						add(m)
					}
				}
			}
			sort.Strings(ms.Exact)
			sort.Strings(ms.Arity)
			x.res.MethodSets = append(x.res.MethodSets, ms)
		}
	}
}
