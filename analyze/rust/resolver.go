package rust

import (
	"fmt"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/cargo"
)

// fileData is one parsed file during resolution.
type fileData struct {
	path   string
	syn    *fileSyntax
	base   analyze.SymID // SymID of its first item; items map to consecutive IDs
	mod    *module
	inline map[int32]*module // inline mod item index → module
	crate  *crateInfo
	orphan bool
}

// resolver links the per-file syntax into one graph. It runs on one
// goroutine, except for the reference phase, where each worker has its
// own copy (parallel.go).
type resolver struct {
	facts    *analyze.Facts
	rootName string
	workers  int // goroutines resolving references
	files    []*fileData
	fileIdx  map[string]int
	useRefs  []*useRef // every module-level use declaration, in file order

	crates         []*crateInfo
	cratesByPkgDir map[string][]*crateInfo
	libByName      map[string]*crateInfo
	pkgByName      map[string]*cargo.Package
	pseudos        map[string]*crateInfo // pseudo crates by directory

	symMod        []*module // module that contains each symbol
	members       map[analyze.SymID]map[string][]analyze.SymID
	fields        map[analyze.SymID]map[string]analyze.SymID
	supertraits   map[analyze.SymID][]analyze.SymID
	implSelf      map[analyze.SymID][]analyze.SymID // impl → its self types
	implTraits    map[analyze.SymID][]analyze.SymID // impl → the trait it implements
	traitsOf      map[analyze.SymID][]analyze.SymID // type → traits implemented for it
	methodsByName map[string][]analyze.SymID
	aliasCache    map[analyze.SymID][]analyze.SymID
	imports       []map[string]int // per file: module path → first line

	// A worker's own state in the reference phase; the main resolver's
	// before it (externMemo nil: extern crates are memoised in crateInfo).
	active     map[lookupKey]bool
	externMemo map[externKey]*crateInfo
	testScopes map[*module]map[string][]analyze.SymID // testScope's, by module
	sink       []analyze.Edge                         // the edges of the file being resolved
}

func newResolver(facts *analyze.Facts, rootName string) *resolver {
	return &resolver{
		facts:          facts,
		rootName:       rootName,
		fileIdx:        map[string]int{},
		cratesByPkgDir: map[string][]*crateInfo{},
		libByName:      map[string]*crateInfo{},
		pkgByName:      map[string]*cargo.Package{},
		pseudos:        map[string]*crateInfo{},
		members:        map[analyze.SymID]map[string][]analyze.SymID{},
		fields:         map[analyze.SymID]map[string]analyze.SymID{},
		supertraits:    map[analyze.SymID][]analyze.SymID{},
		implSelf:       map[analyze.SymID][]analyze.SymID{},
		implTraits:     map[analyze.SymID][]analyze.SymID{},
		traitsOf:       map[analyze.SymID][]analyze.SymID{},
		methodsByName:  map[string][]analyze.SymID{},
		aliasCache:     map[analyze.SymID][]analyze.SymID{},
		active:         map[lookupKey]bool{},
	}
}

