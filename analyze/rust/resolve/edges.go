package resolve

import (
	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/cargo"
)

// maxAmbiguous is how many candidates a method call matched by name alone
// may link to before it is dropped as too ambiguous.
const maxAmbiguous = 3

// commonMethods are names that the standard library's types use so often
// that a call matched by name alone says nothing (x.len(), it.next()).
// They link only when the receiver's type is known or a candidate's type
// is in scope of the calling file.
var commonMethods = map[string]bool{
	"new": true, "default": true, "clone": true, "to_string": true, "to_owned": true, "into": true, "from": true,
	"as_ref": true, "as_mut": true, "borrow": true, "borrow_mut": true, "iter": true, "iter_mut": true,
	"into_iter": true, "map": true, "and_then": true, "ok_or": true, "ok_or_else": true, "ok": true, "err": true,
	"unwrap": true, "expect": true, "unwrap_or": true, "unwrap_or_else": true, "unwrap_or_default": true,
	"len": true, "is_empty": true, "get": true, "get_mut": true, "insert": true, "remove": true, "push": true,
	"pop": true, "contains": true, "contains_key": true, "extend": true, "collect": true, "filter": true,
	"fold": true, "next": true, "as_str": true, "as_bytes": true, "trim": true, "split": true, "join": true,
	"eq": true, "ne": true, "cmp": true, "partial_cmp": true, "hash": true, "fmt": true, "write": true,
	"write_str": true, "write_all": true, "read": true, "flush": true, "lock": true, "send": true, "recv": true,
	"poll": true, "clear": true, "drain": true, "take": true, "replace": true, "set": true, "entry": true,
	"or_insert": true, "sort": true, "to_vec": true, "first": true, "last": true, "keys": true, "values": true,
	"chars": true, "bytes": true, "parse": true, "max": true, "min": true, "sum": true, "count": true,
	"any": true, "all": true, "find": true, "position": true, "zip": true, "enumerate": true, "rev": true,
	"skip": true, "chain": true, "cloned": true, "copied": true, "map_err": true, "is_some": true,
	"is_none": true, "is_ok": true, "is_err": true, "as_deref": true, "run": true, "call": true,
	"build": true, "wait": true, "close": true, "open": true, "start": true, "stop": true, "with": true,
	"load": true, "store": true, "fetch_add": true, "fetch_sub": true, "swap": true, "deref": true,
	"deref_mut": true, "drop": true, "await": true, "spawn": true, "apply": true, "size": true, "value": true,
	"name": true, "kind": true, "id": true, "reset": true, "update": true, "add": true, "sub": true,
}

// structural adds the edges the declarations themselves make: members to
// their types, fields and variants from their types, impl blocks between
// types and traits, and trait impl methods to the trait methods they
// implement.
func (r *resolver) structural() {
	for s := range r.facts.Symbols {
		sid := analyze.SymID(s)
		sym := &r.facts.Symbols[s]
		if sym.Kind == analyze.KindImpl {
			self, traits := r.implSelf[sid], r.implTraits[sid]
			exact := len(self) == 1 && len(traits) == 1
			for _, t := range self {
				for _, tr := range traits {
					line := 0
					if r.facts.Symbols[t].File == sym.File {
						line = sym.DeclLine
					}
					r.facts.AddEdge(analyze.Edge{From: t, To: tr, Kind: analyze.EdgeImplements, Exact: exact, Line: line})
				}
			}
			continue
		}
		if sym.Parent == analyze.NoSym {
			continue
		}
		p := sym.Parent
		switch r.facts.Symbols[p].Kind {
		case analyze.KindImpl:
			self := r.implSelf[p]
			for _, t := range self {
				r.facts.AddEdge(analyze.Edge{From: sid, To: t, Kind: analyze.EdgeMethodOf, Exact: len(self) == 1})
			}
			for _, tr := range r.implTraits[p] {
				for _, tm := range r.members[tr][sym.Name] {
					if r.facts.Symbols[tm].Kind == sym.Kind {
						r.facts.AddEdge(analyze.Edge{From: sid, To: tm, Kind: analyze.EdgeImplements, Exact: true, Line: sym.DeclLine})
					}
				}
			}
		case analyze.KindTrait:
			r.facts.AddEdge(analyze.Edge{From: sid, To: p, Kind: analyze.EdgeMethodOf, Exact: true})
		case analyze.KindStruct, analyze.KindUnion, analyze.KindEnum, analyze.KindVariant:
			if sym.Kind == analyze.KindField || sym.Kind == analyze.KindVariant {
				r.facts.AddEdge(analyze.Edge{From: p, To: sid, Kind: analyze.EdgeField, Exact: true})
			}
		}
	}
}

