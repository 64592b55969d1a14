package rust

import (
	"unicode"
	"unicode/utf8"
)

// tokKind is the class of a lexical token.
type tokKind uint8

const (
	tIdent    tokKind = iota + 1 // identifier or keyword (raw identifiers without their r#)
	tPunct                       // operator or delimiter
	tLit                         // string, char or number literal
	tLifetime                    // 'a, 'static, loop labels
)

// token is a lexical token: its class and byte range in the source.
type token struct {
	k    tokKind
	s, e int32
}

// lex appends the tokens of src[from:to] to toks and returns it. Comments
// and white space are dropped. Multi-character operators are kept whole only
// where the scanners need them (::, ->, =>, .., !=, ==, <=, >=, &&, ||);
// everything else, including > and <, is one character, so that nested
// generic brackets close one at a time. Malformed input (an unterminated
// string or comment) ends the token stream at the end of the range.
func lex(src []byte, from, to int, toks []token) []token {
	if to > len(src) {
		to = len(src)
	}
	i := from
	for i < to {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < to && src[i+1] == '/':
			for i < to && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < to && src[i+1] == '*':
			i = skipBlockComment(src, i, to)
		case c == '"':
			j := skipQuoted(src, i+1, to, '"')
			toks = append(toks, token{tLit, int32(i), int32(j)})
			i = j
		case c == '\'':
			j, k := lexQuote(src, i, to)
			toks = append(toks, token{k, int32(i), int32(j)})
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < to && (isIdentByte(src[j]) || (src[j] == '.' && j+1 < to && src[j+1] >= '0' && src[j+1] <= '9' && src[j-1] != '.')) {
				j++
			}
			toks = append(toks, token{tLit, int32(i), int32(j)})
			i = j
		case isIdentStart(c):
			if j, ok := lexPrefixedLiteral(src, i, to); ok {
				toks = append(toks, token{tLit, int32(i), int32(j)})
				i = j
				continue
			}
			s := i
			if c == 'r' && i+2 < to && src[i+1] == '#' && isIdentStart(src[i+2]) {
				s = i + 2 // raw identifier r#type
			}
			j := s + 1
			for j < to && isIdentByte(src[j]) {
				j++
			}
			j = extendUnicodeIdent(src, j, to)
			toks = append(toks, token{tIdent, int32(s), int32(j)})
			i = j
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(src[i:to])
			if r != utf8.RuneError && (unicode.IsLetter(r) || r == '_') {
				j := extendUnicodeIdent(src, i+size, to)
				toks = append(toks, token{tIdent, int32(i), int32(j)})
				i = j
				continue
			}
			i += size
		default:
			n := 1
			if i+1 < to {
				switch [2]byte{c, src[i+1]} {
				case [2]byte{':', ':'}, [2]byte{'-', '>'}, [2]byte{'=', '>'}, [2]byte{'!', '='},
					[2]byte{'=', '='}, [2]byte{'<', '='}, [2]byte{'>', '='}, [2]byte{'&', '&'}, [2]byte{'|', '|'}:
					n = 2
				case [2]byte{'.', '.'}:
					n = 2
					if i+2 < to && (src[i+2] == '.' || src[i+2] == '=') {
						n = 3
					}
				}
			}
			toks = append(toks, token{tPunct, int32(i), int32(i + n)})
			i += n
		}
	}
	return toks
}

func isIdentStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isIdentByte(c byte) bool {
	return isIdentStart(c) || ('0' <= c && c <= '9')
}

// extendUnicodeIdent continues an identifier over non-ASCII letters and
// digits and any ASCII identifier bytes after them.
func extendUnicodeIdent(src []byte, j, to int) int {
	for j < to {
		if isIdentByte(src[j]) {
			j++
			continue
		}
		if src[j] < utf8.RuneSelf {
			break
		}
		r, size := utf8.DecodeRune(src[j:to])
		if r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		j += size
	}
	return j
}

