package rust

import "github.com/ctxexpand/ctxexpand/analyze/rust/resolve"

// scanSignature reads the header of an item (everything before its body):
// generic parameters with their bounds, the where clause, the parameters of
// a function (as typed locals, and whether one is self) and every type
// mentioned, as resolve.RefType references.
func (x *extractor) scanSignature(idx int32, toks []token) {
	src := x.src
	it := &x.fs.Items[idx]
	k := 0
	for k < len(toks) {
		t := toks[k]
		if t.k == tIdent {
			switch tokText(src, t) {
			case "fn", "struct", "union", "enum", "trait", "type":
				goto found
			case "impl":
				goto found
			}
		}
		k++
	}
	// No keyword: a field or variant; everything is a type.
	x.scanTypes(idx, toks)
	return
found:
	after := k + 1
	if !isIdent(src, toks[k], "impl") {
		after = k + 2 // skip the name
	}
	if after < len(toks) && isPunct(src, toks[after], "<") {
		end := skipAngle(src, toks, after)
		if end > after {
			it.Generics = append(it.Generics, parseGenerics(src, toks[after+1:end-1])...)
		}
	}
	for w := after; w < len(toks); w++ {
		if isIdent(src, toks[w], "where") {
			it.Generics = mergeGenerics(it.Generics, parseWhere(src, toks[w+1:]))
			break
		}
	}
	if isIdent(src, toks[k], "fn") {
		p := after
		if p < len(toks) && isPunct(src, toks[p], "<") {
			if end := skipAngle(src, toks, p); end > p {
				p = end
			}
		}
		if p < len(toks) && isPunct(src, toks[p], "(") {
			end := skipDelim(src, toks, p)
			x.parseParams(it, toks[p+1:max(p+1, end-1)])
			if end < len(toks) && isPunct(src, toks[end], "->") {
				_, e := readType(src, toks, end+1)
				it.Ret = returnHead(src, toks[end+1:e])
			}
		}
	}
	if after > len(toks) {
		after = len(toks)
	}
	x.scanTypes(idx, toks[after:])
}

// parseGenerics reads the inside of <…> after an item name or impl.
func parseGenerics(src []byte, toks []token) []resolve.Generic {
	var out []resolve.Generic
	i := 0
	for i < len(toks) {
		t := toks[i]
		switch {
		case t.k == tLifetime:
			i = skipToComma(src, toks, i)
		case isIdent(src, t, "const"):
			if i+1 < len(toks) && toks[i+1].k == tIdent {
				out = append(out, resolve.Generic{Name: tokText(src, toks[i+1])})
			}
			i = skipToComma(src, toks, i)
		case t.k == tIdent:
			g := resolve.Generic{Name: tokText(src, t)}
			i++
			if i < len(toks) && isPunct(src, toks[i], ":") {
				g.Bounds, i = readBounds(src, toks, i+1)
			}
			out = append(out, g)
			i = skipToComma(src, toks, i)
		default:
			i++
		}
	}
	return out
}

// parseWhere reads `T: A + B, U: C` up to the end of the tokens or a `{`.
func parseWhere(src []byte, toks []token) []resolve.Generic {
	var out []resolve.Generic
	i := 0
	for i < len(toks) {
		if isPunct(src, toks[i], "{") || isPunct(src, toks[i], ";") {
			break
		}
		if isIdent(src, toks[i], "for") && i+1 < len(toks) && isPunct(src, toks[i+1], "<") {
			i = max(skipAngle(src, toks, i+1), i+1)
			continue
		}
		if toks[i].k == tIdent && i+1 < len(toks) && isPunct(src, toks[i+1], ":") {
			g := resolve.Generic{Name: tokText(src, toks[i])}
			g.Bounds, i = readBounds(src, toks, i+2)
			out = append(out, g)
		}
		i = skipToComma(src, toks, i)
	}
	return out
}