// fileRefs is what resolving one file's references gathered.
type fileRefs struct {
	fd      *fileData
	fi      int
	types   map[analyze.SymID]bool // types declared in or mentioned by the file
	methods []pendingMethod
}

type pendingMethod struct {
	from analyze.SymID
	sc   *scope
	rf   *Ref
}

func (r *resolver) fileReferences(fi int, fd *fileData) {
	fr := &fileRefs{fd: fd, fi: fi, types: map[analyze.SymID]bool{}}
	r.imports[fi] = map[string]int{}
	for _, t := range r.useImports(fi, fd) {
		if r.facts.Symbols[t].Kind.IsType() {
			fr.types[t] = true
		}
	}
	for idx := range fd.syn.Items {
		it := &fd.syn.Items[idx]
		s := fd.base + analyze.SymID(idx)
		if r.facts.Symbols[s].Kind.IsType() {
			fr.types[s] = true
		}
		if it.Kind == analyze.KindImpl {
			for _, t := range r.implSelf[s] {
				fr.types[t] = true
			}
		}
		if len(it.Refs) == 0 && len(it.Uses) == 0 {
			continue
		}
		sc := r.scopeFor(fd, idx)
		for _, u := range it.Uses {
			r.importUse(fi, sc.mod, r.resolveUsePath(&scope{mod: sc.mod}, u), u)
		}
		for k := range it.Refs {
			rf := &it.Refs[k]
			if rf.Kind == RefMethod {
				fr.methods = append(fr.methods, pendingMethod{from: s, sc: sc, rf: rf})
				continue
			}
			r.pathRef(fr, s, sc, rf)
		}
	}
	for _, pm := range fr.methods {
		r.methodRef(fr, pm.from, pm.sc, pm.rf)
	}
}

// pathRef resolves a path reference (type, call, value or macro).
func (r *resolver) pathRef(fr *fileRefs, from analyze.SymID, sc *scope, rf *Ref) {
	if rf.Kind == RefMacro {
		r.macroRef(from, sc, rf)
		return
	}
	if len(rf.Path) == 1 && (rf.Path[0] == "_" || sc.generic(rf.Path[0]) != nil) {
		return
	}
	res := r.resolve(sc, rf.Path)
	line := int(rf.Line)
	targets := res.syms
	if rf.Kind == RefType {
		var types []analyze.SymID
		for _, t := range targets {
			if k := r.facts.Symbols[t].Kind; k.IsType() || k == analyze.KindAssocType {
				types = append(types, t)
			}
		}
		if len(types) > 0 {
			targets = types
		}
	}
	exact := len(targets) == 1
	for _, t := range targets {
		kind := analyze.EdgeReferences
		if rf.Kind == RefCall && r.facts.Symbols[t].Kind.IsCallable() {
			kind = analyze.EdgeCalls
		}
		r.addEdge(analyze.Edge{From: from, To: t, Kind: kind, Exact: exact, Line: line})
		if rf.Kind == RefType && r.facts.Symbols[from].Kind == analyze.KindField {
			// A struct mentions the types of its fields.
			if p := r.facts.Symbols[from].Parent; p != analyze.NoSym {
				r.addEdge(analyze.Edge{From: p, To: t, Kind: analyze.EdgeReferences, Exact: exact, Line: line})
			}
		}
		if k := r.facts.Symbols[t].Kind; k.IsType() {
			fr.types[t] = true
		}
		if len(rf.Path) > 1 {
			r.importSym(fr.fi, t, line)
		}
	}
	for _, v := range res.via {
		r.addEdge(analyze.Edge{From: from, To: v, Kind: analyze.EdgeReferences, Exact: true, Line: line})
		fr.types[v] = true
	}
	if len(rf.Path) > 1 && len(targets) == 0 {
		for _, m := range res.mods {
			r.importMod(fr.fi, m.path, line)
		}
	}
}

