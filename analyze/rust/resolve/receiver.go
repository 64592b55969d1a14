package resolve

import (
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Receiver typing: what type a method call's receiver has, as far as the
// syntax tells (declared parameter, local, field and return types).

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
			if fit.Typ == nil || r.symMod[fs] == nil {
				continue
			}
			fsc := &scope{mod: r.symMod[fs], generics: append(append([]Generic(nil), r.itemOf(t).Generics...), sc.generics...)}
			types, ok := r.typesKnown(fsc, fit.Typ)
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
			if len(path) >= 2 && !IsLower(path[len(path)-2]) {
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
		if l.Name != head {
			continue
		}
		switch {
		case l.Typ != nil:
			return r.typesKnown(sc, l.Typ)
		case l.Typed:
			return nil, true
		case (l.Init != nil || l.InitMethod != "") && depth < maxInitDepth:
			if types := r.initTypes(sc, l, depth+1); len(types) > 0 {
				return types, true
			}
		}
		return nil, false
	}
	var out []analyze.SymID
	for _, s := range r.first(sc, head).syms {
		if k := r.facts.Symbols[s].Kind; k == analyze.KindStatic || k == analyze.KindConst {
			if typ := r.itemOf(s).Typ; typ != nil && r.symMod[s] != nil {
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
		if it.Ret == nil {
			continue
		}
		fd := r.files[r.facts.Symbols[c].File]
		types, ok := r.typesKnown(r.scopeFor(fd, int(c-fd.base)), it.Ret)
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
func (r *resolver) initTypes(sc *scope, l *Local, depth int) []analyze.SymID {
	var callees []analyze.SymID
	if l.Init != nil {
		callees = r.resolve(sc, l.Init).syms
	} else if types, ok := r.recvTypesDepth(sc, l.InitRecv, depth); ok {
		callees = r.methodsOn(types, l.InitMethod)
	}
	out, _ := r.returnTypes(callees)
	if len(out) == 0 && len(l.Init) >= 2 && !IsLower(l.Init[len(l.Init)-2]) {
		out = r.typesOf(sc, l.Init[:len(l.Init)-1])
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
