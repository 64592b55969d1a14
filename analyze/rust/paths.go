package rust

// Token-level readers for paths and types, shared by the signature, body
// and use-tree scanners.

// keywords are never the start of a path, except self, Self, crate and
// super, which readPath accepts as segments.
var keywords = map[string]bool{
	"as": true, "async": true, "await": true, "break": true, "const": true, "continue": true,
	"dyn": true, "else": true, "enum": true, "extern": true, "false": true, "fn": true, "for": true,
	"if": true, "impl": true, "in": true, "let": true, "loop": true, "match": true, "mod": true,
	"move": true, "mut": true, "pub": true, "ref": true, "return": true, "static": true,
	"struct": true, "trait": true, "true": true, "type": true, "unsafe": true, "use": true,
	"where": true, "while": true, "yield": true, "box": true, "try": true, "macro_rules": true,
}

// pathKeywords may start or continue a path.
var pathKeywords = map[string]bool{"self": true, "Self": true, "crate": true, "super": true}

// primitives are built-in types; paths through them (u64::from) lead
// outside the repository.
var primitives = map[string]bool{
	"bool": true, "char": true, "str": true, "u8": true, "u16": true, "u32": true, "u64": true,
	"u128": true, "usize": true, "i8": true, "i16": true, "i32": true, "i64": true, "i128": true,
	"isize": true, "f32": true, "f64": true,
}

// pointerWrappers are generic types that a method call sees through
// (auto-deref): Box<dyn Store>.find() calls Store::find.
var pointerWrappers = map[string]bool{"Box": true, "Rc": true, "Arc": true, "Pin": true, "Cow": true}

// maxPathSegs bounds the segments of one path; longer paths (only
// machine-written code has them) are read but not recorded.
const maxPathSegs = 64

// readPath reads a path at toks[i]: an optional leading ::, then segments
// joined by ::, skipping turbofish generic arguments (::<…>). It returns
// the segments, the index after the path, and the token ranges of skipped
// generic arguments so that the caller can scan them as types.
func readPath(src []byte, toks []token, i int) (segs []string, j int, skipped [][2]int) {
	return readPathIn(nil, src, toks, i)
}

// readPathIn is readPath with identifiers taken from an interner.
func readPathIn(in interner, src []byte, toks []token, i int) (segs []string, j int, skipped [][2]int) {
	j = i
	if j < len(toks) && isPunct(src, toks[j], "::") {
		j++
	}
	tooLong := false
	defer func() {
		if tooLong {
			segs = nil
		}
	}()
	for j < len(toks) && toks[j].k == tIdent {
		if len(segs) < maxPathSegs {
			segs = append(segs, in.str(tokBytes(src, toks[j])))
		} else {
			tooLong = true
		}
		j++
		for j+1 < len(toks) && isPunct(src, toks[j], "::") && isPunct(src, toks[j+1], "<") {
			end := skipAngle(src, toks, j+1)
			if end <= j+1 {
				return segs, j, skipped
			}
			skipped = append(skipped, [2]int{j + 2, end - 1})
			j = end
		}
		if j+1 < len(toks) && isPunct(src, toks[j], "::") && toks[j+1].k == tIdent {
			j++
			continue
		}
		break
	}
	return segs, j, skipped
}

// skipAngle returns the index after the > that closes the < at toks[i], or
// i when the brackets do not close within a plausible span.
func skipAngle(src []byte, toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks) && j < i+512; j++ {
		t := toks[j]
		if t.k != tPunct {
			continue
		}
		switch string(src[t.s:t.e]) {
		case "<":
			depth++
		case ">":
			depth--
			if depth == 0 {
				return j + 1
			}
		case ";", "{", "}":
			return i
		}
	}
	return i
}

// skipDelim returns the index after the delimiter that closes the one at
// toks[i] ((, [ or {), or len(toks) when it does not close.
func skipDelim(src []byte, toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.k != tPunct || t.e-t.s != 1 {
			continue
		}
		switch src[t.s] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth <= 0 {
				return j + 1
			}
		}
	}
	return len(toks)
}

