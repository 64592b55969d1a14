package scip

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	pb "github.com/sourcegraph/scip/bindings/go/scip"
)

// text is a file's content split into lines, for turning SCIP positions
// into byte offsets and checking that occurrences still line up.
type text struct {
	src   []byte
	lines [][]byte // without line endings
	enc   pb.PositionEncoding
}

func newText(src []byte, enc pb.PositionEncoding) *text {
	t := &text{src: src, enc: enc}
	rest := src
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			t.lines = append(t.lines, rest)
			break
		}
		t.lines = append(t.lines, bytes.TrimSuffix(rest[:i], []byte("\r")))
		rest = rest[i+1:]
	}
	return t
}

// span is a decoded SCIP range: 0-based lines, byte columns, end exclusive.
type span struct {
	startLine, startCol, endLine, endCol int
}

// decodeRange turns a SCIP range ([line, char, char] or [line, char, line,
// char], characters in the document's encoding) into byte columns, and
// reports whether it lies inside the file.
func (t *text) decodeRange(r []int32) (span, bool) {
	var sl, sc, el, ec int32
	switch len(r) {
	case 3:
		sl, sc, el, ec = r[0], r[1], r[0], r[2]
	case 4:
		sl, sc, el, ec = r[0], r[1], r[2], r[3]
	default:
		return span{}, false
	}
	if sl < 0 || sc < 0 || el < sl || ec < 0 || (el == sl && ec < sc) || int(el) >= len(t.lines) {
		return span{}, false
	}
	bsc, ok1 := t.byteCol(int(sl), int(sc))
	bec, ok2 := t.byteCol(int(el), int(ec))
	if !ok1 || !ok2 {
		return span{}, false
	}
	return span{int(sl), bsc, int(el), bec}, true
}

// byteCol converts a character offset on a line to a byte offset.
func (t *text) byteCol(line, char int) (int, bool) {
	l := t.lines[line]
	switch t.enc {
	case pb.PositionEncoding_UTF8CodeUnitOffsetFromLineStart:
		return char, char <= len(l)
	case pb.PositionEncoding_UTF32CodeUnitOffsetFromLineStart:
		n, i := 0, 0
		for i < len(l) && n < char {
			_, size := utf8.DecodeRune(l[i:])
			i += size
			n++
		}
		return i, n == char
	}
	// UTF-16, the unspecified default (the LSP convention that
	// scip-typescript and scip-python follow).
	n, i := 0, 0
	for i < len(l) && n < char {
		r, size := utf8.DecodeRune(l[i:])
		i += size
		units := utf16.RuneLen(r)
		if units < 0 { // an invalid byte counts as one unit
			units = 1
		}
		n += units
	}
	return i, n == char
}

// at returns the text of a single-line span.
func (t *text) at(s span) string {
	if s.startLine != s.endLine {
		return ""
	}
	l := t.lines[s.startLine]
	if s.startCol > s.endCol || s.endCol > len(l) {
		return ""
	}
	return string(l[s.startCol:s.endCol])
}

// followedBy reports the first non-blank byte after the span on its line
// (or 0).
func (t *text) followedBy(s span) byte {
	l := t.lines[s.endLine]
	for i := s.endCol; i < len(l); i++ {
		if l[i] != ' ' && l[i] != '\t' {
			return l[i]
		}
	}
	return 0
}

// extendUp widens a symbol's first line (0-based) upward over the lines
// that belong to it: doc comments, attributes and decorators written just
// above it.
func (t *text) extendUp(line int) int {
	for line > 0 {
		prev := strings.TrimSpace(string(t.lines[line-1]))
		if !belongsBelow(prev) {
			break
		}
		line--
	}
	return line
}

// belongsBelow reports whether a line is a comment, attribute or decorator
// that documents the declaration below it.
func belongsBelow(l string) bool {
	switch {
	case l == "":
		return false
	case strings.HasPrefix(l, "///"), strings.HasPrefix(l, "//!"), strings.HasPrefix(l, "//"),
		strings.HasPrefix(l, "/**"), strings.HasPrefix(l, "/*"), strings.HasPrefix(l, "*"),
		strings.HasPrefix(l, "#["), strings.HasPrefix(l, "#"), strings.HasPrefix(l, "@"):
		return true
	}
	return false
}
