package lsp

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// calls asks the call hierarchy for the callees of the functions and
// methods with a body among ids.
func (l *loader) calls(ids []analyze.SymID) {
	var fns []analyze.SymID
	for _, id := range ids {
		s := &l.facts.Symbols[id]
		if !s.Kind.IsCallable() {
			continue
		}
		if s.Parent != analyze.NoSym && l.facts.Symbols[s.Parent].Kind == analyze.KindInterface {
			continue // no body
		}
		fns = append(fns, id)
	}
	results := make([][]CallHierarchyOutgoingCall, len(fns))
	l.req.each(l.ctx, len(fns), func(i int) {
		// gopls and rust-analyzer locate the item by its URI and the start
		// of its name, so an item made from the document symbol saves the
		// prepare request; a server that wants its own item gets asked.
		item := l.callItem(fns[i])
		var out []CallHierarchyOutgoingCall
		err := l.req.call(l.ctx, "callHierarchy/outgoingCalls", map[string]any{"item": item}, &out)
		var re *RPCError
		if errors.As(err, &re) {
			var items []CallHierarchyItem
			if err = l.req.call(l.ctx, "textDocument/prepareCallHierarchy", l.position(fns[i]), &items); err == nil && len(items) > 0 {
				err = l.req.call(l.ctx, "callHierarchy/outgoingCalls", map[string]any{"item": items[0]}, &out)
			}
		}
		if err != nil {
			l.failed(fns[i], "outgoingCalls", err)
			return
		}
		results[i] = out
	})
	for i, from := range fns {
		for _, c := range results[i] {
			f, ok := l.fileOf(c.To.URI)
			if !ok {
				continue // the standard library, a dependency
			}
			to := l.declAt(f, c.To.SelectionRange.Start.Line, c.To.Name)
			if to == analyze.NoSym {
				continue
			}
			line := 0
			for _, r := range c.FromRanges {
				if n := r.Start.Line + 1; line == 0 || n < line {
					line = n
				}
			}
			kind := analyze.EdgeCalls
			if k := l.facts.Symbols[to].Kind; !k.IsCallable() {
				kind = analyze.EdgeReferences // a conversion T(x), a tuple struct or variant constructor
			}
			l.facts.AddEdge(analyze.Edge{From: from, To: to, Kind: kind, Exact: true, Line: line})
		}
	}
}

// callItem describes a function as a call hierarchy item, its range
// narrowed to its name as servers report it.
func (l *loader) callItem(id analyze.SymID) CallHierarchyItem {
	s := &l.facts.Symbols[id]
	sel := l.info[id].sel
	r := Range{Start: sel, End: Position{Line: sel.Line, Character: sel.Character + utf16Len(s.Name)}}
	kind := skFunction
	if s.Kind == analyze.KindMethod {
		kind = skMethod
	}
	return CallHierarchyItem{Name: s.Name, Kind: kind, URI: l.files[s.File].uri, Range: r, SelectionRange: r}
}

// implementations asks, for each Go interface and Rust trait among ids,
// which types implement it.
func (l *loader) implementations(ids []analyze.SymID) {
	var ifaces []analyze.SymID
	for _, id := range ids {
		s := &l.facts.Symbols[id]
		if s.Kind == analyze.KindInterface && l.hasMethods(id) || s.Kind == analyze.KindTrait {
			ifaces = append(ifaces, id)
		}
	}
	results := make([][]Location, len(ifaces))
	l.req.each(l.ctx, len(ifaces), func(i int) {
		var raw json.RawMessage
		if err := l.req.call(l.ctx, "textDocument/implementation", l.position(ifaces[i]), &raw); err != nil {
			l.failed(ifaces[i], "implementation", err)
			return
		}
		locs, err := decodeLocations(raw)
		if err != nil {
			l.failed(ifaces[i], "implementation", err)
			return
		}
		results[i] = locs
	})
	for i, iface := range ifaces {
		for _, loc := range results[i] {
			f, ok := l.fileOf(loc.URI)
			if !ok {
				continue
			}
			var from analyze.SymID
			if l.lang == analyze.LangRust {
				// rust-analyzer points at the impl block (its self type).
				from = l.enclosing(f, loc.Range.Start.Line+1)
				for from != analyze.NoSym && l.facts.Symbols[from].Kind != analyze.KindImpl {
					from = l.facts.Symbols[from].Parent
				}
				if from == analyze.NoSym {
					continue
				}
				t, ok := l.implType[from]
				if !ok {
					continue
				}
				from = t
			} else {
				from = l.declAt(f, loc.Range.Start.Line, "")
				if from == analyze.NoSym || !l.facts.Symbols[from].Kind.IsType() || l.facts.Symbols[from].Kind == analyze.KindInterface {
					continue // gopls also lists the interfaces this one extends or is extended by
				}
			}
			l.facts.AddEdge(analyze.Edge{From: from, To: iface, Kind: analyze.EdgeImplements, Exact: true})
		}
	}
}

// hasMethods reports whether an interface declares or embeds anything.
func (l *loader) hasMethods(iface analyze.SymID) bool {
	for _, id := range l.byFile[l.facts.Symbols[iface].File] {
		if l.facts.Symbols[id].Parent == iface {
			return true
		}
	}
	return false
}

