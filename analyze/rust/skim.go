package rust

import (
	"sort"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Parsing without function bodies.
//
// Most of a Rust file is function bodies, and the extractor reads them
// with the lexer, never through the tree. Parsing them costs tree-sitter
// more than half its time, so the parser is given only what lies outside
// them: the lexer finds every `fn` whose signature reaches a { at bracket
// depth zero, and the text between that brace and its match is left out
// of the parse (tree-sitter's included ranges; positions stay those of the
// file). The tree then holds each function with an empty body that spans
// the same bytes as the real one.
//
// The lexer is not the grammar, so the skimmed tree is checked before it
// is used: it must have no syntax error, and every left-out body must be
// the body of a function item in it (or lie inside a macro's token tree,
// where it is checked again if the macro's body is re-parsed as items).
// Anything else — `impl Trait for fn() { … }`, a file the lexer reads
// differently — and the file is parsed whole; a macro body re-parsed as
// items that fails the check is re-parsed whole. The items found are then
// those of a whole parse. What changes is that a syntax error inside a
// function body goes unseen, and so does any text tree-sitter's grammar
// cannot read there (clap's str![[r#"…"#]] test literals): the lexer
// reads bodies the same either way, and a file whose only errors were
// there no longer reports them as a problem.

// span is a byte range [s, e) of the source.
type span struct{ s, e int32 }

// skim is a parse of one file with its function bodies left out.
type skim struct {
	bodies []span         // each from its { to just after its }; only bodies with something inside
	ranges []sitter.Range // what the parser reads: everything else
}

// fileToks lexes the whole of src into the parser's scratch buffer; the
// tokens are valid until the next call.
func (t *tsParser) fileToks(src []byte) []token {
	t.toks = lex(src, 0, len(src), t.toks[:0])
	return t.toks
}

// newSkim returns the skim of src, or nil when there is no body to leave
// out.
func newSkim(src []byte, starts []int32, toks []token) *skim {
	var bodies []span
	for _, b := range fnBodies(src, toks) {
		if b.e-b.s > 2 {
			bodies = append(bodies, b)
		}
	}
	if len(bodies) == 0 {
		return nil
	}
	point := func(off int32) sitter.Point {
		l := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
		return sitter.Point{Row: uint(l), Column: uint(off - starts[l])}
	}
	sk := &skim{bodies: bodies, ranges: make([]sitter.Range, 0, len(bodies)+1)}
	from := int32(0)
	for _, b := range bodies {
		sk.ranges = append(sk.ranges, sitter.Range{StartByte: uint(from), EndByte: uint(b.s + 1), StartPoint: point(from), EndPoint: point(b.s + 1)})
		from = b.e - 1
	}
	end := int32(len(src))
	sk.ranges = append(sk.ranges, sitter.Range{StartByte: uint(from), EndByte: uint(end), StartPoint: point(from), EndPoint: point(end)})
	return sk
}

// within returns the parts of the included ranges inside [s, e), for
// re-parsing a macro body.
func (sk *skim) within(s, e int, point func(int) sitter.Point) []sitter.Range {
	var out []sitter.Range
	for _, r := range sk.ranges {
		if int(r.EndByte) <= s || int(r.StartByte) >= e {
			continue
		}
		if int(r.StartByte) < s {
			r.StartByte, r.StartPoint = uint(s), point(s)
		}
		if int(r.EndByte) > e {
			r.EndByte, r.EndPoint = uint(e), point(e)
		}
		out = append(out, r)
	}
	return out
}

// accept reports whether the tree of [from, to) can stand for the whole
// parse: no syntax error, and every left-out body inside the range is a
// function item's body or sits in a token tree.
func (sk *skim) accept(root *sitter.Node, from, to int) bool {
	if root.HasError() {
		return false
	}
	i := sort.Search(len(sk.bodies), func(i int) bool { return int(sk.bodies[i].s) >= from })
	for ; i < len(sk.bodies) && int(sk.bodies[i].e) <= to; i++ {
		b := sk.bodies[i]
		n := root.DescendantForByteRange(uint(b.s), uint(b.e))
		if n == nil || n.StartByte() != uint(b.s) || n.EndByte() != uint(b.e) {
			return false
		}
		switch n.KindId() {
		case kinds.tokenTree:
		case kinds.block:
			if p := n.Parent(); p == nil || p.KindId() != kinds.functionItem {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fnBodies returns the function bodies of src, each from its { to just
// after its }, found with the lexer alone: every `fn` whose signature
// reaches a { at bracket depth zero. Bodies inside other bodies are not
// listed (the outer body covers them), nor anything inside macro_rules!.
func fnBodies(src []byte, toks []token) []span {
	var out []span
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.k != tIdent {
			continue
		}
		switch {
		case isIdent(src, t, "macro_rules"):
			// macro_rules! name { … }: templates, not code.
			if i+3 < len(toks) && isPunct(src, toks[i+1], "!") && toks[i+2].k == tIdent {
				if end, ok := matchGroup(src, toks, i+3); ok {
					i = end
				}
			}
		case isIdent(src, t, "fn") && !(t.s >= 2 && src[t.s-2] == 'r' && src[t.s-1] == '#'):
			open, ok := sigEnd(src, toks, i+1)
			if !ok {
				continue
			}
			end, ok := matchGroup(src, toks, open)
			if !ok {
				return out // unbalanced: nothing after this is trusted
			}
			out = append(out, span{toks[open].s, toks[end].e})
			i = end
		}
	}
	return out
}

// sigEnd scans a signature from toks[i] and returns the index of the {
// that opens the body; ok is false at a ; (no body), at an = or an
// unbalanced closer (not a function item), or at the end.
func sigEnd(src []byte, toks []token, i int) (int, bool) {
	depth, angle := 0, 0
	for ; i < len(toks); i++ {
		t := toks[i]
		if t.k != tPunct || t.e-t.s != 1 {
			continue
		}
		switch src[t.s] {
		case '(', '[':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return 0, false
			}
			depth--
		case '{':
			if depth == 0 && angle == 0 {
				return i, true
			}
			depth++
		case '<':
			if depth == 0 {
				angle++
			}
		case '>':
			if depth == 0 && angle > 0 {
				angle--
			}
		case ';', '=':
			if depth == 0 && angle == 0 {
				return 0, false
			}
		}
	}
	return 0, false
}

// matchGroup returns the index of the token closing the group opened at
// toks[i] ((, [ or {), counting all three kinds of brackets.
func matchGroup(src []byte, toks []token, i int) (int, bool) {
	if i >= len(toks) || toks[i].k != tPunct || toks[i].e-toks[i].s != 1 {
		return 0, false
	}
	switch src[toks[i].s] {
	case '(', '[', '{':
	default:
		return 0, false
	}
	depth := 0
	for ; i < len(toks); i++ {
		t := toks[i]
		if t.k != tPunct || t.e-t.s != 1 {
			continue
		}
		switch src[t.s] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i, true
			}
		}
	}
	return 0, false
}
