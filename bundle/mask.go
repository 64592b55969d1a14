package bundle

import (
	"strings"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// mask returns text with the insides of comments, string, character and
// raw-string literals replaced by spaces (line breaks kept), so that brace
// matching and keyword search on the result see only code. Byte offsets
// are unchanged. Go and Rust lexical rules are followed where they differ
// (raw strings, nested block comments, lifetimes); anything else is lexed
// like Go.
func mask(text string, lang analyze.Lang) string {
	b := []byte(text)
	rust := lang == analyze.LangRust
	blank := func(from, to int) {
		for k := from; k < to && k < len(b); k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	n := len(b)
	for i := 0; i < n; {
		c := text[i]
		switch {
		case c == '/' && i+1 < n && text[i+1] == '/':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = n - i
			}
			blank(i, i+j)
			i += j
		case c == '/' && i+1 < n && text[i+1] == '*':
			j := blockCommentEnd(text, i, rust)
			blank(i, j)
			i = j
		case c == '`' && !rust:
			j := strings.IndexByte(text[i+1:], '`')
			end := n
			if j >= 0 {
				end = i + 1 + j + 1
			}
			blank(i+1, end-1)
			i = end
		case rust && (c == 'r' || c == 'b' || c == 'c') && !identBefore(text, i):
			if end, ok := rustRawString(text, i); ok {
				blank(i, end)
				i = end
				continue
			}
			if c != 'r' && i+1 < n && (text[i+1] == '"' || text[i+1] == '\'') {
				i++ // b"..." and b'x': the literal follows
				continue
			}
			i++
		case c == '"':
			end := quotedEnd(text, i, '"', rust)
			blank(i+1, end-1)
			i = end
		case c == '\'':
			if rust {
				if end, ok := rustCharEnd(text, i); ok {
					blank(i+1, end-1)
					i = end
				} else {
					i++ // a lifetime or label
				}
				continue
			}
			end := quotedEnd(text, i, '\'', false)
			blank(i+1, end-1)
			i = end
		default:
			i++
		}
	}
	return string(b)
}

// blockCommentEnd returns the offset just past the block comment opening at
// i (nested in Rust), or len(text) when it is not closed.
func blockCommentEnd(text string, i int, nested bool) int {
	depth := 0
	for j := i; j+1 < len(text); {
		switch {
		case text[j] == '/' && text[j+1] == '*':
			depth++
			j += 2
			if !nested && depth > 1 {
				depth = 1
			}
		case text[j] == '*' && text[j+1] == '/':
			depth--
			j += 2
			if depth == 0 {
				return j
			}
		default:
			j++
		}
	}
	return len(text)
}

// quotedEnd returns the offset just past the closing quote of the literal
// opening at i, honouring backslash escapes. A Go interpreted string or
// rune literal cannot span lines: it ends at the line break when it is not
// closed (multiline is for Rust strings, which may).
func quotedEnd(text string, i int, q byte, multiline bool) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			if !multiline {
				return j
			}
		}
	}
	return len(text)
}

