package bundle

import (
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Skeletons of languages known only through SCIP indexes (TypeScript,
// JavaScript, Python): built from the symbols' spans alone, which the
// index gives exactly, with no parser of ours. Imports are kept; an
// interface, enum or type alias whole; a class as its header, its members
// each rendered the same way, and its closing line; a function or method
// as its doc comment, decorators and signature (up to the line that opens
// the body), a marker for the body, and its closing line when that is a
// lone brace; anything else as its head.

// isSpanLang reports whether a file's skeleton comes from spanSkeleton.
func isSpanLang(l analyze.Lang) bool {
	return l == analyze.LangTypeScript || l == analyze.LangJavaScript || l == analyze.LangPython
}

// commentPrefix is how a line comment starts, "" when the language has
// none we know.
func commentPrefix(l analyze.Lang) string {
	switch l {
	case analyze.LangGo, analyze.LangRust, analyze.LangTypeScript, analyze.LangJavaScript:
		return "// "
	case analyze.LangPython:
		return "# "
	}
	return ""
}

// spanSkeleton renders the skeleton of a file from its symbols.
func spanSkeleton(s *srcFile, syms []Symbol) (string, []string) {
	var valid []Symbol
	for _, sym := range syms {
		if sym.Start < 1 || sym.End < sym.Start || sym.Start > s.n() || sym.Kind == "mod" {
			continue
		}
		sym.End = min(sym.End, s.n())
		sym.DeclLine = min(max(sym.DeclLine, sym.Start), sym.End)
		valid = append(valid, sym)
	}
	sort.SliceStable(valid, func(i, j int) bool {
		if valid[i].Start != valid[j].Start {
			return valid[i].Start < valid[j].Start
		}
		return valid[i].End > valid[j].End
	})
	var b strings.Builder
	var names []string
	last := 0 // last line written
	emit := func(from, to int) {
		for l := max(from, last+1); l <= to; l++ {
			b.WriteString(s.lines[l-1])
			b.WriteByte('\n')
			last = l
		}
	}
	for _, r := range s.importRanges() {
		emit(r.start, r.end)
	}
	var render func(i, depth int) int
	// render writes valid[i] and its members, returning the index of the
	// first symbol after it.
	render = func(i, depth int) int {
		sym := valid[i]
		j := i + 1
		if sym.Start <= last {
			for j < len(valid) && valid[j].Start <= sym.End {
				j++
			}
			return j
		}
		if depth == 0 {
			names = append(names, qualName(sym, s.lang))
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
		}
		switch sym.Kind {
		case "interface", "enum", "type_alias", "type", "trait", "union":
			emit(sym.Start, sym.End)
			for j < len(valid) && valid[j].Start <= sym.End {
				j++
			}
			return j
		case "struct":
			head := s.bodyOpen(sym)
			emit(sym.Start, s.docstringEnd(head, sym.End))
			for j < len(valid) && valid[j].Start <= sym.End {
				if valid[j].Start > last {
					j = render(j, depth+1)
				} else {
					j++
				}
			}
			if sym.End > last {
				closing := s.closes(sym.End)
				if to := sym.End - btoi(closing); to > last {
					b.WriteString(s.marker(last+1, to))
					last = to
				}
				if closing {
					emit(sym.End, sym.End)
				}
			}
			return j
		case "func", "method":
			head := s.bodyOpen(sym)
			emit(sym.Start, s.docstringEnd(head, sym.End))
			for j < len(valid) && valid[j].Start <= sym.End {
				j++ // nested definitions go with the body
			}
			bodyEnd := sym.End
			if s.closes(sym.End) {
				bodyEnd--
			}
			if bodyEnd > last {
				b.WriteString(s.marker(last+1, bodyEnd))
				last = bodyEnd
			}
			emit(sym.End, sym.End)
			return j
		}
		emit(sym.Start, min(sym.End, sym.Start+longItemLines-1))
		if sym.End > last {
			b.WriteString(s.marker(last+1, sym.End))
			last = sym.End
		}
		for j < len(valid) && valid[j].Start <= sym.End {
			j++
		}
		return j
	}
	for i := 0; i < len(valid); {
		i = render(i, 0)
	}
	return b.String(), names
}

// bodyOpen is the last line of a symbol's header: the first line from its
// name on that opens a body ("{" at its end, or ":" for Python), within
// a few lines; the name's line when none does.
func (s *srcFile) bodyOpen(sym Symbol) int {
	for l := sym.DeclLine; l <= min(sym.End, sym.DeclLine+6); l++ {
		t := strings.TrimRight(s.lines[l-1], " \t\r")
		if i := strings.Index(t, " #"); s.lang == analyze.LangPython && i >= 0 {
			t = strings.TrimRight(t[:i], " \t")
		}
		if strings.HasSuffix(t, "{") || s.lang == analyze.LangPython && strings.HasSuffix(t, ":") {
			return l
		}
		if strings.HasSuffix(t, "{}") || strings.HasSuffix(t, ";") {
			return l // an empty body, or a declaration without one
		}
	}
	return sym.DeclLine
}

// closes reports whether a line is only closing brackets (the end of a
// body in a brace language).
func (s *srcFile) closes(l int) bool {
	if s.lang == analyze.LangPython || l < 1 || l > s.n() {
		return false
	}
	t := strings.TrimSpace(s.lines[l-1])
	return t != "" && strings.Trim(t, "});,") == ""
}

// scriptImportRanges are the import lines of a TypeScript, JavaScript or
// Python file: top-level import statements (with their continuation lines)
// and CommonJS requires.
func (s *srcFile) scriptImportRanges() []lineRange {
	var out []lineRange
	for i := 0; i < s.n(); i++ {
		t := s.lines[i]
		var starts bool
		switch s.lang {
		case analyze.LangPython:
			starts = strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ") && strings.Contains(t, " import")
		default:
			starts = strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "export * from ") ||
				(strings.HasPrefix(t, "const ") && strings.Contains(t, "require("))
		}
		if !starts {
			continue
		}
		end := i
		open := strings.Count(t, "(") + strings.Count(t, "{") - strings.Count(t, ")") - strings.Count(t, "}")
		for open > 0 && end+1 < s.n() && end-i < 50 {
			end++
			open += strings.Count(s.lines[end], "(") + strings.Count(s.lines[end], "{") - strings.Count(s.lines[end], ")") - strings.Count(s.lines[end], "}")
		}
		if n := len(out); n > 0 && out[n-1].end >= i-1 {
			out[n-1].end = end + 1
		} else {
			out = append(out, lineRange{i + 1, end + 1})
		}
		i = end
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// docstringEnd extends a Python header ending on line head over the
// docstring that opens the body (at most a few lines), so that the
// skeleton keeps what the definition is for.
func (s *srcFile) docstringEnd(head, end int) int {
	if s.lang != analyze.LangPython || head >= end {
		return head
	}
	t := strings.TrimSpace(s.lines[head])
	var q string
	switch {
	case strings.HasPrefix(t, `"""`), strings.HasPrefix(t, `r"""`):
		q = `"""`
	case strings.HasPrefix(t, "'''"):
		q = "'''"
	default:
		return head
	}
	rest := t[strings.Index(t, q)+3:]
	if strings.Contains(rest, q) {
		return head + 1
	}
	for l := head + 2; l <= min(end, head+6); l++ {
		if strings.Contains(s.lines[l-1], q) {
			return l
		}
	}
	return head
}
