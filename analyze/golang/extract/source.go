package extract

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"strings"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// maxSignature caps the length of a one-line signature, in bytes.
const maxSignature = 240

// FileFacts fills the content-derived fields of a file record.
func FileFacts(rel string, src []byte) analyze.File {
	sum := sha256.Sum256(src)
	cat := analyze.Classify(rel)
	if analyze.IsGeneratedContent(src) {
		cat = analyze.CatGenerated
	}
	return analyze.File{
		Path:     rel,
		Lang:     analyze.LangGo,
		Category: cat,
		Size:     int64(len(src)),
		Lines:    countLines(src),
		Hash:     hex.EncodeToString(sum[:]),
	}
}

// countLines counts lines the way editors number them: a final line without
// a newline still counts.
func countLines(src []byte) int {
	n := bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// oneLine renders src as a single line: comments removed, every run of
// white space collapsed to one space, string and rune literals kept as
// written, and the result capped at maxSignature bytes.
func oneLine(src []byte) string {
	var b strings.Builder
	b.Grow(len(src))
	space := false
	emit := func(c byte) {
		if space && b.Len() > 0 && !strings.ContainsRune(")],;", rune(c)) {
			if last := b.String()[b.Len()-1]; last != '(' && last != '[' {
				b.WriteByte(' ')
			}
		}
		space = false
		b.WriteByte(c)
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			space = true
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			space = true
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				i = len(src)
			} else {
				i += end + 3
			}
			space = true
		case c == '"' || c == '\'' || c == '`':
			emit(c)
			for i++; i < len(src); i++ {
				d := src[i]
				if d == '\n' && c != '`' {
					break
				}
				if d == '\n' || d == '\r' || d == '\t' {
					d = ' '
				}
				b.WriteByte(d)
				if d == '\\' && c != '`' && i+1 < len(src) {
					i++
					b.WriteByte(src[i])
					continue
				}
				if d == c {
					break
				}
			}
		default:
			emit(c)
		}
		if b.Len() > maxSignature {
			break
		}
	}
	return CapText(b.String(), maxSignature)
}

// CapText cuts s to at most n bytes at a rune boundary, marking the cut
// with an ellipsis, and makes it valid UTF-8.
func CapText(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = strings.TrimRight(s[:cut], " ") + "…"
	}
	return analyze.ToValidUTF8(s)
}

// docText returns the text of the first non-empty comment group.
func docText(groups ...*ast.CommentGroup) string {
	for _, g := range groups {
		if g == nil {
			continue
		}
		if t := strings.TrimSpace(g.Text()); t != "" {
			return analyze.ToValidUTF8(t)
		}
	}
	return ""
}

// SanitizeUTF8 returns src with every byte of an invalid UTF-8 sequence
// replaced by '?', keeping offsets, columns and lines unchanged, and the
// line of the first replacement (0 when src was valid). The go parser
// gives up on a whole file when such a byte follows the package clause;
// the replacement lets it read the rest.
func SanitizeUTF8(src []byte) ([]byte, int) {
	if utf8.Valid(src) {
		return src, 0
	}
	out := make([]byte, len(src))
	copy(out, src)
	first := 0
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		if r == utf8.RuneError && size == 1 {
			if first == 0 {
				first = 1 + bytes.Count(out[:i], []byte{'\n'})
			}
			out[i] = '?'
		}
		i += size
	}
	return out, first
}
