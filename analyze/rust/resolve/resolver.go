package resolve

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/cargo"
)

// fileData is one parsed file during resolution.
type fileData struct {
	path   string
	syn    *FileSyntax
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
func (r *resolver) addFile(f analyze.File, syn *FileSyntax) {
	fi := len(r.files)
	r.facts.AddFile(f)
	fd := &fileData{path: f.Path, syn: syn, base: analyze.SymID(len(r.facts.Symbols))}
	r.files = append(r.files, fd)
	r.fileIdx[f.Path] = fi
	for _, it := range syn.Items {
		parent := analyze.NoSym
		if it.Parent >= 0 {
			parent = fd.base + analyze.SymID(it.Parent)
		}
		r.facts.AddSymbol(analyze.Symbol{
			Name:      it.Name,
			Container: it.Container,
			Kind:      it.Kind,
			File:      analyze.FileID(fi),
			Start:     it.Start,
			End:       it.End,
			DeclLine:  it.Decl,
			Doc:       it.Doc,
			Signature: it.Sig,
			Exported:  it.Exported,
			Test:      it.Test || it.CfgTest,
			Parent:    parent,
		})
	}
}

// itemOf returns the syntax item behind symbol s.
func (r *resolver) itemOf(s analyze.SymID) *Item {
	fd := r.files[r.facts.Symbols[s].File]
	return &fd.syn.Items[s-fd.base]
}

// declare puts every file's items, uses and macros into its modules.
func (r *resolver) declare() {
	r.symMod = make([]*module, len(r.facts.Symbols))
	for fi, fd := range r.files {
		if fd.mod == nil {
			continue
		}
		items := fd.syn.Items
		for idx := range items {
			it := &items[idx]
			s := fd.base + analyze.SymID(idx)
			m := fd.mod
			if it.Mod >= 0 {
				if im := fd.inline[it.Mod]; im != nil {
					m = im
				}
			}
			r.symMod[s] = m
			topLevel := it.Parent < 0 || items[it.Parent].Kind == analyze.KindModule
			switch {
			case it.Kind == analyze.KindMacro:
				fd.crate.macros[it.Name] = append(fd.crate.macros[it.Name], s)
				if it.MacroExport {
					fd.crate.exported[it.Name] = append(fd.crate.exported[it.Name], s)
				}
			case topLevel && it.Kind != analyze.KindModule && it.Kind != analyze.KindImpl:
				m.items[it.Name] = append(m.items[it.Name], s)
			}
		}
		for _, u := range fd.syn.Uses {
			m := fd.mod
			if u.Mod >= 0 {
				if im := fd.inline[u.Mod]; im != nil {
					m = im
				}
			}
			ur := &useRef{u: u, from: m, file: fi}
			r.useRefs = append(r.useRefs, ur)
			switch {
			case u.Glob:
				m.globs = append(m.globs, ur)
			case u.Alias != "_" && len(u.Path) > 0:
				m.uses[u.Alias] = append(m.uses[u.Alias], ur)
			}
		}
	}
}

// scopeFor returns the scope in which item idx of fd resolves its paths.
func (r *resolver) scopeFor(fd *fileData, idx int) *scope {
	items := fd.syn.Items
	it := &items[idx]
	s := fd.base + analyze.SymID(idx)
	sc := &scope{mod: r.symMod[s], uses: it.Uses, locals: it.Locals}
	if sc.mod == nil {
		sc.mod = fd.mod
	}
	// Generic parameters: outermost first, so that inner ones shadow.
	var chain []int
	for p := idx; p >= 0; p = int(items[p].Parent) {
		chain = append(chain, p)
		if len(chain) > 64 {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		sc.generics = append(sc.generics, items[p].Generics...)
		ps := fd.base + analyze.SymID(p)
		switch items[p].Kind {
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
		for idx := range fd.syn.Items {
			it := &fd.syn.Items[idx]
			if it.Kind != analyze.KindImpl {
				continue
			}
			s := fd.base + analyze.SymID(idx)
			sc := r.scopeFor(fd, idx)
			var self []analyze.SymID
			if !(len(it.ImplType) == 1 && sc.generic(it.ImplType[0]) != nil) {
				self = r.typesOf(&scope{mod: sc.mod, generics: sc.generics}, it.ImplType)
			}
			r.implSelf[s] = self
			if it.ImplTrait != nil {
				var traits []analyze.SymID
				for _, t := range r.resolve(&scope{mod: sc.mod, generics: sc.generics}, it.ImplTrait).syms {
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
		items := fd.syn.Items
		for idx := range items {
			it := &items[idx]
			s := fd.base + analyze.SymID(idx)
			if it.Kind == analyze.KindMethod {
				r.methodsByName[it.Name] = append(r.methodsByName[it.Name], s)
			}
			if it.Kind == analyze.KindTrait && fd.mod != nil {
				sc := r.scopeFor(fd, idx)
				for _, rf := range it.Refs {
					if rf.Kind != RefType || (len(rf.Path) == 1 && sc.generic(rf.Path[0]) != nil) {
						continue
					}
					for _, t := range r.resolve(sc, rf.Path).syms {
						if t != s && r.facts.Symbols[t].Kind == analyze.KindTrait && !containsSym(r.supertraits[s], t) {
							r.supertraits[s] = append(r.supertraits[s], t)
						}
					}
				}
			}
			if it.Parent < 0 {
				continue
			}
			p := fd.base + analyze.SymID(it.Parent)
			switch items[it.Parent].Kind {
			case analyze.KindImpl:
				for _, t := range r.implSelf[p] {
					r.addMember(t, it.Name, s)
				}
			case analyze.KindTrait:
				r.addMember(p, it.Name, s)
			case analyze.KindEnum:
				if it.Kind == analyze.KindVariant {
					r.addMember(p, it.Name, s)
				}
			case analyze.KindStruct, analyze.KindUnion, analyze.KindVariant:
				if it.Kind == analyze.KindField {
					if r.fields[p] == nil {
						r.fields[p] = map[string]analyze.SymID{}
					}
					r.fields[p][it.Name] = s
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

// Resolve adds the parsed files to facts and resolves them with up to
// workers goroutines (0 means GOMAXPROCS). results are only read.
func Resolve(ctx context.Context, facts *analyze.Facts, results []Parsed, pkgs map[string]*cargo.Package, workers int) {
	r := newResolver(facts, facts.Root)
	r.workers = workers
	if r.workers <= 0 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	nFiles, nSyms := 0, 0
	for _, res := range results {
		if res.Syn != nil {
			nFiles++
			nSyms += len(res.Syn.Items)
		}
	}
	facts.Files = slices.Grow(facts.Files, nFiles)
	facts.Symbols = slices.Grow(facts.Symbols, nSyms)
	for _, res := range results {
		facts.Problems = append(facts.Problems, res.Problems...)
		if res.Syn != nil {
			r.addFile(res.File, res.Syn)
		}
	}
	r.run(ctx, pkgs)
}

// run resolves the parsed files. A panic here is a defect of the loader,
// not of the input; it is turned into a problem and the facts gathered so
// far are kept, so that no repository can crash the caller.
func (r *resolver) run(ctx context.Context, pkgs map[string]*cargo.Package) {
	defer func() {
		if v := recover(); v != nil {
			r.facts.Partial = true
			r.problemf(analyze.ProblemLoad, "", 0, "internal error while resolving names, facts are partial (please report): %v", v)
		}
	}()
	r.setupCrates(pkgs)
	r.buildTree()
	r.declare()
	r.describeFiles()
	r.index()
	r.structural()
	if r.references(ctx) {
		r.linkTests(ctx)
	}
	r.emitImports()
}

// describeFiles fills each file's module path and crate name, and hands a
// module file's inner documentation (//!) to the mod item declaring it.
func (r *resolver) describeFiles() {
	for fi, fd := range r.files {
		f := &r.facts.Files[fi]
		if fd.mod == nil {
			continue
		}
		f.Package = fd.mod.path
		f.PkgName = fd.crate.name
		f.Degraded = fd.orphan
		if fd.orphan {
			r.problemf(analyze.ProblemDegraded, fd.path, 0,
				"not reached from any crate root through mod declarations; its module path %s is inferred from its location", fd.mod.path)
		}
		if doc := fd.syn.InnerDoc; doc != "" && fd.mod.decl != analyze.NoSym && !fd.orphan {
			d := &r.facts.Symbols[fd.mod.decl]
			d.Doc = JoinDoc(d.Doc, doc)
		}
	}
}

// Parsed is the outcome of reading one file: its facts, its syntax (nil
// when it could not be read) and the problems reading it found.
type Parsed struct {
	File     analyze.File
	Syn      *FileSyntax
	Problems []analyze.Problem
}
