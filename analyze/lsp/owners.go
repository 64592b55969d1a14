package lsp

import (
	"encoding/json"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// owners ties members to the types they belong to: Go methods to the
// receiver's type in the same package, Rust impls and their members to
// the impl's self type (asked of the server with a definition request,
// by name in the crate when that fails); and adds method_of and field
// edges.
func (l *loader) owners() {
	// Type symbols by (package, name), for Go receivers and Rust fallbacks.
	type typeKey struct{ pkg, name string }
	types := make(map[typeKey][]analyze.SymID)
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if s.Kind.IsType() && s.Parent == analyze.NoSym || s.Kind.IsType() && l.lang == analyze.LangRust {
			pkg := l.facts.Files[s.File].Package
			if l.lang == analyze.LangRust {
				pkg = l.facts.Files[s.File].PkgName
			}
			k := typeKey{pkg, s.Name}
			types[k] = append(types[k], analyze.SymID(i))
		}
	}
	lookup := func(from analyze.SymID, name string) analyze.SymID {
		f := &l.facts.Files[l.facts.Symbols[from].File]
		pkg := f.Package
		if l.lang == analyze.LangRust {
			pkg = f.PkgName
		}
		ids := types[typeKey{pkg, name}]
		if len(ids) == 1 {
			return ids[0]
		}
		for _, id := range ids { // several: the one in the same file
			if l.facts.Symbols[id].File == l.facts.Symbols[from].File {
				return id
			}
		}
		return analyze.NoSym
	}

	// Rust impls: the self type, exactly through a definition request.
	implType := make(map[analyze.SymID]analyze.SymID)
	var impls []analyze.SymID
	for i := range l.facts.Symbols {
		if l.facts.Symbols[i].Kind == analyze.KindImpl {
			impls = append(impls, analyze.SymID(i))
		}
	}
	found := make([]analyze.SymID, len(impls))
	l.req.each(l.ctx, len(impls), func(i int) {
		found[i] = analyze.NoSym
		var raw json.RawMessage
		if l.req.call(l.ctx, "textDocument/definition", l.position(impls[i]), &raw) != nil {
			return
		}
		locs, err := decodeLocations(raw)
		if err != nil {
			return
		}
		for _, loc := range locs {
			if f, ok := l.fileOf(loc.URI); ok {
				if id := l.declAt(f, loc.Range.Start.Line, l.info[impls[i]].implSelf); id != analyze.NoSym && l.facts.Symbols[id].Kind.IsType() {
					found[i] = id
					return
				}
			}
		}
	})
	for i, impl := range impls {
		exact := found[i] != analyze.NoSym
		if !exact {
			found[i] = lookup(impl, l.info[impl].implSelf)
		}
		if found[i] != analyze.NoSym {
			implType[impl] = found[i]
			l.facts.AddEdge(analyze.Edge{From: impl, To: found[i], Kind: analyze.EdgeReferences, Exact: exact, Line: l.facts.Symbols[impl].DeclLine})
		}
	}
	l.implType = implType

	for i := range l.facts.Symbols {
		id := analyze.SymID(i)
		s := &l.facts.Symbols[i]
		switch {
		case l.info[i].owner != "": // Go method declared at top level
			if t := lookup(id, l.info[i].owner); t != analyze.NoSym {
				s.Parent = t
				l.facts.AddEdge(analyze.Edge{From: id, To: t, Kind: analyze.EdgeMethodOf, Exact: true, Line: s.DeclLine})
			}
		case s.Parent == analyze.NoSym:
		case s.Kind == analyze.KindField || s.Kind == analyze.KindVariant:
			l.facts.AddEdge(analyze.Edge{From: s.Parent, To: id, Kind: analyze.EdgeField, Exact: true, Line: s.DeclLine})
		case s.Kind == analyze.KindMethod || s.Kind == analyze.KindAssocType || s.Kind == analyze.KindConst:
			p := s.Parent
			if l.facts.Symbols[p].Kind == analyze.KindImpl {
				t, ok := implType[p]
				if !ok {
					continue
				}
				p = t
			} else if !l.facts.Symbols[p].Kind.IsType() {
				continue
			}
			l.facts.AddEdge(analyze.Edge{From: id, To: p, Kind: analyze.EdgeMethodOf, Exact: true, Line: s.DeclLine})
		}
	}
}
