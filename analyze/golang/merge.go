package golang

import (
	"slices"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Limits on resolution by name: a method call matched only by its name
// links to at most maxByName candidates, and a plain name found more than
// maxByName times in one package scope (build-tag variants) is dropped.
const maxByName = 3

// memberKey names a method or field: package scope, type, member.
type memberKey struct{ scope, typ, name string }

// scopeInfo describes a package scope.
type scopeInfo struct{ importPath, pkgName, dir string }

// merger builds one analyze.Facts from the per-package results on a single
// goroutine: it numbers files and symbols, indexes declarations by scope
// and name, and resolves what extraction left as raw references.
type merger struct {
	facts *analyze.Facts
	ids   map[key]analyze.SymID
	recs  []*symRec // by SymID

	fileIDs     map[string]analyze.FileID
	fileImports map[string][]importRec
	scopes      map[string]*scopeInfo
	importScope map[string]string // import path → scope of its non-test package
	dirScopes   map[string][]string

	top     map[string]map[string][]analyze.SymID // scope → name → package-level symbols
	methods map[memberKey]analyze.SymID
	fields  map[memberKey]analyze.SymID
	byName  map[string][]analyze.SymID // method name → methods

	importedCache map[string][]string
	embedding     map[analyze.SymID]bool // types that embed another
}

func newMerger(facts *analyze.Facts) *merger {
	return &merger{
		facts:         facts,
		ids:           make(map[key]analyze.SymID),
		fileIDs:       make(map[string]analyze.FileID),
		fileImports:   make(map[string][]importRec),
		scopes:        make(map[string]*scopeInfo),
		importScope:   make(map[string]string),
		dirScopes:     make(map[string][]string),
		top:           make(map[string]map[string][]analyze.SymID),
		methods:       make(map[memberKey]analyze.SymID),
		fields:        make(map[memberKey]analyze.SymID),
		byName:        make(map[string][]analyze.SymID),
		importedCache: make(map[string][]string),
		embedding:     make(map[analyze.SymID]bool),
	}
}

// merge folds the results into the facts.
func (m *merger) merge(results []*pkgResult) {
	sort.SliceStable(results, func(i, j int) bool { return resultKey(results[i]) < resultKey(results[j]) })
	for _, r := range results {
		m.addScope(r)
	}
	for _, r := range results {
		m.addFiles(r)
	}
	for _, r := range results {
		for i := range r.syms {
			m.addSymbol(&r.syms[i])
		}
	}
	m.index()
	m.linkParents()
	for _, r := range results {
		for _, e := range r.edges {
			from, ok1 := m.ids[e.from]
			to, ok2 := m.ids[e.to]
			if ok1 && e.kind == analyze.EdgeEmbeds {
				m.embedding[from] = true
			}
			if ok1 && ok2 {
				m.facts.AddEdge(analyze.Edge{From: from, To: to, Kind: e.kind, Exact: e.exact, Line: e.line})
			}
		}
	}
	for _, r := range results {
		for i := range r.raws {
			if r.raws[i].kind == analyze.EdgeEmbeds {
				if from, ok := m.ids[r.raws[i].from]; ok {
					m.embedding[from] = true
				}
			}
			m.resolve(&r.raws[i])
		}
	}
	var msets []methodSet
	for _, r := range results {
		msets = append(msets, r.msets...)
	}
	m.implements(msets)
	m.testEdges()
	for _, r := range results {
		m.facts.Problems = append(m.facts.Problems, r.problems...)
	}
}

func resultKey(r *pkgResult) string {
	if len(r.files) > 0 {
		return r.files[0].file.Path + "\x00" + r.scope
	}
	return "\xff" + r.scope
}

func (m *merger) addScope(r *pkgResult) {
	if _, ok := m.scopes[r.scope]; !ok {
		m.scopes[r.scope] = &scopeInfo{importPath: r.importPath, pkgName: r.pkgName, dir: r.dir}
		m.dirScopes[r.dir] = append(m.dirScopes[r.dir], r.scope)
	}
	if r.importPath != "" && !strings.HasSuffix(r.pkgName, "_test") {
		if _, ok := m.importScope[r.importPath]; !ok {
			m.importScope[r.importPath] = r.scope
		}
	}
}

func (m *merger) addFiles(r *pkgResult) {
	for _, fr := range r.files {
		if _, dup := m.fileIDs[fr.file.Path]; dup {
			continue
		}
		id := m.facts.AddFile(fr.file)
		m.fileIDs[fr.file.Path] = id
		m.fileImports[fr.file.Path] = fr.imports
		for _, im := range fr.imports {
			m.facts.Imports = append(m.facts.Imports, analyze.Import{File: id, Path: im.path, Line: im.line})
		}
	}
}

func (m *merger) addSymbol(rec *symRec) {
	fid, ok := m.fileIDs[rec.file]
	if !ok {
		return
	}
	if _, dup := m.ids[rec.key]; dup {
		return
	}
	s := rec.sym
	s.File = fid
	s.Parent = analyze.NoSym
	id := m.facts.AddSymbol(s)
	m.ids[rec.key] = id
	m.recs = append(m.recs, rec)
}

func (m *merger) index() {
	for i, rec := range m.recs {
		id := analyze.SymID(i)
		s := &rec.sym
		switch {
		case s.Kind == analyze.KindMethod && s.Container != "":
			k := memberKey{rec.scope, s.Container, s.Name}
			if _, ok := m.methods[k]; !ok {
				m.methods[k] = id
			}
			m.byName[s.Name] = append(m.byName[s.Name], id)
		case s.Kind == analyze.KindField:
			k := memberKey{rec.scope, s.Container, s.Name}
			if _, ok := m.fields[k]; !ok {
				m.fields[k] = id
			}
		default:
			names := m.top[rec.scope]
			if names == nil {
				names = make(map[string][]analyze.SymID)
				m.top[rec.scope] = names
			}
			names[s.Name] = append(names[s.Name], id)
		}
	}
}

// linkParents sets the Parent of fields and interface methods (known by
// key) and of methods (their receiver type, found by name in the package
// scope), adding the method_of edges of concrete methods.
func (m *merger) linkParents() {
	for i, rec := range m.recs {
		id := analyze.SymID(i)
		s := &m.facts.Symbols[id]
		if rec.parent.valid() {
			if p, ok := m.ids[rec.parent]; ok {
				s.Parent = p
			}
			continue
		}
		if s.Kind != analyze.KindMethod || s.Container == "" {
			continue
		}
		types := m.typesNamed(rec.scope, s.Container)
		if len(types) == 0 {
			continue
		}
		s.Parent = types[0]
		m.facts.AddEdge(analyze.Edge{From: id, To: types[0], Kind: analyze.EdgeMethodOf, Exact: len(types) == 1, Line: s.DeclLine})
	}
}

// typesNamed returns the type symbols called name in a scope.
func (m *merger) typesNamed(scope, name string) []analyze.SymID {
	var out []analyze.SymID
	for _, id := range m.top[scope][name] {
		if m.facts.Symbols[id].Kind.IsType() {
			out = append(out, id)
		}
	}
	return out
}

// resolve binds a raw reference to symbols, or drops it.
func (m *merger) resolve(r *rawRef) {
	from, ok := m.ids[r.from]
	if !ok {
		return
	}
	switch {
	case r.member && r.recvType != "":
		m.resolveMember(from, r)
	case r.member:
		m.resolveByName(from, r)
	default:
		scope := r.scope
		switch {
		case r.qualPath != "":
			scope = m.importScope[r.qualPath]
		case r.qual != "":
			scope = m.importedScope(r.file, r.qual)
		}
		if scope == "" {
			return
		}
		cands := m.top[scope][r.name]
		if r.kind == analyze.EdgeEmbeds {
			cands = m.typesNamed(scope, r.name)
		}
		if len(cands) > maxByName {
			return
		}
		for _, to := range cands {
			m.link(from, to, r.kind, r.exactScope && len(cands) == 1, r.line)
		}
	}
}

// resolveMember looks a member up on the type a selector's receiver was
// declared with, through at most one field; failing that, a call falls
// back to matching by name.
func (m *merger) resolveMember(from analyze.SymID, r *rawRef) {
	scope, typ := r.scope, r.recvType
	if r.recvQual != "" {
		scope = m.importedScope(r.file, r.recvQual)
	}
	if scope != "" && r.field != "" {
		fid, ok := m.fields[memberKey{scope, typ, r.field}]
		if !ok {
			scope = ""
		} else {
			frec := m.recs[fid]
			scope, typ = frec.scope, frec.ftype.name
			if frec.ftype.qual != "" {
				scope = m.importedScope(frec.file, frec.ftype.qual)
			}
		}
	}
	if scope != "" && typ != "" {
		if id, ok := m.methods[memberKey{scope, typ, r.name}]; ok {
			m.link(from, id, r.kind, false, r.line)
			return
		}
		if id, ok := m.fields[memberKey{scope, typ, r.name}]; ok {
			m.link(from, id, analyze.EdgeReferences, false, r.line)
			return
		}
	}
	if r.kind == analyze.EdgeCalls {
		m.resolveByName(from, r)
	}
}

// resolveByName links a method call on a value of unknown type to the
// methods of that name, preferring those whose receiver type is declared
// in the calling package or a package the file imports, and dropping the
// call when more than maxByName candidates remain.
func (m *merger) resolveByName(from analyze.SymID, r *rawRef) {
	cands := m.byName[r.name]
	if len(cands) == 0 {
		return
	}
	imported := m.importedScopes(r.file)
	var pref []analyze.SymID
	for _, id := range cands {
		if sc := m.recs[id].scope; sc == r.scope || slices.Contains(imported, sc) {
			pref = append(pref, id)
		}
	}
	if len(pref) > 0 {
		cands = pref
	}
	if len(cands) > maxByName {
		return
	}
	for _, to := range cands {
		m.link(from, to, analyze.EdgeCalls, false, r.line)
	}
}

// link adds an edge, demoting a "call" of something that is not callable
// (a conversion, a function-typed variable) to a reference.
func (m *merger) link(from, to analyze.SymID, kind analyze.EdgeKind, exact bool, line int) {
	if kind == analyze.EdgeCalls && !m.facts.Symbols[to].Kind.IsCallable() {
		kind = analyze.EdgeReferences
	}
	m.facts.AddEdge(analyze.Edge{From: from, To: to, Kind: kind, Exact: exact, Line: line})
}

// importedScope is the scope of the repository package that file imports
// under the name qual, or "".
func (m *merger) importedScope(file, qual string) string {
	for _, im := range m.fileImports[file] {
		name := im.name
		scope := m.importScope[im.path]
		if name == "" {
			if scope != "" {
				name = m.scopes[scope].pkgName
			} else {
				name = guessPkgName(im.path)
			}
		}
		if name == qual {
			return scope
		}
	}
	return ""
}

// importedScopes lists the scopes of the repository packages file imports.
func (m *merger) importedScopes(file string) []string {
	if s, ok := m.importedCache[file]; ok {
		return s
	}
	var out []string
	for _, im := range m.fileImports[file] {
		if s := m.importScope[im.path]; s != "" {
			out = append(out, s)
		}
	}
	m.importedCache[file] = out
	return out
}
