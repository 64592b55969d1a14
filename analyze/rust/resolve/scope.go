package resolve

import (
	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/cargo"
)

// resolution is what a path names: modules, symbols, or both (a module
// and a function may share a name), plus the types the path went through
// (ServiceError in ServiceError::Storage), which it also mentions.
type resolution struct {
	mods []*module
	syms []analyze.SymID
	via  []analyze.SymID
}

func (r resolution) empty() bool { return len(r.mods) == 0 && len(r.syms) == 0 }

func (r *resolution) merge(o resolution) {
	for _, m := range o.mods {
		if !containsMod(r.mods, m) {
			r.mods = append(r.mods, m)
		}
	}
	for _, s := range o.syms {
		if !containsSym(r.syms, s) {
			r.syms = append(r.syms, s)
		}
	}
}

func containsMod(ms []*module, m *module) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func containsSym(ss []analyze.SymID, s analyze.SymID) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// scope is where a path is resolved: a module, plus for an item inside an
// impl or trait its Self type, its generic parameters, and the use
// declarations of a function body.
type scope struct {
	mod       *module
	selfTypes []analyze.SymID
	generics  []Generic
	uses      []UseDecl
	locals    []Local
}

func (sc *scope) generic(name string) *Generic {
	for i := len(sc.generics) - 1; i >= 0; i-- {
		if sc.generics[i].Name == name {
			return &sc.generics[i]
		}
	}
	return nil
}

// maxLookupDepth bounds chains of re-exports and glob imports.
const maxLookupDepth = 24

type lookupKey struct {
	m    *module
	name string
}

// resolve resolves a path in scope. Paths into crates outside the
// repository (std, dependencies from a registry) resolve to nothing.
func (r *resolver) resolve(sc *scope, segs []string) resolution {
	if len(segs) == 0 {
		return resolution{}
	}
	cur := r.first(sc, segs[0])
	var via []analyze.SymID
	for _, seg := range segs[1:] {
		if cur.empty() {
			break
		}
		for _, s := range cur.syms {
			if r.facts.Symbols[s].Kind.IsType() && !containsSym(via, s) {
				via = append(via, s)
			}
		}
		cur = r.step(cur, seg, 0)
	}
	cur.via = via
	return cur
}

// first resolves the first segment of a path.
func (r *resolver) first(sc *scope, name string) resolution {
	switch name {
	case "crate", "$crate":
		if sc.mod.crate.root != nil {
			return resolution{mods: []*module{sc.mod.crate.root}}
		}
		return resolution{}
	case "self":
		return resolution{mods: []*module{sc.mod}}
	case "super":
		if sc.mod.parent != nil {
			return resolution{mods: []*module{sc.mod.parent}}
		}
		return resolution{}
	case "Self":
		return resolution{syms: append([]analyze.SymID(nil), sc.selfTypes...)}
	}
	if sc.generic(name) != nil {
		return resolution{}
	}
	var res resolution
	if len(sc.uses) > 0 {
		modScope := &scope{mod: sc.mod, selfTypes: sc.selfTypes}
		for _, u := range sc.uses {
			if !u.Glob && u.Alias == name {
				res.merge(r.resolveUsePath(modScope, u))
			}
		}
		if !res.empty() {
			return res
		}
	}
	res = r.lookup(sc.mod, name, 0)
	if !res.empty() {
		return res
	}
	for _, u := range sc.uses {
		if u.Glob {
			g := r.resolveUsePath(&scope{mod: sc.mod}, u)
			res.merge(r.inGlob(g, name, 0))
		}
	}
	if !res.empty() {
		return res
	}
	if c := r.externCrate(sc.mod.crate, name); c != nil && c.root != nil {
		return resolution{mods: []*module{c.root}}
	}
	return resolution{}
}

// resolveUsePath resolves a use declaration's path (extern crate
// declarations name a crate directly).
func (r *resolver) resolveUsePath(sc *scope, u UseDecl) resolution {
	if u.Extern {
		if c := r.externCrate(sc.mod.crate, u.Path[0]); c != nil && c.root != nil {
			return resolution{mods: []*module{c.root}}
		}
		return resolution{}
	}
	return r.resolve(sc, u.Path)
}

// lookup finds name in module m: its submodules, its items, its named
// imports, then its glob imports.
func (r *resolver) lookup(m *module, name string, depth int) resolution {
	var res resolution
	if c, ok := m.children[name]; ok {
		res.mods = append(res.mods, c)
	}
	res.syms = append(res.syms, m.items[name]...)
	for _, u := range m.uses[name] {
		res.merge(r.resolveUse(u))
	}
	if !res.empty() || len(m.globs) == 0 || depth > maxLookupDepth {
		return res
	}
	// Glob imports can form cycles (a re-exports b::*, b re-exports a::*).
	key := lookupKey{m, name}
	if r.active[key] {
		return res
	}
	r.active[key] = true
	for _, g := range m.globs {
		res.merge(r.inGlob(r.resolveUse(g), name, depth+1))
	}
	delete(r.active, key)
	return res
}

// inGlob looks name up in what a glob import names: a module's items, or
// an enum's variants.
func (r *resolver) inGlob(g resolution, name string, depth int) resolution {
	var res resolution
	for _, gm := range g.mods {
		res.merge(r.lookup(gm, name, depth))
	}
	for _, s := range g.syms {
		if r.facts.Symbols[s].Kind == analyze.KindEnum {
			res.syms = append(res.syms, r.memberNamed(s, name, analyze.KindVariant)...)
		}
	}
	return res
}

