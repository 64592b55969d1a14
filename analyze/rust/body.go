package rust

import (
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
)

// maxRefsPerItem bounds the references kept for one item (a generated
// function with a million-line match must not exhaust memory).
const maxRefsPerItem = 20000

// scanBody reads a function body, an initialiser or a macro_rules! body as
// tokens and records what it mentions: calls (path(…)), method calls
// (recv.name(…)) with their receiver chain, macro invocations, other paths
// (values, types, struct literals), body-level use declarations, and the
// locals whose type the syntax shows. Tokens inside macro invocations are
// read too, so assert_eq!(svc.find(x), …) still counts as a call of find.
// In a macro_rules! body (macro=true), $name metavariables are skipped and
// $crate starts a crate path.
func (x *extractor) scanBody(idx int32, toks []token, macro bool) {
	src := x.src
	it := &x.fs.Items[idx]
	bound := x.boundScratch()
	isBound := func(name string) bool {
		for _, b := range bound {
			if b == name {
				return true
			}
		}
		for _, l := range it.Locals {
			if l.Name == name {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(toks); i++ {
		if len(it.Refs) >= maxRefsPerItem {
			break
		}
		t := toks[i]
		if t.k == tPunct {
			switch {
			case isPunct(src, t, "|") && closureStart(src, toks, i):
				i = x.closureParams(it, toks, i, &bound)
			case isPunct(src, t, "::") && i+1 < len(toks) && toks[i+1].k == tIdent &&
				(i == 0 || (toks[i-1].k != tIdent && !isPunct(src, toks[i-1], ">"))):
				i = x.pathAt(it, toks, i, macro, isBound) - 1
			case isPunct(src, t, "<") && (i == 0 || closureStart(src, toks, i) || isPunct(src, toks[i-1], "(")):
				i = x.qualifiedPathAt(it, toks, i) - 1
			}
			continue
		}
		if t.k != tIdent {
			continue
		}
		w := tokBytes(src, t)
		var prev token
		if i > 0 {
			prev = toks[i-1]
		}
		if prev.k == tPunct && isPunct(src, prev, "$") {
			if !(macro && string(w) == "crate") {
				continue
			}
		}
		if prev.k == tPunct && isPunct(src, prev, ".") {
			i = x.methodAt(it, toks, i)
			continue
		}
		if keywords[string(w)] {
			switch string(w) {
			case "let":
				i = x.letAt(it, toks, i, &bound)
			case "fn", "struct", "enum", "trait", "type", "mod", "union":
				if i+1 < len(toks) && toks[i+1].k == tIdent {
					i++
				}
			case "macro_rules":
				if i+2 < len(toks) && toks[i+2].k == tIdent {
					i += 2
				}
			case "use":
				end := i + 1
				for end < len(toks) && !isPunct(src, toks[end], ";") {
					end++
				}
				it.Uses = append(it.Uses, parseUse(src, toks[i:end], int32(x.line(int(t.s))))...)
				for k := range it.Uses {
					it.Uses[k].Mod = it.Mod
				}
				i = end
			case "for":
				if i+2 < len(toks) && toks[i+1].k == tIdent && isIdent(src, toks[i+2], "in") {
					bound = append(bound, tokText(src, toks[i+1]))
					i++
				}
			}
			continue
		}
		if primitives[string(w)] {
			continue
		}
		i = x.pathAt(it, toks, i, macro, isBound) - 1
	}
	x.bound = bound[:0]
}

func (x *extractor) boundScratch() []string { return x.bound[:0] }

// pathAt reads the path at toks[i], records it by what follows, and
// returns the index after it.
func (x *extractor) pathAt(it *resolve.Item, toks []token, i int, macro bool, isBound func(string) bool) int {
	src := x.src
	segs, j, skipped := readPathIn(x.in, src, toks, i)
	if j <= i {
		return i + 1
	}
	if macro && i > 0 && isPunct(src, toks[i-1], "$") && len(segs) > 0 && segs[0] == "crate" {
		segs[0] = "$crate"
	}
	line := int32(x.line(int(toks[i].s)))
	var next token
	if j < len(toks) {
		next = toks[j]
	}
	switch {
	case len(segs) == 0 || (len(segs) == 1 && segs[0] == "self"):
	case next.k == tPunct && isPunct(src, next, "!"):
		it.Refs = append(it.Refs, resolve.Ref{Kind: resolve.RefMacro, Line: line, Path: segs})
		if len(segs) == 1 && segs[0] == "macro_rules" && j+1 < len(toks) && toks[j+1].k == tIdent {
			j += 2
		}
	case next.k == tPunct && isPunct(src, next, "("):
		if !(len(segs) == 1 && isBound(segs[0])) {
			it.Refs = append(it.Refs, resolve.Ref{Kind: resolve.RefCall, Line: line, Path: segs})
		}
	case len(segs) == 1 && next.k == tPunct && isPunct(src, next, ":"):
		// A field name in a struct literal or pattern, or a typed binding.
	case len(segs) == 1 && isBound(segs[0]):
	case len(segs) == 1 && resolve.IsLower(segs[0]) && next.k == tPunct && isPunct(src, next, "."):
		// A receiver variable (user.name()); statics and consts are upper case.
	default:
		it.Refs = append(it.Refs, resolve.Ref{Kind: resolve.RefValue, Line: line, Path: segs})
	}
	for _, r := range skipped {
		x.scanTypesInto(it, toks[r[0]:r[1]])
	}
	return j
}

// qualifiedPathAt reads a qualified path `<T as Trait>::f(…)` or
// `<T>::f(…)` at toks[i] and records it as Trait::f (or T::f), with T and
// Trait as type references. It returns the index after what it read.
func (x *extractor) qualifiedPathAt(it *resolve.Item, toks []token, i int) int {
	src := x.src
	end := skipAngle(src, toks, i)
	if end <= i+1 || end+1 >= len(toks) || !isPunct(src, toks[end], "::") || toks[end+1].k != tIdent {
		return i + 1
	}
	inner := toks[i+1 : end-1]
	x.scanTypesInto(it, inner)
	var head []string
	for k := range inner {
		if isIdent(src, inner[k], "as") {
			head, _, _ = readPathIn(x.in, src, inner, k+1)
			break
		}
	}
	if head == nil {
		head = typeHead(src, inner)
	}
	rest, j, _ := readPathIn(x.in, src, toks, end)
	if head == nil || rest == nil {
		return j
	}
	segs := append(append([]string(nil), head...), rest...)
	kind := resolve.RefValue
	if j < len(toks) && isPunct(src, toks[j], "(") {
		kind = resolve.RefCall
	}
	it.Refs = append(it.Refs, resolve.Ref{Kind: kind, Line: int32(x.line(int(toks[i].s))), Path: segs})
	return j
}

// scanTypesInto is scanTypes for an item already in hand.
func (x *extractor) scanTypesInto(it *resolve.Item, toks []token) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.k != tIdent {
			continue
		}
		w := tokBytes(x.src, t)
		if (keywords[string(w)] && !pathKeywords[string(w)]) || primitives[string(w)] || string(w) == "self" {
			continue
		}
		segs, j, _ := readPathIn(x.in, x.src, toks, i)
		if j <= i {
			continue
		}
		if len(segs) > 0 {
			it.Refs = append(it.Refs, resolve.Ref{Kind: resolve.RefType, Line: int32(x.line(int(t.s))), Path: segs})
		}
		i = j - 1
	}
}

// methodAt handles `.name` at toks[i]: a method call when `(` or a
// turbofish follows, a field access otherwise.
func (x *extractor) methodAt(it *resolve.Item, toks []token, i int) int {
	src := x.src
	j := i + 1
	if j+1 < len(toks) && isPunct(src, toks[j], "::") && isPunct(src, toks[j+1], "<") {
		end := skipAngle(src, toks, j+1)
		if end > j+1 {
			x.scanTypesInto(it, toks[j+2:end-1])
			j = end
		}
	}
	if j < len(toks) && isPunct(src, toks[j], "(") {
		it.Refs = append(it.Refs, resolve.Ref{
			Kind: resolve.RefMethod,
			Line: int32(x.line(int(toks[i].s))),
			Path: []string{x.in.str(tokBytes(src, toks[i]))},
			Recv: recvChain(src, toks, i-1),
		})
	}
	return j - 1
}

// maxRecvSteps bounds the steps of a receiver chain.
const maxRecvSteps = 6

// recvChain returns the receiver of the method call whose `.` is at
// toks[dot], as steps from its head: [self store] for self.store.m(),
// [user] for user.m(), [self as_socket()] for self.as_socket().m(),
// [Type::new() name] for Type::new().name.m(), [make()] for make().m().
// A step ending in () is a call whose return type gives the next type; `?`
// and .await are transparent. It returns nil when the receiver is not such
// a chain (an index, a literal, a closure call, a turbofish call).
func recvChain(src []byte, toks []token, dot int) []string {
	var rev []string // steps, last first
	k := dot - 1
	for len(rev) <= maxRecvSteps && k >= 0 {
		t := toks[k]
		switch {
		case isPunct(src, t, "?"):
			k--
			continue
		case isPunct(src, t, ")"):
			o := matchOpen(src, toks, k)
			if o < 1 || toks[o-1].k != tIdent || keywords[string(tokBytes(src, toks[o-1]))] {
				return nil
			}
			name := tokText(src, toks[o-1]) + "()"
			k = o - 1
			switch {
			case k >= 2 && isPunct(src, toks[k-1], "."):
				rev = append(rev, name)
				k -= 2
				continue
			case k >= 2 && isPunct(src, toks[k-1], "::"):
				path := []string{name}
				for k >= 2 && isPunct(src, toks[k-1], "::") && toks[k-2].k == tIdent {
					path = append([]string{tokText(src, toks[k-2])}, path...)
					k -= 2
				}
				if k >= 1 && (isPunct(src, toks[k-1], "::") || isPunct(src, toks[k-1], ">")) {
					return nil
				}
				return finishChain(strings.Join(path, "::"), rev)
			}
			return finishChain(name, rev)
		case t.k == tIdent:
			w := tokText(src, t)
			if w == "await" && k >= 2 && isPunct(src, toks[k-1], ".") {
				k -= 2
				continue
			}
			if keywords[w] && w != "self" {
				return nil
			}
			if k >= 2 && isPunct(src, toks[k-1], ".") {
				rev = append(rev, w)
				k -= 2
				continue
			}
			if k >= 1 && isPunct(src, toks[k-1], "::") {
				return nil
			}
			return finishChain(w, rev)
		default:
			return nil
		}
	}
	return nil
}

// finishChain returns head followed by the reversed steps.
func finishChain(head string, rev []string) []string {
	chain := make([]string, 0, len(rev)+1)
	chain = append(chain, head)
	for i := len(rev) - 1; i >= 0; i-- {
		chain = append(chain, rev[i])
	}
	return chain
}

// matchOpen returns the index of the ( that the ) at toks[k] closes, or -1.
func matchOpen(src []byte, toks []token, k int) int {
	depth := 0
	for j := k; j >= 0 && j > k-4096; j-- {
		t := toks[j]
		if t.k != tPunct || t.e-t.s != 1 {
			continue
		}
		switch src[t.s] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				if src[t.s] != '(' {
					return -1
				}
				return j
			}
		}
	}
	return -1
}

