package bundle

import (
	"fmt"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// lineRange is a run of lines, 1-based and inclusive.
type lineRange struct{ start, end int }

func (r lineRange) len() int { return r.end - r.start + 1 }

// srcFile is the text of a file or extra, split into lines.
type srcFile struct {
	text   string   // valid UTF-8
	lines  []string // without their "\n"
	offs   []int    // byte offset of each line's start
	lang   analyze.Lang
	masked string // text with comments and literals blanked; see mask

	keyOnce     sync.Once
	textKey     textKey // key, the text's in the process's memos
	importsOnce sync.Once
	imports     []lineRange // importRanges
}

func newSrc(data []byte, lang analyze.Lang) *srcFile {
	s := &srcFile{text: analyze.ToValidUTF8(string(data)), lang: lang}
	rest := s.text
	off := 0
	for len(rest) > 0 {
		i := strings.IndexByte(rest, '\n')
		s.offs = append(s.offs, off)
		if i < 0 {
			s.lines = append(s.lines, rest)
			break
		}
		s.lines = append(s.lines, rest[:i])
		rest = rest[i+1:]
		off += i + 1
	}
	return s
}

func (s *srcFile) n() int { return len(s.lines) }

// key is the text's key in the process's memos (skeletons, goImports),
// hashed once per file.
func (s *srcFile) key() textKey {
	s.keyOnce.Do(func() { s.textKey = keyOfText(s.text) })
	return s.textKey
}

// maskedText returns the text with comments and literal contents blanked,
// computed once.
func (s *srcFile) maskedText() string {
	if s.masked == "" && s.text != "" {
		s.masked = mask(s.text, s.lang)
	}
	return s.masked
}

// lineOf returns the 1-based line holding byte offset off.
func (s *srcFile) lineOf(off int) int {
	return sort.Search(len(s.offs), func(i int) bool { return s.offs[i] > off })
}

// whole returns the full text ending in a line break (empty for an empty file).
func (s *srcFile) whole() string {
	if s.text == "" || strings.HasSuffix(s.text, "\n") {
		return s.text
	}
	return s.text + "\n"
}

// clamp limits r to the file's lines; ok is false when nothing is left.
func (s *srcFile) clamp(r lineRange) (lineRange, bool) {
	r.start = max(r.start, 1)
	r.end = min(r.end, s.n())
	return r, r.start <= r.end
}

// mergeRanges sorts ranges and merges those that overlap or are separated
// by at most gap lines (an elision marker costs a line, so hiding one line
// saves nothing).
func mergeRanges(rs []lineRange, gap int) []lineRange {
	if len(rs) == 0 {
		return nil
	}
	sorted := append([]lineRange(nil), rs...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].start != sorted[j].start {
			return sorted[i].start < sorted[j].start
		}
		return sorted[i].end < sorted[j].end
	})
	out := []lineRange{sorted[0]}
	for _, r := range sorted[1:] {
		last := &out[len(out)-1]
		if r.start <= last.end+gap+1 {
			last.end = max(last.end, r.end)
			continue
		}
		out = append(out, r)
	}
	return out
}

// render shows the given ranges (sorted, disjoint, within the file) with an
// elision marker for every hidden run of lines, before, between and after
// them. The result ends in a line break.
func (s *srcFile) render(shown []lineRange) string {
	var b strings.Builder
	next := 1
	for _, r := range shown {
		if r.start > next {
			b.WriteString(s.marker(next, r.start-1))
		}
		for l := r.start; l <= r.end; l++ {
			b.WriteString(s.lines[l-1])
			b.WriteByte('\n')
		}
		next = r.end + 1
	}
	if next <= s.n() && len(shown) > 0 {
		b.WriteString(s.marker(next, s.n()))
	}
	return b.String()
}

// shownLines counts the lines in ranges.
func shownLines(rs []lineRange) int {
	n := 0
	for _, r := range rs {
		n += r.len()
	}
	return n
}

// marker is the line that stands for hidden lines a..b, indented like the
// first of them and written as a comment in languages that have one.
func (s *srcFile) marker(a, b int) string {
	indent := leadingSpace(s.lines[a-1])
	what := fmt.Sprintf("… lines %d-%d elided", a, b)
	if a == b {
		what = fmt.Sprintf("… line %d elided", a)
	}
	if c := commentPrefix(s.lang); c != "" {
		return indent + c + what + "\n"
	}
	return indent + what + "\n"
}

func leadingSpace(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[:i]
}

// formatRanges writes ranges as "1-8,40-72" (a single line as "12").
func formatRanges(rs []lineRange) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteByte(',')
		}
		if r.start == r.end {
			fmt.Fprintf(&b, "%d", r.start)
		} else {
			fmt.Fprintf(&b, "%d-%d", r.start, r.end)
		}
	}
	return b.String()
}

// importRanges returns the lines that declare the file's package and
// imports: the package clause and import declarations in Go; use, extern
// crate and out-of-line mod declarations at the top level in Rust.
// They are found once per file and, for Go, once per text in the
// process (goImports); callers must not change them.
func (s *srcFile) importRanges() []lineRange {
	s.importsOnce.Do(func() { s.imports = s.findImportRanges() })
	return s.imports
}

func (s *srcFile) findImportRanges() []lineRange {
	switch s.lang {
	case analyze.LangGo:
		return goImports.of(s.key(), false, s.goImportRanges)
	case analyze.LangRust:
		return s.rustImportRanges()
	case analyze.LangTypeScript, analyze.LangJavaScript, analyze.LangPython:
		return s.scriptImportRanges()
	}
	return nil
}

func (s *srcFile) goImportRanges() []lineRange {
	fset := token.NewFileSet()
	// A file with syntax errors still yields what parsed before them.
	f, _ := parser.ParseFile(fset, "", s.text, parser.ImportsOnly|parser.SkipObjectResolution)
	if f == nil || !f.Package.IsValid() || f.Name == nil || !f.Name.End().IsValid() {
		return nil
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	var out []lineRange
	add := func(from, to token.Pos) {
		if r, ok := s.clamp(lineRange{line(from), line(to)}); ok && from.IsValid() && to.IsValid() {
			out = append(out, r)
		}
	}
	add(f.Package, f.Name.End())
	for _, d := range f.Decls {
		add(d.Pos(), d.End())
	}
	return mergeRanges(out, 1)
}

// rustImportRanges finds top-level use, extern crate and "mod name;" items.
func (s *srcFile) rustImportRanges() []lineRange {
	m := s.maskedText()
	var out []lineRange
	for _, it := range scanItems(m, 0, len(m), false) {
		switch it.kind {
		case "use":
		case "mod", "extern": // "mod name;" and "extern crate name;", not blocks
			if it.body >= 0 {
				continue
			}
		default:
			continue
		}
		out = append(out, lineRange{s.lineOf(it.start), s.lineOf(it.end - 1)})
	}
	return mergeRanges(out, 0)
}
