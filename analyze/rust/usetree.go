package rust

import "github.com/ctxexpand/ctxexpand/analyze/rust/resolve"

// parseUse reads a use declaration given as tokens (from `pub`/`use` to
// the `;`) and returns its leaves: `use a::{b, c as d, e::*}` gives
// [a b]→b, [a c]→d and [a e]→*. `self` in a group names the prefix
// itself; a leading `::` is dropped.
func parseUse(src []byte, toks []token, line int32) []resolve.UseDecl {
	i := 0
	pub := false
	for i < len(toks) && !isIdent(src, toks[i], "use") {
		if isIdent(src, toks[i], "pub") {
			pub = true
		}
		i++
	}
	if i >= len(toks) {
		return nil
	}
	var out []resolve.UseDecl
	useTree(src, toks, i+1, nil, &out, 0)
	for k := range out {
		out[k].Pub = pub
		out[k].Line = line
	}
	return out
}

// useTree reads one use tree at toks[i] under prefix and returns the index
// after it.
func useTree(src []byte, toks []token, i int, prefix []string, out *[]resolve.UseDecl, depth int) int {
	if depth > 16 {
		return len(toks)
	}
	path := append([]string(nil), prefix...)
	if i < len(toks) && isPunct(src, toks[i], "::") {
		i++
	}
	for i < len(toks) {
		t := toks[i]
		switch {
		case t.k == tIdent:
			w := tokText(src, t)
			if w == "as" {
				if i+1 < len(toks) && toks[i+1].k == tIdent && len(path) > 0 {
					*out = append(*out, leaf(path, tokText(src, toks[i+1])))
					return i + 2
				}
				return i + 1
			}
			if i > 0 && isPunct(src, toks[i-1], "$") && w == "crate" {
				w = "crate"
			}
			path = append(path, w)
			i++
			if i < len(toks) && isPunct(src, toks[i], "::") {
				i++
				continue
			}
			if i < len(toks) && isIdent(src, toks[i], "as") {
				continue
			}
			if len(path) > 0 {
				*out = append(*out, leaf(path, ""))
			}
			return i
		case isPunct(src, t, "$"):
			i++
		case isPunct(src, t, "*"):
			*out = append(*out, resolve.UseDecl{Path: path, Glob: true})
			return i + 1
		case isPunct(src, t, "{"):
			i++
			for i < len(toks) && !isPunct(src, toks[i], "}") {
				if isPunct(src, toks[i], ",") {
					i++
					continue
				}
				next := useTree(src, toks, i, path, out, depth+1)
				if next <= i {
					next = i + 1
				}
				i = next
			}
			return i + 1
		default:
			return i
		}
	}
	if len(path) > len(prefix) {
		*out = append(*out, leaf(path, ""))
	}
	return i
}

// leaf makes the use of path bound to alias (or to its last segment).
// `a::b::self` is `a::b`.
func leaf(path []string, alias string) resolve.UseDecl {
	p := append([]string(nil), path...)
	if n := len(p); n > 1 && p[n-1] == "self" {
		p = p[:n-1]
	}
	if alias == "" {
		alias = p[len(p)-1]
	}
	return resolve.UseDecl{Path: p, Alias: alias}
}

// parseExternCrate reads `extern crate name [as alias];`.
func parseExternCrate(src []byte, toks []token, line int32) (resolve.UseDecl, bool) {
	pub := false
	for i := 0; i < len(toks); i++ {
		if isIdent(src, toks[i], "pub") {
			pub = true
		}
		if isIdent(src, toks[i], "crate") && i > 0 && isIdent(src, toks[i-1], "extern") && i+1 < len(toks) && toks[i+1].k == tIdent {
			name := tokText(src, toks[i+1])
			alias := name
			if i+3 < len(toks) && isIdent(src, toks[i+2], "as") && toks[i+3].k == tIdent {
				alias = tokText(src, toks[i+3])
			}
			if name == "self" {
				// `extern crate self as me;` names the crate itself.
				if alias == name {
					return resolve.UseDecl{}, false
				}
				return resolve.UseDecl{Path: []string{"crate"}, Alias: alias, Pub: pub, Line: line}, true
			}
			return resolve.UseDecl{Path: []string{name}, Alias: alias, Pub: pub, Line: line, Extern: true}, true
		}
	}
	return resolve.UseDecl{}, false
}
