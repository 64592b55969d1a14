package lsp

import (
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Servers report a declaration's range without its doc comment (gopls) or
// with it (rust-analyzer), and their detail strings differ; the loader
// reads the comment, the header and the declaring keyword from the source
// itself, the same way for every server. Lines here are 1-based indexes
// into a file's lines.

// splitLines splits src into lines without their terminators.
func splitLines(src []byte) []string {
	s := string(src)
	lines := strings.Split(s, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// line returns line n (1-based) or "" outside the file.
func line(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// isCommentLine reports whether a trimmed line is a line comment or part
// of a block comment, or (in Rust) an attribute, which belongs to the
// declaration below it as much as its doc comment does.
func isCommentLine(t string, lang analyze.Lang) bool {
	switch {
	case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/*"):
		return true
	case strings.HasSuffix(t, "*/") && !strings.Contains(t, "/*"):
		return true // the last line of a block comment
	case lang == analyze.LangRust && (strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "#![")):
		return true
	}
	return false
}

// extendUp returns the first line of the doc comment (and, in Rust, the
// attributes) directly above line start, or start when there is none. A
// blank line ends the comment, as it ends a Go doc comment.
func extendUp(lines []string, start int, lang analyze.Lang) int {
	first := start
	for n := start - 1; n >= 1; n-- {
		t := strings.TrimSpace(line(lines, n))
		if t == "" || !isCommentLine(t, lang) {
			break
		}
		if strings.HasSuffix(t, "*/") && !strings.Contains(t, "/*") {
			// The end of a block comment: take it whole, up to its opening line.
			m := n
			for m > 1 && !strings.Contains(line(lines, m), "/*") {
				m--
			}
			if !strings.Contains(line(lines, m), "/*") {
				break
			}
			n = m
		}
		first = n
	}
	return first
}

// docText is the text of the comment lines among [from, to), with comment
// markers stripped; attributes and code lines are left out.
func docText(lines []string, from, to int) string {
	var out []string
	inBlock := false
	for n := from; n < to; n++ {
		t := strings.TrimSpace(line(lines, n))
		switch {
		case inBlock:
			if i := strings.Index(t, "*/"); i >= 0 {
				t, inBlock = t[:i], false
			}
			t = strings.TrimPrefix(strings.TrimPrefix(t, "*"), " ")
		case strings.HasPrefix(t, "/*"):
			t = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "/*"), "*"), "!")
			if i := strings.Index(t, "*/"); i >= 0 {
				t = t[:i]
			} else {
				inBlock = true
			}
			t = strings.TrimSpace(t)
		case strings.HasPrefix(t, "//"):
			t = strings.TrimPrefix(t, "//")
			if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "!") {
				t = t[1:] // Rust /// and //!
			}
			if strings.HasPrefix(t, "go:") || strings.HasPrefix(t, "nolint") {
				continue // directives are not documentation
			}
			t = strings.TrimPrefix(t, " ")
		default:
			continue
		}
		out = append(out, strings.TrimRight(t, " \t"))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	return strings.Join(out, "\n")
}

// firstCodeLine is the first line in [from, to] that is neither blank, a
// comment nor an attribute: where the declaration proper starts.
func firstCodeLine(lines []string, from, to int, lang analyze.Lang) int {
	inBlock := false
	for n := from; n <= to; n++ {
		t := strings.TrimSpace(line(lines, n))
		if inBlock {
			if strings.Contains(t, "*/") {
				inBlock = false
			}
			continue
		}
		if strings.HasPrefix(t, "/*") && !strings.Contains(t, "*/") {
			inBlock = true
			continue
		}
		if t == "" || isCommentLine(t, lang) {
			continue
		}
		return n
	}
	return to
}

const (
	maxDeclLines = 8
	maxHeaderLen = 300
)

// header is a declaration's header on one line: the source from line n,
// column col (in bytes; clamped) up to the body's opening brace or a
// terminating semicolon at nesting depth zero, or to line last,
// whichever comes first, with comments dropped and white space collapsed.
func header(lines []string, n, col, last int) string {
	var b strings.Builder
	depth := 0
	for count := 0; n <= last && n <= len(lines) && count < maxDeclLines && b.Len() < maxHeaderLen*2; n, count = n+1, count+1 {
		text := line(lines, n)
		if col > 0 {
			if col > len(text) {
				col = len(text)
			}
			text = text[col:]
			col = 0
		}
		text = stripLineComment(text)
		for i := 0; i < len(text); i++ {
			switch c := text[i]; c {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			case '{', ';':
				if depth <= 0 {
					b.WriteString(text[:i])
					return squash(b.String())
				}
			}
		}
		b.WriteString(text)
		b.WriteByte(' ')
	}
	return squash(b.String())
}

// squash collapses runs of white space and trims the result to a length
// fit for one line.
func squash(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxHeaderLen {
		cut := maxHeaderLen
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut-- // never split a UTF-8 sequence
		}
		s = s[:cut] + "…"
	}
	return s
}

// stripLineComment drops a trailing // comment, leaving "//" inside
// string and character literals alone.
func stripLineComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '`':
			quote = c
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			return s[:i]
		}
	}
	return s
}

// rustKeywords are the item keywords that decide a Rust symbol's kind.
var rustKeywords = map[string]analyze.SymbolKind{
	"fn": analyze.KindFunc, "struct": analyze.KindStruct, "enum": analyze.KindEnum,
	"union": analyze.KindUnion, "trait": analyze.KindTrait, "impl": analyze.KindImpl,
	"mod": analyze.KindModule, "type": analyze.KindTypeAlias, "static": analyze.KindStatic,
	"const": analyze.KindConst, "macro_rules": analyze.KindMacro, "macro": analyze.KindMacro,
}

// rustKeywordKind is the kind the last item keyword before the name in a
// Rust header declares ("pub const fn" declares a fn), or KindUnknown.
func rustKeywordKind(head, name string) analyze.SymbolKind {
	if i := indexWord(head, name); i > 0 {
		head = head[:i]
	}
	kind := analyze.KindUnknown
	for _, w := range strings.FieldsFunc(head, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if k, ok := rustKeywords[w]; ok {
			kind = k
		}
	}
	return kind
}

// indexWord is the index of name in s as a whole word, or -1.
func indexWord(s, name string) int {
	if name == "" {
		return -1
	}
	for from := 0; ; {
		i := strings.Index(s[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(name)
		if (i == 0 || !isIdentByte(s[i-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return i
		}
		from = i + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// hasWord reports whether s contains w as a whole word.
func hasWord(s, w string) bool { return indexWord(s, w) >= 0 }