// typeHead returns the path a type's methods hang off: references,
// pointers, dyn, impl and pointer wrappers (Box, Rc, Arc, Pin, Cow) removed.
// Tuples, slices, arrays and qualified paths give nil.
func typeHead(src []byte, toks []token) []string {
	for depth := 0; depth < 4; depth++ {
		i := 0
		for i < len(toks) {
			t := toks[i]
			if t.k == tLifetime || (t.k == tPunct && (isPunct(src, t, "&") || isPunct(src, t, "&&") || isPunct(src, t, "*"))) ||
				(t.k == tIdent && (isIdent(src, t, "mut") || isIdent(src, t, "dyn") || isIdent(src, t, "impl") || isIdent(src, t, "const"))) {
				i++
				continue
			}
			break
		}
		if i >= len(toks) || (toks[i].k != tIdent && !isPunct(src, toks[i], "::")) {
			return nil
		}
		segs, j, _ := readPath(src, toks, i)
		if len(segs) == 0 {
			return nil
		}
		last := segs[len(segs)-1]
		if pointerWrappers[last] && j < len(toks) && isPunct(src, toks[j], "<") {
			end := skipAngle(src, toks, j)
			if end > j+1 {
				toks = toks[j+1 : end-1]
				continue
			}
		}
		if primitives[segs[0]] {
			return nil
		}
		return segs
	}
	return nil
}

// typeDisplay names an impl's self type: the last path segment for a path
// type (UserService<S> → UserService), the collapsed text otherwise.
func typeDisplay(src []byte, toks []token) string {
	if len(toks) == 0 {
		return ""
	}
	if toks[0].k == tIdent && !keywords[string(tokBytes(src, toks[0]))] || isPunct(src, toks[0], "::") {
		segs, j, _ := readPath(src, toks, 0)
		if len(segs) > 0 {
			if j < len(toks) && isPunct(src, toks[j], "<") {
				j = skipAngle(src, toks, j)
			}
			if j >= len(toks) {
				return segs[len(segs)-1]
			}
		}
	}
	return collapse(src, int(toks[0].s), int(toks[len(toks)-1].e))
}

// macroPath returns the path before the ! of a macro invocation.
func macroPath(src []byte, toks []token) ([]string, bool) {
	segs, j, _ := readPath(src, toks, 0)
	if len(segs) == 0 || j >= len(toks) || !isPunct(src, toks[j], "!") {
		return nil, false
	}
	return segs, true
}

// readBounds reads trait bounds `A + B<X> + ?Sized + 'a + for<'b> Fn(&'b T)`
// from toks[i] up to a `,`, `>`, `{`, `=`, `;` or `where` at depth zero and
// returns the trait paths and the index where it stopped.
func readBounds(src []byte, toks []token, i int) (bounds [][]string, j int) {
	j = i
	for j < len(toks) {
		t := toks[j]
		switch {
		case t.k == tPunct && (isPunct(src, t, ",") || isPunct(src, t, ">") || isPunct(src, t, "{") ||
			isPunct(src, t, "=") || isPunct(src, t, ";")):
			return bounds, j
		case t.k == tIdent && isIdent(src, t, "where"):
			return bounds, j
		case t.k == tIdent && isIdent(src, t, "for") && j+1 < len(toks) && isPunct(src, toks[j+1], "<"):
			j = skipAngle(src, toks, j+1)
		case t.k == tIdent && !keywords[string(tokBytes(src, t))] || isPunct(src, t, "::"):
			segs, k, _ := readPath(src, toks, j)
			if len(segs) > 0 {
				bounds = append(bounds, segs)
			}
			if k <= j {
				k = j + 1
			}
			j = k
			if j < len(toks) && isPunct(src, toks[j], "<") {
				j = skipAngle(src, toks, j)
			} else if j < len(toks) && isPunct(src, toks[j], "(") {
				j = skipDelim(src, toks, j)
				if j < len(toks) && isPunct(src, toks[j], "->") {
					j++
					_, j = readType(src, toks, j)
				}
			}
		case t.k == tPunct && (isPunct(src, t, "(") || isPunct(src, t, "[")):
			j = skipDelim(src, toks, j)
		default:
			j++
		}
	}
	return bounds, j
}

// readType skips one type starting at toks[i] and returns its head and the
// index after it. It stops at a `,`, `;`, `=`, `{`, `)` , `]` or unmatched
// `>` at depth zero.
func readType(src []byte, toks []token, i int) ([]string, int) {
	j := i
	for j < len(toks) {
		t := toks[j]
		if t.k == tPunct {
			switch string(src[t.s:t.e]) {
			case ",", ";", "=", "{", ")", "]", ">", "|":
				return typeHead(src, toks[i:j]), j
			case "<":
				if k := skipAngle(src, toks, j); k > j {
					j = k
					continue
				}
			case "(", "[":
				j = skipDelim(src, toks, j)
				continue
			}
		}
		if t.k == tIdent && isIdent(src, t, "where") {
			break
		}
		j++
	}
	return typeHead(src, toks[i:j]), j
}