// letAt reads `let [mut] name [: Type] [= …]` at toks[i], recording the
// binding and its type when the syntax shows it: an annotation, a
// constructor call `T::new(…)` or a struct literal `T { … }`.
func (x *extractor) letAt(it *resolve.Item, toks []token, i int, bound *[]string) int {
	src := x.src
	j := i + 1
	if j < len(toks) && (isIdent(src, toks[j], "mut") || isIdent(src, toks[j], "ref")) {
		j++
	}
	if j >= len(toks) || toks[j].k != tIdent || j+1 >= len(toks) {
		return i
	}
	name := tokText(src, toks[j])
	next := toks[j+1]
	switch {
	case isPunct(src, next, ":"):
		head, _ := readType(src, toks, j+2)
		it.Locals = append(it.Locals, resolve.Local{Name: name, Typ: head, Typed: true})
		return j + 1
	case isPunct(src, next, "="):
		k := j + 2
		for k < len(toks) && (isPunct(src, toks[k], "&") || isIdent(src, toks[k], "mut")) {
			k++
		}
		if k+1 < len(toks) && toks[k].k == tIdent && isPunct(src, toks[k+1], ".") {
			if chain, method := recvCall(src, toks, k); method != "" {
				it.Locals = append(it.Locals, resolve.Local{Name: name, InitRecv: chain, InitMethod: method})
				return j
			}
		}
		if k < len(toks) && toks[k].k == tIdent && !keywords[string(tokBytes(src, toks[k]))] {
			segs, e, _ := readPath(src, toks, k)
			switch {
			case e < len(toks) && isPunct(src, toks[e], "{") && len(segs) > 0:
				it.Locals = append(it.Locals, resolve.Local{Name: name, Typ: segs})
				return j
			case e < len(toks) && isPunct(src, toks[e], "(") && len(segs) > 0:
				it.Locals = append(it.Locals, resolve.Local{Name: name, Init: segs})
				return j
			}
		}
	}
	*bound = append(*bound, name)
	return j
}