// mergeGenerics adds the bounds in more to the parameters of the same name.
func mergeGenerics(gs, more []resolve.Generic) []resolve.Generic {
	for _, m := range more {
		found := false
		for i := range gs {
			if gs[i].Name == m.Name {
				gs[i].Bounds = append(gs[i].Bounds, m.Bounds...)
				found = true
				break
			}
		}
		if !found {
			gs = append(gs, m)
		}
	}
	return gs
}

// skipToComma returns the index after the next `,` at depth zero.
func skipToComma(src []byte, toks []token, i int) int {
	for i < len(toks) {
		t := toks[i]
		switch {
		case isPunct(src, t, ","):
			return i + 1
		case isPunct(src, t, "<"):
			i = max(skipAngle(src, toks, i), i+1)
		case isPunct(src, t, "(") || isPunct(src, t, "[") || isPunct(src, t, "{"):
			i = skipDelim(src, toks, i)
		default:
			i++
		}
	}
	return i
}

// parseParams reads a function's parameter list: `&self`, `mut self`,
// `self: Box<Self>`, `email: &str`, `(a, b): (A, B)`.
func (x *extractor) parseParams(it *resolve.Item, toks []token) {
	src := x.src
	i := 0
	first := true
	for i < len(toks) {
		end := skipToComma(src, toks, i)
		p := toks[i:end]
		if n := len(p); n > 0 && isPunct(src, p[n-1], ",") {
			p = p[:n-1]
		}
		// Leading attributes on parameters: #[…].
		for len(p) >= 2 && isPunct(src, p[0], "#") && isPunct(src, p[1], "[") {
			e := skipDelim(src, p, 1)
			p = p[e:]
		}
		j := 0
		for j < len(p) && (isPunct(src, p[j], "&") || p[j].k == tLifetime || isIdent(src, p[j], "mut")) {
			j++
		}
		if j < len(p) && isIdent(src, p[j], "self") {
			if first {
				it.SelfParam = true
			}
		} else if j < len(p) && p[j].k == tIdent && j+1 < len(p) && isPunct(src, p[j+1], ":") {
			it.Locals = append(it.Locals, resolve.Local{Name: tokText(src, p[j]), Typ: typeHead(src, p[j+2:]), Typed: true})
		}
		first = false
		if end <= i {
			break
		}
		i = end
	}
}

// scanTypes records every path in toks as a type reference. Names that
// label something (followed by a single `:`) and keywords are skipped.
func (x *extractor) scanTypes(idx int32, toks []token) {
	src := x.src
	it := &x.fs.Items[idx]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.k != tIdent && !(isPunct(src, t, "::") && i+1 < len(toks) && toks[i+1].k == tIdent) {
			continue
		}
		if t.k == tIdent {
			w := tokBytes(src, t)
			if (keywords[string(w)] && !pathKeywords[string(w)]) || primitives[string(w)] || string(w) == "self" {
				continue
			}
			if i > 0 && isPunct(src, toks[i-1], "$") {
				continue
			}
		}
		segs, j, skipped := readPathIn(x.in, src, toks, i)
		if j <= i {
			continue
		}
		isLabel := len(segs) == 1 && j < len(toks) && isPunct(src, toks[j], ":")
		if len(segs) > 0 && !isLabel {
			it.Refs = append(it.Refs, resolve.Ref{Kind: resolve.RefType, Line: int32(x.line(int(t.s))), Path: segs})
		}
		for _, r := range skipped {
			x.scanTypes(idx, toks[r[0]:r[1]])
			it = &x.fs.Items[idx]
		}
		i = j - 1
	}
}

// returnHead is typeHead for a return type, reading Result<T, E> and
// Option<T> as T: the value a caller goes on to call methods on after `?`
// or unwrap.
func returnHead(src []byte, toks []token) []string {
	head := typeHead(src, toks)
	if len(head) == 0 {
		return head
	}
	switch head[len(head)-1] {
	case "Result", "Option", "Poll":
		for i, t := range toks {
			if isPunct(src, t, "<") {
				end := skipAngle(src, toks, i)
				if end <= i+1 {
					return nil
				}
				inner, _ := readType(src, toks[i+1:end-1], 0)
				return inner
			}
		}
		return nil
	}
	return head
}