// identBefore reports whether the byte before i continues an identifier,
// so that the r of "for" is not taken for a raw-string prefix.
func identBefore(text string, i int) bool {
	if i == 0 {
		return false
	}
	c := text[i-1]
	return c == '_' || isAlnum(c) || c >= utf8.RuneSelf
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// rustRawString recognises r"...", r#"..."#, br"...", cr#"..."# at i and
// returns the offset just past it.
func rustRawString(text string, i int) (int, bool) {
	j := i
	if text[j] == 'b' || text[j] == 'c' {
		j++
	}
	if j >= len(text) || text[j] != 'r' {
		return 0, false
	}
	j++
	hashes := 0
	for j < len(text) && text[j] == '#' {
		hashes++
		j++
	}
	if j >= len(text) || text[j] != '"' {
		return 0, false
	}
	closing := "\"" + strings.Repeat("#", hashes)
	k := strings.Index(text[j+1:], closing)
	if k < 0 {
		return len(text), true
	}
	return j + 1 + k + len(closing), true
}

// rustCharEnd recognises a character literal at i ('a', '\n', '\u{1F600}',
// '"') and returns the offset just past it; a lifetime ('a, 'static) is not
// one.
func rustCharEnd(text string, i int) (int, bool) {
	if i+1 >= len(text) {
		return 0, false
	}
	if text[i+1] == '\\' {
		// Skip the escaped character, then find the closing quote
		// ('\'', '\n', '\u{1F600}').
		for j := i + 3; j < len(text) && j < i+16; j++ {
			if text[j] == '\'' {
				return j + 1, true
			}
			if text[j] == '\n' {
				break
			}
		}
		return 0, false
	}
	_, size := utf8.DecodeRuneInString(text[i+1:])
	if k := i + 1 + size; k < len(text) && text[k] == '\'' && text[i+1] != '\n' {
		return k + 1, true
	}
	return 0, false
}

// matchBrace returns the offset of the brace closing the one opened at
// open in masked text, or -1.
func matchBrace(m string, open int) int {
	depth := 0
	for j := open; j < len(m); j++ {
		switch m[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// item is one declaration found by scanItems: bytes [start, end) of the
// masked text, the offset of its body's opening brace (or -1) and its kind
// keyword ("fn", "struct", "impl", "use", "func", "type", ... or "").
type item struct {
	start, end, body int
	kind             string
}

// scanItems splits masked[from:to] into top-level items: each runs from
// its first non-blank byte to a ";" at nesting depth 0 or to the brace that
// closes its body (and a ";" right after it). Attributes (#[...]) belong to
// the item they precede. With goSemis, a line break at depth 0 also ends an
// item where Go would insert a semicolon (after a name, a literal or a
// closing bracket).
func scanItems(m string, from, to int, goSemis bool) []item {
	var out []item
	i := from
	for i < to {
		for i < to && isSpace(m[i]) {
			i++
		}
		if i >= to {
			break
		}
		it := item{start: i, body: -1}
		paren := 0
		j := i
		var last byte // last non-blank byte on the current line
	scan:
		for ; j < to; j++ {
			c := m[j]
			if c == '\n' {
				if goSemis && paren == 0 && endsStatement(last) {
					j++
					break scan
				}
				last = 0
			} else if c != ' ' && c != '\t' && c != '\r' {
				last = c
			}
			switch c {
			case '(', '[':
				paren++
			case ')', ']':
				if paren > 0 {
					paren--
				}
			case ';':
				if paren == 0 {
					j++
					break scan
				}
			case '{':
				if paren > 0 {
					continue
				}
				it.body = j
				closeAt := matchBrace(m[:to], j)
				if closeAt < 0 {
					j = to
					break scan
				}
				j = closeAt + 1
				k := j
				for k < to && (m[k] == ' ' || m[k] == '\t') {
					k++
				}
				if k < to && m[k] == ';' {
					j = k + 1
				}
				break scan
			}
		}
		it.end = min(j, to)
		hdrEnd := it.end
		if it.body >= 0 {
			hdrEnd = it.body
		}
		it.kind = itemKind(m[it.start:hdrEnd])
		out = append(out, it)
		i = it.end
	}
	return out
}

// endsStatement reports whether a Go line ending in c gets a semicolon.
func endsStatement(c byte) bool {
	return c == '_' || isAlnum(c) || c >= utf8.RuneSelf || c == '"' || c == '`' || c == '\'' ||
		c == ')' || c == ']' || c == '}'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// modifiers are words that may precede an item's keyword.
var modifiers = map[string]bool{
	"pub": true, "crate": true, "self": true, "super": true, "in": true, "async": true,
	"unsafe": true, "default": true,
}

// itemKind returns the keyword that says what a declaration header (masked)
// declares: the first word that is not a modifier, skipping attributes;
// "const" and "extern" count as modifiers when a function follows.
func itemKind(hdr string) string {
	words := headerWords(hdr)
	for k, w := range words {
		if modifiers[w] {
			continue
		}
		if (w == "const" || w == "extern") && k+1 < len(words) {
			nx := words[k+1]
			if nx == "fn" || nx == "unsafe" || nx == "async" || (w == "extern" && nx != "crate") {
				continue
			}
		}
		return w
	}
	return ""
}

// headerWords returns the identifiers of a header in order, outside
// attributes (#[...], #![...]) and parentheses (pub(crate)).
func headerWords(hdr string) []string {
	var words []string
	depth := 0
	for i := 0; i < len(hdr); {
		c := hdr[i]
		switch {
		case c == '#' && i+1 < len(hdr) && (hdr[i+1] == '[' || hdr[i+1] == '!'):
			j := strings.IndexByte(hdr[i:], '[')
			if j < 0 {
				return words
			}
			d := 0
			k := i + j
			for ; k < len(hdr); k++ {
				if hdr[k] == '[' {
					d++
				} else if hdr[k] == ']' {
					d--
					if d == 0 {
						break
					}
				}
			}
			i = k + 1
		case c == '(' || c == '[' || c == '<':
			depth++
			i++
		case c == ')' || c == ']' || c == '>':
			if depth > 0 {
				depth--
			}
			i++
		case c == '_' || isAlnum(c) && !('0' <= c && c <= '9'):
			j := i
			for j < len(hdr) && (hdr[j] == '_' || isAlnum(hdr[j]) || hdr[j] == '!') {
				j++
			}
			if depth == 0 {
				words = append(words, strings.TrimSuffix(hdr[i:j], "!"))
			}
			i = j
		default:
			i++
		}
		if len(words) >= 8 {
			break
		}
	}
	return words
}