// closureStart reports whether the `|` at toks[i] opens closure
// parameters rather than being a binary or.
func closureStart(src []byte, toks []token, i int) bool {
	if i == 0 {
		return true
	}
	p := toks[i-1]
	if p.k == tIdent {
		return isIdent(src, p, "move") || isIdent(src, p, "return") || isIdent(src, p, "in")
	}
	if p.k != tPunct {
		return false
	}
	switch string(src[p.s:p.e]) {
	case "(", ",", "=", "{", ";", "=>", "[", "!", "&&", "||":
		return true
	}
	return false
}

// closureParams binds the names between the bars at toks[i] and returns
// the index of the closing bar.
func (x *extractor) closureParams(it *resolve.Item, toks []token, i int, bound *[]string) int {
	src := x.src
	j := i + 1
	for j < len(toks) && j < i+64 {
		t := toks[j]
		if isPunct(src, t, "|") {
			return j
		}
		if t.k == tIdent && !keywords[string(tokBytes(src, t))] && j+1 < len(toks) {
			n := toks[j+1]
			switch {
			case isPunct(src, n, ":"):
				head, e := readType(src, toks, j+2)
				it.Locals = append(it.Locals, resolve.Local{Name: tokText(src, t), Typ: head, Typed: true})
				j = e
				continue
			case isPunct(src, n, ",") || isPunct(src, n, "|") || isPunct(src, n, ")"):
				*bound = append(*bound, tokText(src, t))
			}
		}
		j++
	}
	return i
}

// recvCall reads `x.a.b.m(` at toks[k] and returns [x a b] and m.
func recvCall(src []byte, toks []token, k int) ([]string, string) {
	if keywords[string(tokBytes(src, toks[k]))] {
		return nil, ""
	}
	chain := []string{tokText(src, toks[k])}
	j := k + 1
	for j+1 < len(toks) && isPunct(src, toks[j], ".") && toks[j+1].k == tIdent && len(chain) < 5 {
		name := tokText(src, toks[j+1])
		if j+2 < len(toks) && isPunct(src, toks[j+2], "(") {
			return chain, name
		}
		chain = append(chain, name)
		j += 2
	}
	return nil, ""
}
