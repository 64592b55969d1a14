package rust

import (
	"context"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
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
	rf   *ref
}

// references resolves every file's references into edges, checking ctx
// between files. It reports whether it finished.
func (r *resolver) references(ctx context.Context) bool {
	r.imports = make([]map[string]int, len(r.files))
	for fi, fd := range r.files {
		if ctx.Err() != nil {
			return false
		}
		if fd.mod == nil {
			continue
		}
		r.fileReferences(fi, fd)
	}
	return true
}

func (r *resolver) fileReferences(fi int, fd *fileData) {
	fr := &fileRefs{fd: fd, fi: fi, types: map[analyze.SymID]bool{}}
	r.imports[fi] = map[string]int{}
	for _, t := range r.useImports(fi, fd) {
		if r.facts.Symbols[t].Kind.IsType() {
			fr.types[t] = true
		}
	}
	for idx := range fd.syn.items {
		it := &fd.syn.items[idx]
		s := fd.base + analyze.SymID(idx)
		if r.facts.Symbols[s].Kind.IsType() {
			fr.types[s] = true
		}
		if it.kind == analyze.KindImpl {
			for _, t := range r.implSelf[s] {
				fr.types[t] = true
			}
		}
		if len(it.refs) == 0 && len(it.uses) == 0 {
			continue
		}
		sc := r.scopeFor(fd, idx)
		for _, u := range it.uses {
			r.importUse(fi, sc.mod, r.resolveUsePath(&scope{mod: sc.mod}, u), u)
		}
		for k := range it.refs {
			rf := &it.refs[k]
			if rf.kind == refMethod {
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
func (r *resolver) pathRef(fr *fileRefs, from analyze.SymID, sc *scope, rf *ref) {
	if rf.kind == refMacro {
		r.macroRef(from, sc, rf)
		return
	}
	if len(rf.path) == 1 && (rf.path[0] == "_" || sc.generic(rf.path[0]) != nil) {
		return
	}
	res := r.resolve(sc, rf.path)
	line := int(rf.line)
	targets := res.syms
	if rf.kind == refType {
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
		if rf.kind == refCall && r.facts.Symbols[t].Kind.IsCallable() {
			kind = analyze.EdgeCalls
		}
		r.facts.AddEdge(analyze.Edge{From: from, To: t, Kind: kind, Exact: exact, Line: line})
		if rf.kind == refType && r.facts.Symbols[from].Kind == analyze.KindField {
			// A struct mentions the types of its fields.
			if p := r.facts.Symbols[from].Parent; p != analyze.NoSym {
				r.facts.AddEdge(analyze.Edge{From: p, To: t, Kind: analyze.EdgeReferences, Exact: exact, Line: line})
			}
		}
		if k := r.facts.Symbols[t].Kind; k.IsType() {
			fr.types[t] = true
		}
		if len(rf.path) > 1 {
			r.importSym(fr.fi, t, line)
		}
	}
	for _, v := range res.via {
		r.facts.AddEdge(analyze.Edge{From: from, To: v, Kind: analyze.EdgeReferences, Exact: true, Line: line})
		fr.types[v] = true
	}
	if len(rf.path) > 1 && len(targets) == 0 {
		for _, m := range res.mods {
			r.importMod(fr.fi, m.path, line)
		}
	}
}

// macroRef links a macro invocation to its macro_rules! definition: by
// path for crate::name! and dep::name!, otherwise by name within the
// crate (macro_rules! scoping is textual; any definition of that name in
// the crate is taken), then among #[macro_export] macros of other crates.
func (r *resolver) macroRef(from analyze.SymID, sc *scope, rf *ref) {
	name := rf.path[len(rf.path)-1]
	var targets []analyze.SymID
	c := sc.mod.crate
	if len(rf.path) > 1 {
		first := rf.path[0]
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
		if len(targets) == 0 && c.target != nil && c.target.kind != kindLib {
			if lib := r.externCrate(c, c.name); lib != nil {
				targets = lib.exported[name]
			}
		}
		if len(targets) == 0 {
			for dep := range c.pkg.deps {
				if ext := r.externCrate(c, dep); ext != nil {
					targets = append(targets, ext.exported[name]...)
				}
			}
		}
	}
	for _, t := range targets {
		r.facts.AddEdge(analyze.Edge{From: from, To: t, Kind: analyze.EdgeMacro, Exact: len(targets) == 1, Line: int(rf.line)})
	}
}

// methodRef links recv.name(…): through the receiver's type when the syntax
// shows it (self, a typed parameter or local, a field of those), else by
// name among the methods whose type the file mentions, else by a unique
// name in the whole load. Calls matched by name are never exact.
func (r *resolver) methodRef(fr *fileRefs, from analyze.SymID, sc *scope, rf *ref) {
	name := rf.path[0]
	line := int(rf.line)
	if rf.recv != nil {
		if types, known := r.recvTypes(sc, rf.recv); known {
			cands := r.methodsOn(types, name)
			for _, c := range cands {
				r.facts.AddEdge(analyze.Edge{From: from, To: c, Kind: analyze.EdgeCalls, Exact: len(cands) == 1, Line: line})
			}
			return // the type is known; a method it lacks is not ours (std, derive)
		}
	}
	cands := r.methodsByName[name]
	if len(cands) == 0 {
		return
	}
	var sel []analyze.SymID
	for _, c := range cands {
		for _, o := range r.owners(c) {
			if fr.types[o] {
				sel = append(sel, c)
				break
			}
		}
	}
	if commonMethods[name] {
		return // too common to mean anything without the receiver's type
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
		r.facts.AddEdge(analyze.Edge{From: from, To: c, Kind: analyze.EdgeCalls, Exact: false, Line: line})
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

// recvTypes returns the types of a receiver chain (see recvChain) and
// whether the syntax gave them away. A known type that is not in the
// repository (a String parameter, a HashMap field, the socket2::SockRef an
// accessor returns) gives no types but known=true: its methods are not
// ours.
func (r *resolver) recvTypes(sc *scope, chain []string) ([]analyze.SymID, bool) {
	return r.recvTypesDepth(sc, chain, 0)
}

// maxInitDepth bounds how many locals initialised from one another
// (let a = b.f(); let b = …) are followed.
const maxInitDepth = 4

// transparentMethods return (a view of) their receiver: when the
// receiver's type has no such method of its own, the chain goes on with
// the same type (x.clone().m(), opt.unwrap().m()).
var transparentMethods = map[string]bool{
	"unwrap": true, "expect": true, "unwrap_or_default": true, "unwrap_unchecked": true, "clone": true,
	"to_owned": true, "as_ref": true, "as_mut": true, "borrow": true, "borrow_mut": true, "deref": true,
	"deref_mut": true, "as_deref": true, "as_deref_mut": true, "lock": true, "read": true, "write": true,
	"get_ref": true, "get_mut": true, "as_pin_mut": true,
}

// stdWrappers are standard types that hand out what they wrap: a receiver
// of one of these types is not taken for a known foreign type.
var stdWrappers = map[string]bool{
	"Option": true, "Result": true, "Mutex": true, "RwLock": true, "RefCell": true, "Cell": true,
	"UnsafeCell": true, "Weak": true, "ManuallyDrop": true, "MutexGuard": true, "RwLockReadGuard": true,
	"RwLockWriteGuard": true, "Ref": true, "RefMut": true, "LockResult": true, "OnceCell": true,
	"OnceLock": true, "LazyLock": true, "Lazy": true,
}

// typesKnown resolves a declared type for receiver typing: ours gives its
// types, a foreign one known=true with none, a standard wrapper unknown.
func (r *resolver) typesKnown(sc *scope, typ []string) ([]analyze.SymID, bool) {
	types := r.typesOf(sc, typ)
	if len(types) == 0 && len(typ) > 0 && stdWrappers[typ[len(typ)-1]] {
		return nil, false
	}
	return types, true
}

func (r *resolver) recvTypesDepth(sc *scope, chain []string, depth int) ([]analyze.SymID, bool) {
	cur, known := r.headTypes(sc, chain[0], depth)
	if !known {
		return nil, false
	}
	for _, step := range chain[1:] {
		if len(cur) == 0 {
			return nil, true // a foreign type: nothing reached through it is ours
		}
		if name, ok := strings.CutSuffix(step, "()"); ok {
			ms := r.methodsOn(cur, name)
			if len(ms) == 0 {
				if transparentMethods[name] {
					continue
				}
				return nil, false // through Deref or a trait we cannot see
			}
			if cur, known = r.returnTypes(ms); !known {
				return nil, false
			}
			continue
		}
		var next []analyze.SymID
		found := false
		for _, t := range cur {
			fs, ok := r.fields[t][step]
			if !ok {
				continue
			}
			found = true
			fit := r.itemOf(fs)
			if fit.typ == nil || r.symMod[fs] == nil {
				continue
			}
			fsc := &scope{mod: r.symMod[fs], generics: append(append([]generic(nil), r.itemOf(t).generics...), sc.generics...)}
			types, ok := r.typesKnown(fsc, fit.typ)
			if !ok {
				return nil, false
			}
			next = append(next, types...)
		}
		if !found {
			return nil, false // a field reached through Deref, or a tuple index
		}
		cur = dedupSyms(next)
	}
	return cur, true
}

// headTypes returns the types of the head of a receiver chain: self, a
// local or parameter, a static or const, or a call (f(), Type::new()).
func (r *resolver) headTypes(sc *scope, head string, depth int) ([]analyze.SymID, bool) {
	if head == "self" {
		return sc.selfTypes, len(sc.selfTypes) > 0
	}
	if callee, ok := strings.CutSuffix(head, "()"); ok {
		path := strings.Split(callee, "::")
		callees := r.resolve(sc, path).syms
		if len(callees) == 0 {
			if len(path) >= 2 && !isLower(path[len(path)-2]) {
				// Type::new() of a type of ours whose constructor we cannot see.
				if types := r.typesOf(sc, path[:len(path)-1]); len(types) > 0 {
					return types, true
				}
			}
			return nil, false
		}
		return r.returnTypes(callees)
	}
	for i := len(sc.locals) - 1; i >= 0; i-- {
		l := &sc.locals[i]
		if l.name != head {
			continue
		}
		switch {
		case l.typ != nil:
			return r.typesKnown(sc, l.typ)
		case l.typed:
			return nil, true
		case (l.init != nil || l.initMethod != "") && depth < maxInitDepth:
			if types := r.initTypes(sc, l, depth+1); len(types) > 0 {
				return types, true
			}
		}
		return nil, false
	}
	var out []analyze.SymID
	for _, s := range r.first(sc, head).syms {
		if k := r.facts.Symbols[s].Kind; k == analyze.KindStatic || k == analyze.KindConst {
			if typ := r.itemOf(s).typ; typ != nil && r.symMod[s] != nil {
				out = append(out, r.typesOf(&scope{mod: r.symMod[s]}, typ)...)
			}
		}
	}
	return out, len(out) > 0
}

// returnTypes returns what calling callees gives: the declared return
// types of functions and methods (read in the callee's scope), the type a
// tuple struct or variant constructor builds. known is false when a callee
// returns a standard wrapper we cannot see through.
func (r *resolver) returnTypes(callees []analyze.SymID) ([]analyze.SymID, bool) {
	var out []analyze.SymID
	known := true
	for _, c := range callees {
		switch r.facts.Symbols[c].Kind {
		case analyze.KindStruct:
			out = append(out, c)
			continue
		case analyze.KindVariant:
			if p := r.facts.Symbols[c].Parent; p != analyze.NoSym {
				out = append(out, p)
			}
			continue
		}
		if !r.facts.Symbols[c].Kind.IsCallable() {
			continue
		}
		it := r.itemOf(c)
		if it.ret == nil {
			continue
		}
		fd := r.files[r.facts.Symbols[c].File]
		types, ok := r.typesKnown(r.scopeFor(fd, int(c-fd.base)), it.ret)
		if !ok {
			known = false
		}
		out = append(out, types...)
	}
	out = dedupSyms(out)
	return out, known || len(out) > 0
}

// initTypes returns the types a local is initialised with when it is the
// result of a call whose return type is declared in the repository:
// `let svc = new_service();`, `let user = self.get(id)?;`.
func (r *resolver) initTypes(sc *scope, l *local, depth int) []analyze.SymID {
	var callees []analyze.SymID
	if l.init != nil {
		callees = r.resolve(sc, l.init).syms
	} else if types, ok := r.recvTypesDepth(sc, l.initRecv, depth); ok {
		callees = r.methodsOn(types, l.initMethod)
	}
	out, _ := r.returnTypes(callees)
	if len(out) == 0 && len(l.init) >= 2 && !isLower(l.init[len(l.init)-2]) {
		out = r.typesOf(sc, l.init[:len(l.init)-1])
	}
	return out
}

// methodsOn returns the methods called name that types offer: their own
// (inherent and trait impl) methods, else those their traits provide, else
// for a trait, its supertraits'.
func (r *resolver) methodsOn(types []analyze.SymID, name string) []analyze.SymID {
	var out []analyze.SymID
	for _, t := range types {
		own := r.memberNamed(t, name, analyze.KindMethod)
		if len(own) == 0 {
			for _, tr := range r.traitsOf[t] {
				own = append(own, r.memberNamed(tr, name, analyze.KindMethod)...)
			}
		}
		if len(own) == 0 && r.facts.Symbols[t].Kind == analyze.KindTrait {
			for _, sup := range r.supertraits[t] {
				own = append(own, r.memberNamed(sup, name, analyze.KindMethod)...)
			}
		}
		out = append(out, own...)
	}
	return dedupSyms(out)
}