// resolveUse resolves a module-level use declaration once.
func (r *resolver) resolveUse(u *useRef) resolution {
	switch u.state {
	case 1:
		return resolution{}
	case 2:
		return u.res
	}
	u.state = 1
	u.res = r.resolveUsePath(&scope{mod: u.from}, u.u)
	u.res.via = nil
	u.state = 2
	return u.res
}

// step resolves one more path segment after cur.
func (r *resolver) step(cur resolution, seg string, depth int) resolution {
	var res resolution
	for _, m := range cur.mods {
		switch seg {
		case "super":
			if m.parent != nil {
				res.mods = append(res.mods, m.parent)
			}
		case "self":
			res.mods = append(res.mods, m)
		default:
			res.merge(r.lookup(m, seg, depth))
		}
	}
	for _, s := range cur.syms {
		for _, t := range r.typeTargets(s, 0) {
			res.syms = append(res.syms, r.members[t][seg]...)
			if r.facts.Symbols[t].Kind == analyze.KindTrait {
				for _, sup := range r.supertraits[t] {
					res.syms = append(res.syms, r.members[sup][seg]...)
				}
			}
		}
	}
	res.syms = dedupSyms(res.syms)
	return res
}

// typeTargets returns s itself for a struct, enum, union or trait, and what
// a type alias stands for.
func (r *resolver) typeTargets(s analyze.SymID, depth int) []analyze.SymID {
	sym := &r.facts.Symbols[s]
	switch sym.Kind {
	case analyze.KindStruct, analyze.KindEnum, analyze.KindUnion, analyze.KindTrait:
		return []analyze.SymID{s}
	case analyze.KindTypeAlias:
		if depth > 4 {
			return nil
		}
		if t, ok := r.aliasCache[s]; ok {
			return t
		}
		r.aliasCache[s] = nil
		var out []analyze.SymID
		if typ := r.itemOf(s).Typ; typ != nil && r.symMod[s] != nil {
			for _, t := range r.resolve(&scope{mod: r.symMod[s]}, typ).syms {
				out = append(out, r.typeTargets(t, depth+1)...)
			}
		}
		r.aliasCache[s] = out
		return out
	}
	return nil
}

// memberNamed returns the members of type t called name, of the given
// kind (any kind when kind is KindUnknown).
func (r *resolver) memberNamed(t analyze.SymID, name string, kind analyze.SymbolKind) []analyze.SymID {
	var out []analyze.SymID
	for _, s := range r.members[t][name] {
		if kind == analyze.KindUnknown || r.facts.Symbols[s].Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// externCrate returns the library crate that name refers to from crate c:
// a path dependency, the package's own library (from its binaries, tests,
// examples), or any library of the load with that name.
//
// The answer is memoised in c, or in a worker's own memo in the parallel
// phase, where c is only read.
func (r *resolver) externCrate(c *crateInfo, name string) *crateInfo {
	if x, ok := c.externs[name]; ok {
		return x
	}
	key := externKey{c, name}
	if r.externMemo != nil {
		if x, ok := r.externMemo[key]; ok {
			return x
		}
	}
	var found *crateInfo
	if pkgName, ok := c.pkg.Deps[name]; ok {
		if p := r.pkgByName[pkgName]; p != nil {
			for _, oc := range r.cratesByPkgDir[p.Dir] {
				if oc.target.Kind == cargo.Lib {
					found = oc
					break
				}
			}
		}
	}
	if found == nil {
		for _, oc := range r.cratesByPkgDir[c.pkg.Dir] {
			if oc.target.Kind == cargo.Lib && oc.name == name && oc != c {
				found = oc
				break
			}
		}
	}
	if found == nil {
		if lib := r.libByName[name]; lib != nil && lib != c {
			found = lib
		}
	}
	if r.externMemo != nil {
		r.externMemo[key] = found
	} else {
		c.externs[name] = found
	}
	return found
}

type externKey struct {
	c    *crateInfo
	name string
}

// typesOf returns the types a type path names in scope: a generic
// parameter stands for the traits that bound it; aliases are followed.
func (r *resolver) typesOf(sc *scope, typ []string) []analyze.SymID {
	if len(typ) == 0 {
		return nil
	}
	if len(typ) == 1 {
		if g := sc.generic(typ[0]); g != nil {
			var out []analyze.SymID
			for _, b := range g.Bounds {
				for _, s := range r.resolve(&scope{mod: sc.mod, selfTypes: sc.selfTypes}, b).syms {
					if r.facts.Symbols[s].Kind == analyze.KindTrait {
						out = append(out, s)
					}
				}
			}
			return dedupSyms(out)
		}
	}
	var out []analyze.SymID
	for _, s := range r.resolve(sc, typ).syms {
		out = append(out, r.typeTargets(s, 0)...)
	}
	return dedupSyms(out)
}

// dedupSyms returns ss without repeats, in first-seen order.
func dedupSyms(ss []analyze.SymID) []analyze.SymID {
	if len(ss) < 2 {
		return ss
	}
	out := make([]analyze.SymID, 0, len(ss))
	for _, s := range ss {
		if !containsSym(out, s) {
			out = append(out, s)
		}
	}
	return out
}