// skipBlockComment returns the offset after the (nested) block comment that
// starts at i.
func skipBlockComment(src []byte, i, to int) int {
	depth := 0
	for i < to {
		if src[i] == '/' && i+1 < to && src[i+1] == '*' {
			depth++
			i += 2
			continue
		}
		if src[i] == '*' && i+1 < to && src[i+1] == '/' {
			depth--
			i += 2
			if depth == 0 {
				return i
			}
			continue
		}
		i++
	}
	return to
}

// skipQuoted returns the offset after the closing quote q, honouring
// backslash escapes; i is just after the opening quote.
func skipQuoted(src []byte, i, to int, q byte) int {
	for i < to {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case q:
			return i + 1
		}
		i++
	}
	return to
}

// lexQuote tells a char literal ('a', '\n', '\u{1F600}') from a lifetime or
// label ('a, 'static) at i and returns its end and class.
func lexQuote(src []byte, i, to int) (int, tokKind) {
	if i+1 >= to {
		return to, tPunct
	}
	if src[i+1] == '\\' {
		return skipQuoted(src, i+1, to, '\''), tLit
	}
	_, size := utf8.DecodeRune(src[i+1 : to])
	if j := i + 1 + size; j < to && src[j] == '\'' {
		return j + 1, tLit
	}
	j := i + 1
	for j < to && isIdentByte(src[j]) {
		j++
	}
	if j == i+1 {
		return i + 1, tPunct
	}
	return j, tLifetime
}

// lexPrefixedLiteral recognises b"..", b'..', c"..", r"..", r#".."#, br#".."#
// and cr#".."# at i, returning the end offset.
func lexPrefixedLiteral(src []byte, i, to int) (int, bool) {
	j := i
	if src[j] == 'b' || src[j] == 'c' {
		j++
		if j < to && src[j] == '\'' && src[i] == 'b' {
			return skipQuoted(src, j+1, to, '\''), true
		}
	}
	raw := false
	if j < to && src[j] == 'r' {
		raw = true
		j++
	}
	if !raw {
		if j > i && j < to && src[j] == '"' {
			return skipQuoted(src, j+1, to, '"'), true
		}
		return 0, false
	}
	hashes := 0
	for j < to && src[j] == '#' {
		hashes++
		j++
	}
	if j >= to || src[j] != '"' {
		return 0, false
	}
	j++
	for j < to {
		if src[j] == '"' {
			k := j + 1
			n := 0
			for k < to && n < hashes && src[k] == '#' {
				n++
				k++
			}
			if n == hashes {
				return k, true
			}
		}
		j++
	}
	return to, true
}

// tokText returns the text of t.
func tokText(src []byte, t token) string { return string(src[t.s:t.e]) }

// tokBytes returns the bytes of t, for map lookups that need no string.
func tokBytes(src []byte, t token) []byte { return src[t.s:t.e] }

// interner hands out one string per distinct identifier of a file, so that
// the thousands of repeated names in references share their memory.
type interner map[string]string

func (in interner) str(b []byte) string {
	if in == nil {
		return string(b)
	}
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// isPunct reports whether t is the punctuation p.
func isPunct(src []byte, t token, p string) bool {
	return t.k == tPunct && int(t.e-t.s) == len(p) && string(src[t.s:t.e]) == p
}

// isIdent reports whether t is the identifier or keyword w.
func isIdent(src []byte, t token, w string) bool {
	return t.k == tIdent && int(t.e-t.s) == len(w) && string(src[t.s:t.e]) == w
}

// unquote returns the contents of a string literal token with the common
// escapes decoded; raw strings are returned as written.
func unquote(src []byte, t token) string {
	s := src[t.s:t.e]
	for len(s) > 0 && (s[0] == 'b' || s[0] == 'c') {
		s = s[1:]
	}
	if len(s) > 0 && s[0] == 'r' {
		s = s[1:]
		n := 0
		for n < len(s) && s[n] == '#' {
			n++
		}
		if len(s) >= 2*n+2 {
			return string(s[n+1 : len(s)-n-1])
		}
		return ""
	}
	if len(s) < 2 || s[0] != '"' {
		return ""
	}
	s = s[1 : len(s)-1]
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			out = append(out, s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case '0':
			out = append(out, 0)
		case '\n':
			for i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\n' || s[i+1] == '\r') {
				i++
			}
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}
