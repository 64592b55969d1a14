package lsp

import (
	"encoding/json"
	"errors"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// index builds the lookups from positions to symbols that the edge
// requests need.
func (l *loader) index() {
	l.decls = make(map[declKey][]analyze.SymID, len(l.facts.Symbols))
	l.byFile = make([][]analyze.SymID, len(l.files))
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		id := analyze.SymID(i)
		k := declKey{s.File, s.DeclLine}
		l.decls[k] = append(l.decls[k], id)
		l.byFile[s.File] = append(l.byFile[s.File], id)
	}
	for _, ids := range l.byFile {
		sort.SliceStable(ids, func(a, b int) bool { return l.facts.Symbols[ids[a]].Start < l.facts.Symbols[ids[b]].Start })
	}
}

// fileOf maps a URI from the server to one of the loaded files. Servers
// may spell a file differently than the loader did (escaping, the root
// with its symbolic links resolved).
func (l *loader) fileOf(uri string) (analyze.FileID, bool) {
	if id, ok := l.byURI[uri]; ok {
		return id, true
	}
	p, ok := uriPath(uri)
	if !ok {
		return 0, false
	}
	for _, r := range [2]string{l.root, l.realRoot} {
		if rel, err := filepath.Rel(r, p); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			if id, ok := l.byPath[filepath.ToSlash(rel)]; ok {
				return id, true
			}
		}
	}
	return 0, false
}

// declAt is the symbol whose name is at line (0-based) of file, preferring
// one called name when several are declared on the line.
func (l *loader) declAt(file analyze.FileID, line0 int, name string) analyze.SymID {
	ids := l.decls[declKey{file, line0 + 1}]
	if len(ids) == 0 {
		return analyze.NoSym
	}
	for _, id := range ids {
		if s := &l.facts.Symbols[id]; s.Name == name || strings.HasSuffix(name, "."+s.Name) || strings.HasSuffix(name, ")."+s.Name) {
			return id
		}
	}
	return ids[0]
}

// enclosing is the innermost symbol whose span holds line (1-based).
func (l *loader) enclosing(file analyze.FileID, line int) analyze.SymID {
	best := analyze.NoSym
	bestLen := 0
	for _, id := range l.byFile[file] {
		s := &l.facts.Symbols[id]
		if s.Start > line {
			break
		}
		if line > s.End {
			continue
		}
		if n := s.End - s.Start; best == analyze.NoSym || n < bestLen || n == bestLen && s.Start > l.facts.Symbols[best].Start {
			best, bestLen = id, n
		}
	}
	return best
}

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

// position is the place of a symbol's name, for position requests.
func (l *loader) position(id analyze.SymID) TextDocumentPositionParams {
	return TextDocumentPositionParams{
		TextDocument: TextDocumentIdentifier{URI: l.files[l.facts.Symbols[id].File].uri},
		Position:     l.info[id].sel,
	}
}