func (r *resolver) problemf(kind analyze.ProblemKind, p string, line int, format string, args ...any) {
	r.facts.Problems = append(r.facts.Problems, analyze.Problem{Kind: kind, Path: p, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// addFile records a parsed file and its items as symbols. Files must be
// added in path order; FileIDs equal their index in r.files.
func (r *resolver) addFile(f analyze.File, syn *fileSyntax) {
	fi := len(r.files)
	r.facts.AddFile(f)
	fd := &fileData{path: f.Path, syn: syn, base: analyze.SymID(len(r.facts.Symbols))}
	r.files = append(r.files, fd)
	r.fileIdx[f.Path] = fi
	for _, it := range syn.items {
		parent := analyze.NoSym
		if it.parent >= 0 {
			parent = fd.base + analyze.SymID(it.parent)
		}
		r.facts.AddSymbol(analyze.Symbol{
			Name:      it.name,
			Container: it.container,
			Kind:      it.kind,
			File:      analyze.FileID(fi),
			Start:     it.start,
			End:       it.end,
			DeclLine:  it.decl,
			Doc:       it.doc,
			Signature: it.sig,
			Exported:  it.exported,
			Test:      it.test || it.cfgTest,
			Parent:    parent,
		})
	}
}

// itemOf returns the syntax item behind symbol s.
func (r *resolver) itemOf(s analyze.SymID) *item {
	fd := r.files[r.facts.Symbols[s].File]
	return &fd.syn.items[s-fd.base]
}

// declare puts every file's items, uses and macros into its modules.
func (r *resolver) declare() {
	r.symMod = make([]*module, len(r.facts.Symbols))
	for fi, fd := range r.files {
		if fd.mod == nil {
			continue
		}
		items := fd.syn.items
		for idx := range items {
			it := &items[idx]
			s := fd.base + analyze.SymID(idx)
			m := fd.mod
			if it.mod >= 0 {
				if im := fd.inline[it.mod]; im != nil {
					m = im
				}
			}
			r.symMod[s] = m
			topLevel := it.parent < 0 || items[it.parent].kind == analyze.KindModule
			switch {
			case it.kind == analyze.KindMacro:
				fd.crate.macros[it.name] = append(fd.crate.macros[it.name], s)
				if it.macroExport {
					fd.crate.exported[it.name] = append(fd.crate.exported[it.name], s)
				}
			case topLevel && it.kind != analyze.KindModule && it.kind != analyze.KindImpl:
				m.items[it.name] = append(m.items[it.name], s)
			}
		}
		for _, u := range fd.syn.uses {
			m := fd.mod
			if u.mod >= 0 {
				if im := fd.inline[u.mod]; im != nil {
					m = im
				}
			}
			ur := &useRef{u: u, from: m, file: fi}
			r.useRefs = append(r.useRefs, ur)
			switch {
			case u.glob:
				m.globs = append(m.globs, ur)
			case u.alias != "_" && len(u.path) > 0:
				m.uses[u.alias] = append(m.uses[u.alias], ur)
			}
		}
	}
}

// scopeFor returns the scope in which item idx of fd resolves its paths.
func (r *resolver) scopeFor(fd *fileData, idx int) *scope {
	items := fd.syn.items
	it := &items[idx]
	s := fd.base + analyze.SymID(idx)
	sc := &scope{mod: r.symMod[s], uses: it.uses, locals: it.locals}
	if sc.mod == nil {
		sc.mod = fd.mod
	}
	// Generic parameters: outermost first, so that inner ones shadow.
	var chain []int
	for p := idx; p >= 0; p = int(items[p].parent) {
		chain = append(chain, p)
		if len(chain) > 64 {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		sc.generics = append(sc.generics, items[p].generics...)
		ps := fd.base + analyze.SymID(p)
		switch items[p].kind {
		case analyze.KindImpl:
			sc.selfTypes = r.implSelf[ps]
		case analyze.KindTrait, analyze.KindStruct, analyze.KindEnum, analyze.KindUnion:
			sc.selfTypes = []analyze.SymID{ps}
		}
	}
	return sc
}

// index resolves impl headers and builds the member tables: methods and
// associated items by self type and trait, variants by enum, fields by
// struct, supertraits, and methods by name.
func (r *resolver) index() {
	for _, fd := range r.files {
		if fd.mod == nil {
			continue
		}
		for idx := range fd.syn.items {
			it := &fd.syn.items[idx]
			if it.kind != analyze.KindImpl {
				continue
			}
			s := fd.base + analyze.SymID(idx)
			sc := r.scopeFor(fd, idx)
			var self []analyze.SymID
			if !(len(it.implType) == 1 && sc.generic(it.implType[0]) != nil) {
				self = r.typesOf(&scope{mod: sc.mod, generics: sc.generics}, it.implType)
			}
			r.implSelf[s] = self
			if it.implTrait != nil {
				var traits []analyze.SymID
				for _, t := range r.resolve(&scope{mod: sc.mod, generics: sc.generics}, it.implTrait).syms {
					if r.facts.Symbols[t].Kind == analyze.KindTrait {
						traits = append(traits, t)
					}
				}
				r.implTraits[s] = traits
				for _, t := range self {
					r.traitsOf[t] = append(r.traitsOf[t], traits...)
				}
			}
		}
	}
	for fi := range r.files {
		fd := r.files[fi]
		items := fd.syn.items
		for idx := range items {
			it := &items[idx]
			s := fd.base + analyze.SymID(idx)
			if it.kind == analyze.KindMethod {
				r.methodsByName[it.name] = append(r.methodsByName[it.name], s)
			}
			if it.kind == analyze.KindTrait && fd.mod != nil {
				sc := r.scopeFor(fd, idx)
				for _, rf := range it.refs {
					if rf.kind != refType || (len(rf.path) == 1 && sc.generic(rf.path[0]) != nil) {
						continue
					}
					for _, t := range r.resolve(sc, rf.path).syms {
						if t != s && r.facts.Symbols[t].Kind == analyze.KindTrait && !containsSym(r.supertraits[s], t) {
							r.supertraits[s] = append(r.supertraits[s], t)
						}
					}
				}
			}
			if it.parent < 0 {
				continue
			}
			p := fd.base + analyze.SymID(it.parent)
			switch items[it.parent].kind {
			case analyze.KindImpl:
				for _, t := range r.implSelf[p] {
					r.addMember(t, it.name, s)
				}
			case analyze.KindTrait:
				r.addMember(p, it.name, s)
			case analyze.KindEnum:
				if it.kind == analyze.KindVariant {
					r.addMember(p, it.name, s)
				}
			case analyze.KindStruct, analyze.KindUnion, analyze.KindVariant:
				if it.kind == analyze.KindField {
					if r.fields[p] == nil {
						r.fields[p] = map[string]analyze.SymID{}
					}
					r.fields[p][it.name] = s
				}
			}
		}
	}
}

func (r *resolver) addMember(t analyze.SymID, name string, s analyze.SymID) {
	m := r.members[t]
	if m == nil {
		m = map[string][]analyze.SymID{}
		r.members[t] = m
	}
	m[name] = append(m[name], s)
}

// owners returns the types a method or associated item belongs to: the
// self types of its impl, or its trait.
func (r *resolver) owners(s analyze.SymID) []analyze.SymID {
	p := r.facts.Symbols[s].Parent
	if p == analyze.NoSym {
		return nil
	}
	switch r.facts.Symbols[p].Kind {
	case analyze.KindImpl:
		return r.implSelf[p]
	case analyze.KindTrait:
		return []analyze.SymID{p}
	}
	return nil
}

// isTestCode reports whether s is test code: a test function, anything
// under #[cfg(test)], or anything in an integration test crate.
func (r *resolver) isTestCode(s analyze.SymID) bool {
	if r.facts.Symbols[s].Test {
		return true
	}
	fd := r.files[r.facts.Symbols[s].File]
	if fd.crate != nil && fd.crate.test {
		return true
	}
	m := r.symMod[s]
	return m != nil && m.cfgTest
}