// macroRef links a macro invocation to its macro_rules! definition: by
// path for crate::name! and dep::name!, otherwise by name within the
// crate (macro_rules! scoping is textual; any definition of that name in
// the crate is taken), then among #[macro_export] macros of other crates.
func (r *resolver) macroRef(from analyze.SymID, sc *scope, rf *Ref) {
	name := rf.Path[len(rf.Path)-1]
	var targets []analyze.SymID
	c := sc.mod.crate
	if len(rf.Path) > 1 {
		first := rf.Path[0]
		switch first {
		case "crate", "$crate", "self", "super":
			targets = c.exported[name]
			if len(targets) == 0 {
				targets = c.macros[name]
			}
		default:
			if ext := r.externCrate(c, first); ext != nil {
				targets = ext.exported[name]
			}
		}
	} else {
		targets = c.macros[name]
		if len(targets) == 0 && c.target != nil && c.target.Kind != cargo.Lib {
			if lib := r.externCrate(c, c.name); lib != nil {
				targets = lib.exported[name]
			}
		}
		if len(targets) == 0 {
			for dep := range c.pkg.Deps {
				if ext := r.externCrate(c, dep); ext != nil {
					targets = append(targets, ext.exported[name]...)
				}
			}
		}
	}
	for _, t := range targets {
		r.addEdge(analyze.Edge{From: from, To: t, Kind: analyze.EdgeMacro, Exact: len(targets) == 1, Line: int(rf.Line)})
	}
}

// methodRef links recv.name(…): through the receiver's type when the syntax
// shows it (self, a typed parameter or local, a field of those), else by
// name among the methods whose type the file mentions, else by a unique
// name in the whole load. Calls matched by name are never exact.
func (r *resolver) methodRef(fr *fileRefs, from analyze.SymID, sc *scope, rf *Ref) {
	name := rf.Path[0]
	line := int(rf.Line)
	if rf.Recv != nil {
		if types, known := r.recvTypes(sc, rf.Recv); known {
			cands := r.methodsOn(types, name)
			for _, c := range cands {
				r.addEdge(analyze.Edge{From: from, To: c, Kind: analyze.EdgeCalls, Exact: len(cands) == 1, Line: line})
			}
			return // the type is known; a method it lacks is not ours (std, derive)
		}
	}
	cands := r.methodsByName[name]
	if len(cands) == 0 || commonMethods[name] {
		return // none, or too common to mean anything without the receiver's type
	}
	var sel []analyze.SymID
	for _, c := range cands {
		for _, o := range r.owners(c) {
			if fr.types[o] {
				sel = append(sel, c)
				break
			}
		}
		if len(sel) > 64 {
			return // far too many to be collapsed into one trait method
		}
	}
	if len(sel) == 0 {
		// No candidate's type is in scope: only a name unique in the
		// caller's own crate is taken.
		sel = r.collapseTraitFamily(cands)
		if len(sel) != 1 || r.symMod[sel[0]] == nil || r.symMod[from] == nil || r.symMod[sel[0]].crate != r.symMod[from].crate {
			return
		}
	}
	sel = r.collapseTraitFamily(sel)
	if len(sel) == 0 || len(sel) > maxAmbiguous {
		return
	}
	for _, c := range sel {
		r.addEdge(analyze.Edge{From: from, To: c, Kind: analyze.EdgeCalls, Exact: false, Line: line})
	}
}

// collapseTraitFamily replaces a trait method together with the impl
// methods that implement it by the trait method alone: a call by name to
// one of them is a call through the trait.
func (r *resolver) collapseTraitFamily(cands []analyze.SymID) []analyze.SymID {
	if len(cands) < 2 {
		return cands
	}
	var traitMethods []analyze.SymID
	for _, c := range cands {
		if p := r.facts.Symbols[c].Parent; p != analyze.NoSym && r.facts.Symbols[p].Kind == analyze.KindTrait {
			traitMethods = append(traitMethods, c)
		}
	}
	if len(traitMethods) == 0 {
		return cands
	}
	out := append([]analyze.SymID(nil), traitMethods...)
	for _, c := range cands {
		if containsSym(traitMethods, c) {
			continue
		}
		implemented := false
		if p := r.facts.Symbols[c].Parent; p != analyze.NoSym {
			for _, tr := range r.implTraits[p] {
				for _, tm := range traitMethods {
					if r.facts.Symbols[tm].Parent == tr {
						implemented = true
					}
				}
			}
		}
		if !implemented {
			out = append(out, c)
		}
	}
	return out
}