// calls asks the call hierarchy for the callees of every function and
// method with a body.
func (l *loader) calls() {
	var fns []analyze.SymID
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if !s.Kind.IsCallable() {
			continue
		}
		if s.Parent != analyze.NoSym && l.facts.Symbols[s.Parent].Kind == analyze.KindInterface {
			continue // no body
		}
		fns = append(fns, analyze.SymID(i))
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
			l.req.failed("outgoingCalls", err)
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

// implementations asks, for each Go interface and Rust trait, which types
// implement it.
func (l *loader) implementations() {
	var ifaces []analyze.SymID
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if s.Kind == analyze.KindInterface && l.hasMethods(analyze.SymID(i)) || s.Kind == analyze.KindTrait {
			ifaces = append(ifaces, analyze.SymID(i))
		}
	}
	results := make([][]Location, len(ifaces))
	l.req.each(l.ctx, len(ifaces), func(i int) {
		var raw json.RawMessage
		if err := l.req.call(l.ctx, "textDocument/implementation", l.position(ifaces[i]), &raw); err != nil {
			l.req.failed("implementation", err)
			return
		}
		locs, err := decodeLocations(raw)
		if err != nil {
			l.req.failed("implementation", err)
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

// embeds resolves Go embedded fields (a field whose header is just a type
// name) to the embedded type with a definition request.
func (l *loader) embeds() {
	if l.lang != analyze.LangGo {
		return
	}
	var fields []analyze.SymID
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if s.Parent != analyze.NoSym && (s.Kind == analyze.KindField || s.Kind == analyze.KindMethod && !strings.Contains(s.Signature, "(")) && isEmbedded(s) {
			fields = append(fields, analyze.SymID(i))
		}
	}
	found := make([]analyze.SymID, len(fields))
	l.req.each(l.ctx, len(fields), func(i int) {
		found[i] = analyze.NoSym
		var raw json.RawMessage
		if err := l.req.call(l.ctx, "textDocument/definition", l.position(fields[i]), &raw); err != nil {
			l.req.failed("definition", err)
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

// references asks for the references to every symbol and adds an edge
// from the innermost symbol around each reference. A field's references
// (and an interface method's) also count for its type, as the built-in
// loaders count them.
func (l *loader) references() {
	var targets []analyze.SymID
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if s.Test || s.Kind == analyze.KindImpl || s.Kind == analyze.KindModule {
			continue // nothing refers to a test; impls and modules are not referred to by name
		}
		targets = append(targets, analyze.SymID(i))
	}
	results := make([][]Location, len(targets))
	l.req.each(l.ctx, len(targets), func(i int) {
		p := ReferenceParams{TextDocumentPositionParams: l.position(targets[i])}
		if err := l.req.call(l.ctx, "textDocument/references", p, &results[i]); err != nil {
			l.req.failed("references", err)
		}
	})
	calls := make(map[[2]analyze.SymID]bool)
	for _, e := range l.facts.Edges {
		if e.Kind == analyze.EdgeCalls {
			calls[[2]analyze.SymID{e.From, e.To}] = true
		}
	}
	for i, to := range targets {
		for _, loc := range results[i] {
			f, ok := l.fileOf(loc.URI)
			if !ok {
				continue
			}
			line := loc.Range.Start.Line + 1
			from := l.enclosing(f, line)
			if from == analyze.NoSym || calls[[2]analyze.SymID{from, to}] {
				continue
			}
			if from == to && line == l.facts.Symbols[to].DeclLine {
				continue // the declaration itself
			}
			l.facts.AddEdge(analyze.Edge{From: from, To: to, Kind: analyze.EdgeReferences, Exact: true, Line: line})
			if fs := &l.facts.Symbols[from]; fs.Parent != analyze.NoSym && (fs.Kind == analyze.KindField || l.facts.Symbols[fs.Parent].Kind == analyze.KindInterface) {
				l.facts.AddEdge(analyze.Edge{From: fs.Parent, To: to, Kind: analyze.EdgeReferences, Exact: true, Line: line})
			}
		}
	}
}

// testEdges adds a tests edge from each test to everything it calls or
// references, and (Go) to the symbol its name designates:
// TestUserService_FindByEmail → UserService.FindByEmail, TestParse →
// Parse, in the test's directory. Designation is by name, so inexact.
func (l *loader) testEdges() {
	n := len(l.facts.Edges)
	for i := 0; i < n; i++ {
		e := l.facts.Edges[i]
		if (e.Kind == analyze.EdgeCalls || e.Kind == analyze.EdgeReferences) && l.facts.Symbols[e.From].Test && !l.facts.Symbols[e.To].Test {
			l.facts.AddEdge(analyze.Edge{From: e.From, To: e.To, Kind: analyze.EdgeTests, Exact: e.Exact, Line: e.Line})
		}
	}
	if l.lang != analyze.LangGo {
		return
	}
	type nameKey struct{ dir, container, name string }
	byName := make(map[nameKey][]analyze.SymID)
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if s.Test || s.Kind == analyze.KindField {
			continue
		}
		k := nameKey{path.Dir(l.facts.Files[s.File].Path), s.Container, s.Name}
		byName[k] = append(byName[k], analyze.SymID(i))
	}
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if !s.Test {
			continue
		}
		subject := s.Name
		for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if rest, ok := strings.CutPrefix(subject, prefix); ok {
				subject = strings.TrimPrefix(rest, "_")
				break
			}
		}
		if subject == "" {
			continue
		}
		dir := path.Dir(l.facts.Files[s.File].Path)
		typ, member, hasMember := strings.Cut(subject, "_")
		var to []analyze.SymID
		if hasMember {
			to = byName[nameKey{dir, typ, member}]
		}
		if len(to) == 0 {
			to = byName[nameKey{dir, "", typ}]
		}
		if len(to) == 0 {
			to = byName[nameKey{dir, "", lowerFirst(typ)}]
		}
		if len(to) > 3 {
			continue
		}
		for _, t := range to {
			l.facts.AddEdge(analyze.Edge{From: analyze.SymID(i), To: t, Kind: analyze.EdgeTests, Line: s.DeclLine})
		}
	}
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}
