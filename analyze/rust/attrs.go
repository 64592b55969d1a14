package rust

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// attrInfo is what the attributes before an item say about it.
type attrInfo struct {
	test        bool     // #[test], #[tokio::test], #[bench], #[rstest], #[test_case(…)]
	cfgTest     bool     // #[cfg(test)] or #[cfg(all(test, …))]
	macroExport bool     // #[macro_export]
	paths       []string // #[path = "…"], also inside #[cfg_attr(…, path = "…")]
}

// add reads one attribute (#[…] as tokens) and returns the text of a
// #[doc = "…"] attribute.
func (a *attrInfo) add(src []byte, toks []token) (string, bool) {
	// Skip # and [.
	i := 0
	for i < len(toks) && toks[i].k == tPunct && (isPunct(src, toks[i], "#") || isPunct(src, toks[i], "[") || isPunct(src, toks[i], "!")) {
		i++
	}
	var last string
	for i < len(toks) && toks[i].k == tIdent {
		last = tokText(src, toks[i])
		i++
		if i < len(toks) && isPunct(src, toks[i], "::") {
			i++
			continue
		}
		break
	}
	rest := toks[i:]
	switch {
	case last == "test" || last == "bench" || last == "rstest" || last == "quickcheck" ||
		strings.HasPrefix(last, "test_") || strings.HasSuffix(last, "_test"):
		a.test = true
	case last == "cfg":
		hasTest, hasNot := false, false
		for _, t := range rest {
			if isIdent(src, t, "test") {
				hasTest = true
			}
			if isIdent(src, t, "not") {
				hasNot = true
			}
		}
		if hasTest && !hasNot {
			a.cfgTest = true
		}
	case last == "macro_export":
		a.macroExport = true
	case last == "path":
		if len(rest) >= 2 && isPunct(src, rest[0], "=") && rest[1].k == tLit {
			a.paths = append(a.paths, unquote(src, rest[1]))
		}
	case last == "cfg_attr":
		for j := 0; j+2 < len(rest); j++ {
			if isIdent(src, rest[j], "path") && isPunct(src, rest[j+1], "=") && rest[j+2].k == tLit {
				a.paths = append(a.paths, unquote(src, rest[j+2]))
			}
		}
	case last == "doc":
		if len(rest) >= 2 && isPunct(src, rest[0], "=") && rest[1].k == tLit {
			return strings.TrimSpace(unquote(src, rest[1])), true
		}
	}
	return "", false
}

// docText returns the documentation in a comment: /// and /** */ are outer
// docs, //! and /*! */ inner docs; anything else is not documentation.
func docText(c []byte) (doc string, inner, ok bool) {
	switch {
	case bytes.HasPrefix(c, []byte("///")) && !bytes.HasPrefix(c, []byte("////")):
		return lineDoc(c[3:]), false, true
	case bytes.HasPrefix(c, []byte("//!")):
		return lineDoc(c[3:]), true, true
	case bytes.HasPrefix(c, []byte("/**")) && !bytes.HasPrefix(c, []byte("/***")) && !bytes.Equal(c, []byte("/**/")):
		return blockDoc(c[3:]), false, true
	case bytes.HasPrefix(c, []byte("/*!")):
		return blockDoc(c[3:]), true, true
	}
	return "", false, false
}

func lineDoc(b []byte) string {
	b = bytes.TrimRight(b, "\r\n")
	if len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	return validUTF8(string(bytes.TrimRight(b, " \t")))
}

func blockDoc(b []byte) string {
	b = bytes.TrimSuffix(b, []byte("*/"))
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "*")
		lines[i] = strings.TrimPrefix(strings.TrimRight(l, " \t\r"), " ")
	}
	return validUTF8(strings.TrimSpace(strings.Join(lines, "\n")))
}

// joinDocs joins the doc lines before an item, trimming blank edges.
func joinDocs(docs []string) string {
	if len(docs) == 0 {
		return ""
	}
	return strings.TrimSpace(strings.Join(docs, "\n"))
}

// hasPub reports whether the item text starts with a plain `pub`
// (pub(crate), pub(super) and pub(in …) are not exported).
func hasPub(src []byte, s, e int) bool {
	if e-s < 4 || !bytes.HasPrefix(src[s:e], []byte("pub")) || isIdentByte(src[s+3]) {
		return false
	}
	i := s + 3
	for i < e && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i < e && src[i] != '('
}

// identText returns an identifier's text without a raw r# prefix, or ""
// when the bytes are not a plausible identifier (error recovery).
func identText(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("r#"))
	if len(b) == 0 || len(b) > 256 {
		return ""
	}
	s := validUTF8(string(b))
	if b[0] == '$' { // a macro metavariable standing for a name
		return ""
	}
	return s
}

// maxSignature caps a signature's length in bytes.
const maxSignature = 300

// signature returns src[s:e] as one line: white space runs collapsed,
// comments dropped, a trailing `{`, `;` or `,` removed, capped in length.
func signature(src []byte, s, e int) string {
	sig := collapse(src, s, e)
	sig = strings.TrimRight(sig, " {;,")
	if len(sig) > maxSignature {
		cut := maxSignature
		for cut > 0 && !utf8.RuneStart(sig[cut]) {
			cut--
		}
		sig = sig[:cut] + "…"
	}
	return sig
}

// collapse returns src[s:e] with comments removed and white space runs
// replaced by one space.
func collapse(src []byte, s, e int) string {
	var b strings.Builder
	space := false
	for i := s; i < e; {
		c := src[i]
		switch {
		case c == '/' && i+1 < e && src[i+1] == '/':
			for i < e && src[i] != '\n' {
				i++
			}
			space = true
			continue
		case c == '/' && i+1 < e && src[i+1] == '*':
			i = skipBlockComment(src, i, e)
			space = true
			continue
		case c == '"':
			j := skipQuoted(src, i+1, e, '"')
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.Write(src[i:j])
			i = j
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			space = true
			i++
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
		i++
		if b.Len() > 4*maxSignature {
			break
		}
	}
	return validUTF8(b.String())
}

func validUTF8(s string) string { return analyze.ToValidUTF8(s) }
