package extract

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

// Merger builds one analyze.Facts from the per-package results on a single
// goroutine: it numbers files and symbols, indexes declarations by scope
// and name, and resolves what extraction left as raw references.
type Merger struct {
	facts *analyze.Facts
	ids   map[Key]analyze.SymID
	recs  []*SymRec // by SymID

	fileIDs     map[string]analyze.FileID
	fileImports map[string][]ImportRec
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

// NewMerger returns a merger that adds to facts.
func NewMerger(facts *analyze.Facts) *Merger {
	return &Merger{
		facts:         facts,
		ids:           make(map[Key]analyze.SymID),
		fileIDs:       make(map[string]analyze.FileID),
		fileImports:   make(map[string][]ImportRec),
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

// Merge folds the results into the facts.
func (m *Merger) Merge(results []*Result) {
	sort.SliceStable(results, func(i, j int) bool { return resultKey(results[i]) < resultKey(results[j]) })
	for _, r := range results {
		m.addScope(r)
	}
	for _, r := range results {
		m.addFiles(r)
	}
	for _, r := range results {
		for i := range r.Syms {
			m.addSymbol(&r.Syms[i])
		}
	}
	m.index()
	m.linkParents()
	for _, r := range results {
		for _, e := range r.Edges {
			from, ok1 := m.ids[e.From]
			to, ok2 := m.ids[e.To]
			if ok1 && e.Kind == analyze.EdgeEmbeds {
				m.embedding[from] = true
			}
			if ok1 && ok2 {
				m.facts.AddEdge(analyze.Edge{From: from, To: to, Kind: e.Kind, Exact: e.Exact, Line: e.Line})
			}
		}
	}
	for _, r := range results {
		for i := range r.Raws {
			if r.Raws[i].Kind == analyze.EdgeEmbeds {
				if from, ok := m.ids[r.Raws[i].From]; ok {
					m.embedding[from] = true
				}
			}
			m.resolve(&r.Raws[i])
		}
	}
	var msets []MethodSet
	for _, r := range results {
		msets = append(msets, r.MethodSets...)
	}
	m.implements(msets)
	m.testEdges()
	for _, r := range results {
		m.facts.Problems = append(m.facts.Problems, r.Problems...)
	}
}

func resultKey(r *Result) string {
	if len(r.Files) > 0 {
		return r.Files[0].File.Path + "\x00" + r.Scope
	}
	return "\xff" + r.Scope
}

func (m *Merger) addScope(r *Result) {
	if _, ok := m.scopes[r.Scope]; !ok {
		m.scopes[r.Scope] = &scopeInfo{importPath: r.ImportPath, pkgName: r.PkgName, dir: r.Dir}
		m.dirScopes[r.Dir] = append(m.dirScopes[r.Dir], r.Scope)
	}
	if r.ImportPath != "" && !strings.HasSuffix(r.PkgName, "_test") {
		if _, ok := m.importScope[r.ImportPath]; !ok {
			m.importScope[r.ImportPath] = r.Scope
		}
	}
}

func (m *Merger) addFiles(r *Result) {
	for _, fr := range r.Files {
		if _, dup := m.fileIDs[fr.File.Path]; dup {
			continue
		}
		id := m.facts.AddFile(fr.File)
		m.fileIDs[fr.File.Path] = id
		m.fileImports[fr.File.Path] = fr.Imports
		for _, im := range fr.Imports {
			m.facts.Imports = append(m.facts.Imports, analyze.Import{File: id, Path: im.Path, Line: im.Line})
		}
	}
}

func (m *Merger) addSymbol(rec *SymRec) {
	fid, ok := m.fileIDs[rec.File]
	if !ok {
		return
	}
	if _, dup := m.ids[rec.Key]; dup {
		return
	}
	s := rec.Sym
	s.File = fid
	s.Parent = analyze.NoSym
	id := m.facts.AddSymbol(s)
	m.ids[rec.Key] = id
	m.recs = append(m.recs, rec)
}

func (m *Merger) index() {
	for i, rec := range m.recs {
		id := analyze.SymID(i)
		s := &rec.Sym
		switch {
		case s.Kind == analyze.KindMethod && s.Container != "":
			k := memberKey{rec.Scope, s.Container, s.Name}
			if _, ok := m.methods[k]; !ok {
				m.methods[k] = id
			}
			m.byName[s.Name] = append(m.byName[s.Name], id)
		case s.Kind == analyze.KindField:
			k := memberKey{rec.Scope, s.Container, s.Name}
			if _, ok := m.fields[k]; !ok {
				m.fields[k] = id
			}
		default:
			names := m.top[rec.Scope]
			if names == nil {
				names = make(map[string][]analyze.SymID)
				m.top[rec.Scope] = names
			}
			names[s.Name] = append(names[s.Name], id)
		}
	}
}

// linkParents sets the Parent of fields and interface methods (known by
// key) and of methods (their receiver type, found by name in the package
// scope), adding the method_of edges of concrete methods.
func (m *Merger) linkParents() {
	for i, rec := range m.recs {
		id := analyze.SymID(i)
		s := &m.facts.Symbols[id]
		if rec.Parent.valid() {
			if p, ok := m.ids[rec.Parent]; ok {
				s.Parent = p
			}
			continue
		}
		if s.Kind != analyze.KindMethod || s.Container == "" {
			continue
		}
		types := m.typesNamed(rec.Scope, s.Container)
		if len(types) == 0 {
			continue
		}
		s.Parent = types[0]
		m.facts.AddEdge(analyze.Edge{From: id, To: types[0], Kind: analyze.EdgeMethodOf, Exact: len(types) == 1, Line: s.DeclLine})
	}
}

// typesNamed returns the type symbols called name in a scope.
func (m *Merger) typesNamed(scope, name string) []analyze.SymID {
	var out []analyze.SymID
	for _, id := range m.top[scope][name] {
		if m.facts.Symbols[id].Kind.IsType() {
			out = append(out, id)
		}
	}
	return out
}

// resolve binds a raw reference to symbols, or drops it.
func (m *Merger) resolve(r *RawRef) {
	from, ok := m.ids[r.From]
	if !ok {
		return
	}
	switch {
	case r.Member && r.RecvType != "":
		m.resolveMember(from, r)
	case r.Member:
		m.resolveByName(from, r)
	default:
		scope := r.Scope
		switch {
		case r.QualPath != "":
			scope = m.importScope[r.QualPath]
		case r.Qual != "":
			scope = m.importedScope(r.File, r.Qual)
		}
		if scope == "" {
			return
		}
		cands := m.top[scope][r.Name]
		if r.Kind == analyze.EdgeEmbeds {
			cands = m.typesNamed(scope, r.Name)
		}
		if len(cands) > maxByName {
			return
		}
		for _, to := range cands {
			m.link(from, to, r.Kind, r.ExactScope && len(cands) == 1, r.Line)
		}
	}
}

// resolveMember looks a member up on the type a selector's receiver was
// declared with, through at most one field; failing that, a call falls
// back to matching by name.
func (m *Merger) resolveMember(from analyze.SymID, r *RawRef) {
	scope, typ := r.Scope, r.RecvType
	if r.RecvQual != "" {
		scope = m.importedScope(r.File, r.RecvQual)
	}
	if scope != "" && r.Field != "" {
		fid, ok := m.fields[memberKey{scope, typ, r.Field}]
		if !ok {
			scope = ""
		} else {
			frec := m.recs[fid]
			scope, typ = frec.Scope, frec.FieldType.Name
			if frec.FieldType.Qual != "" {
				scope = m.importedScope(frec.File, frec.FieldType.Qual)
			}
		}
	}
	if scope != "" && typ != "" {
		if id, ok := m.methods[memberKey{scope, typ, r.Name}]; ok {
			m.link(from, id, r.Kind, false, r.Line)
			return
		}
		if id, ok := m.fields[memberKey{scope, typ, r.Name}]; ok {
			m.link(from, id, analyze.EdgeReferences, false, r.Line)
			return
		}
	}
	if r.Kind == analyze.EdgeCalls {
		m.resolveByName(from, r)
	}
}

// resolveByName links a method call on a value of unknown type to the
// methods of that name, preferring those whose receiver type is declared
// in the calling package or a package the file imports, and dropping the
// call when more than maxByName candidates remain.
func (m *Merger) resolveByName(from analyze.SymID, r *RawRef) {
	cands := m.byName[r.Name]
	if len(cands) == 0 {
		return
	}
	imported := m.importedScopes(r.File)
	var pref []analyze.SymID
	for _, id := range cands {
		if sc := m.recs[id].Scope; sc == r.Scope || slices.Contains(imported, sc) {
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
		m.link(from, to, analyze.EdgeCalls, false, r.Line)
	}
}

// link adds an edge, demoting a "call" of something that is not callable
// (a conversion, a function-typed variable) to a reference.
func (m *Merger) link(from, to analyze.SymID, kind analyze.EdgeKind, exact bool, line int) {
	if kind == analyze.EdgeCalls && !m.facts.Symbols[to].Kind.IsCallable() {
		kind = analyze.EdgeReferences
	}
	m.facts.AddEdge(analyze.Edge{From: from, To: to, Kind: kind, Exact: exact, Line: line})
}

// importedScope is the scope of the repository package that file imports
// under the name qual, or "".
func (m *Merger) importedScope(file, qual string) string {
	for _, im := range m.fileImports[file] {
		name := im.Name
		scope := m.importScope[im.Path]
		if name == "" {
			if scope != "" {
				name = m.scopes[scope].pkgName
			} else {
				name = GuessPkgName(im.Path)
			}
		}
		if name == qual {
			return scope
		}
	}
	return ""
}

// importedScopes lists the scopes of the repository packages file imports.
func (m *Merger) importedScopes(file string) []string {
	if s, ok := m.importedCache[file]; ok {
		return s
	}
	var out []string
	for _, im := range m.fileImports[file] {
		if s := m.importScope[im.Path]; s != "" {
			out = append(out, s)
		}
	}
	m.importedCache[file] = out
	return out
}