// embeds resolves the Go embedded fields among ids (a field whose header
// is just a type name) to the embedded type with a definition request.
func (l *loader) embeds(ids []analyze.SymID) {
	if l.lang != analyze.LangGo {
		return
	}
	var fields []analyze.SymID
	for _, id := range ids {
		s := &l.facts.Symbols[id]
		if s.Parent != analyze.NoSym && (s.Kind == analyze.KindField || s.Kind == analyze.KindMethod && !strings.Contains(s.Signature, "(")) && isEmbedded(s) {
			fields = append(fields, id)
		}
	}
	found := make([]analyze.SymID, len(fields))
	l.req.each(l.ctx, len(fields), func(i int) {
		found[i] = analyze.NoSym
		var raw json.RawMessage
		if err := l.req.call(l.ctx, "textDocument/definition", l.position(fields[i]), &raw); err != nil {
			l.failed(fields[i], "definition", err)
			return
		}
		locs, _ := decodeLocations(raw)
		for _, loc := range locs {
			if f, ok := l.fileOf(loc.URI); ok {
				if id := l.declAt(f, loc.Range.Start.Line, ""); id != analyze.NoSym && l.facts.Symbols[id].Kind.IsType() {
					found[i] = id
					return
				}
			}
		}
	})
	for i, field := range fields {
		if found[i] != analyze.NoSym {
			parent := l.facts.Symbols[field].Parent
			l.facts.AddEdge(analyze.Edge{From: parent, To: found[i], Kind: analyze.EdgeEmbeds, Exact: true, Line: l.facts.Symbols[field].DeclLine})
		}
	}
}

// isEmbedded reports whether a Go field's header is a bare type name
// (T, *T, pkg.T, *pkg.T, T[X]): an embedded field.
func isEmbedded(s *analyze.Symbol) bool {
	h := strings.TrimPrefix(strings.TrimSpace(s.Signature), "*")
	if i := strings.IndexByte(h, '['); i > 0 {
		h = h[:i]
	}
	if i := strings.LastIndexByte(h, '.'); i >= 0 {
		h = h[i+1:]
	}
	return h == s.Name
}

// references asks for the references to the symbols among ids, most
// telling kinds first (types and functions before fields and values), so
// that a cap or a time limit cuts the least useful requests. The edges
// wait in l.refs until addReferences, which needs every calls edge.
func (l *loader) references(ids []analyze.SymID) {
	var targets []analyze.SymID
	for _, id := range ids {
		s := &l.facts.Symbols[id]
		if s.Test || s.Kind == analyze.KindImpl || s.Kind == analyze.KindModule {
			continue // nothing refers to a test; impls and modules are not referred to by name
		}
		targets = append(targets, id)
	}
	sort.SliceStable(targets, func(a, b int) bool {
		return refPriority(l.facts.Symbols[targets[a]].Kind) < refPriority(l.facts.Symbols[targets[b]].Kind)
	})
	results := make([][]Location, len(targets))
	l.req.each(l.ctx, len(targets), func(i int) {
		p := ReferenceParams{TextDocumentPositionParams: l.position(targets[i])}
		if err := l.req.call(l.ctx, "textDocument/references", p, &results[i]); err != nil {
			l.failed(targets[i], "references", err)
		}
	})
	for i, to := range targets {
		for _, loc := range results[i] {
			f, ok := l.fileOf(loc.URI)
			if !ok {
				continue
			}
			line := loc.Range.Start.Line + 1
			from := l.enclosing(f, line)
			if from == analyze.NoSym || from == to && line == l.facts.Symbols[to].DeclLine {
				continue // outside any symbol, or the declaration itself
			}
			l.refs = append(l.refs, analyze.Edge{From: from, To: to, Kind: analyze.EdgeReferences, Exact: true, Line: line})
			if fs := &l.facts.Symbols[from]; fs.Parent != analyze.NoSym && (fs.Kind == analyze.KindField || l.facts.Symbols[fs.Parent].Kind == analyze.KindInterface) {
				l.refs = append(l.refs, analyze.Edge{From: fs.Parent, To: to, Kind: analyze.EdgeReferences, Exact: true, Line: line})
			}
		}
	}
}

// refPriority orders reference requests: what a query most often names
// first.
func refPriority(k analyze.SymbolKind) int {
	switch {
	case k.IsType():
		return 0
	case k.IsCallable():
		return 1
	case k == analyze.KindField:
		return 3
	}
	return 2
}

// addReferences adds the references edges gathered, except where the same
// pair already has a calls edge: a call is the stronger statement.
func (l *loader) addReferences() {
	calls := make(map[[2]analyze.SymID]bool)
	for _, e := range l.facts.Edges {
		if e.Kind == analyze.EdgeCalls {
			calls[[2]analyze.SymID{e.From, e.To}] = true
		}
	}
	for _, e := range l.refs {
		if !calls[[2]analyze.SymID{e.From, e.To}] {
			l.facts.AddEdge(e)
		}
	}
	l.refs = nil
}
