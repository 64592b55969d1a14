package bundle

import (
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// rustBodyPlaceholder replaces an elided Rust body.
const rustBodyPlaceholder = "{ … }"

// longItemLines is the size from which an item that is neither a type
// definition nor a function (a const table, a static, a macro call) is
// shown as its head and last line.
const longItemLines = 8

// symbolSkeleton builds a skeleton from the file's symbols and a masked
// scan of its text. It serves Rust, and Go files that do not parse.
//
// Top-level items come from the symbols (those not inside another symbol's
// span), or from scanning the text when there are none. Imports (use,
// extern crate, mod name;) are kept; struct, enum, union, trait, interface
// and type definitions are kept whole; a function keeps its doc comment,
// attributes and signature and its body becomes "{ … }"; an impl block
// keeps its header and each member the same way; inline modules and macro
// definitions are elided; other long items are cut to their head.
func symbolSkeleton(s *srcFile, syms []Symbol) (string, []string) {
	m := s.maskedText()
	placeholder := rustBodyPlaceholder
	if s.lang == analyze.LangGo {
		placeholder = goBodyPlaceholder
	}
	type piece struct {
		start, end int // byte offsets
		kind       string
		body       int
	}
	var pieces []piece
	for _, r := range s.importRanges() {
		pieces = append(pieces, piece{start: s.offs[r.start-1], end: s.lineEndOff(r.end), kind: "import", body: -1})
	}
	var names []string
	top := topLevel(s, syms)
	if len(top) > 0 {
		for _, sym := range top {
			start := s.offs[s.extendUp(sym.Start)-1]
			end := s.lineEndOff(sym.End)
			names = append(names, qualName(sym, s.lang))
			kind, body := symItem(m, start, end, sym, s.lang == analyze.LangGo)
			pieces = append(pieces, piece{start: start, end: end, kind: kind, body: body})
		}
	} else {
		for _, it := range scanItems(m, 0, len(m), s.lang == analyze.LangGo) {
			if it.kind == "use" || it.kind == "package" || it.kind == "import" {
				continue
			}
			start := s.offs[s.extendUpDocs(s.lineOf(it.start))-1]
			pieces = append(pieces, piece{start: start, end: it.end, kind: it.kind, body: it.body})
			if n := itemName(m[it.start:max(it.start, hdrEnd(it))]); n != "" {
				names = append(names, n)
			}
		}
	}
	sort.SliceStable(pieces, func(i, j int) bool { return pieces[i].start < pieces[j].start })

	var b strings.Builder
	last := -1
	for _, p := range pieces {
		if p.start < last {
			continue // inside a piece already shown (an import inside a module, say)
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.itemSkeleton(p.start, p.end, p.kind, p.body, placeholder))
		b.WriteByte('\n')
		last = p.end
	}
	return b.String(), names
}

func hdrEnd(it item) int {
	if it.body >= 0 {
		return it.body
	}
	return it.end
}

// lineEndOff returns the offset just past line l's text (before its "\n").
func (s *srcFile) lineEndOff(l int) int { return s.offs[l-1] + len(s.lines[l-1]) }

// extendUp moves a symbol's first line up over attribute lines (#[...])
// and doc comment lines directly above it that the loader left out.
func (s *srcFile) extendUp(start int) int {
	for start > 1 {
		t := strings.TrimSpace(s.lines[start-2])
		if strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "///") {
			start--
			continue
		}
		break
	}
	return start
}

// topLevel returns the valid symbols not inside another symbol's lines,
// sorted by position.
func topLevel(s *srcFile, syms []Symbol) []Symbol {
	var valid []Symbol
	for _, sym := range syms {
		if sym.Start < 1 || sym.End < sym.Start || sym.Start > s.n() {
			continue
		}
		sym.End = min(sym.End, s.n())
		switch sym.Kind {
		case "field", "variant", "assoc_type":
			continue
		}
		valid = append(valid, sym)
	}
	sort.SliceStable(valid, func(i, j int) bool {
		if valid[i].Start != valid[j].Start {
			return valid[i].Start < valid[j].Start
		}
		return valid[i].End > valid[j].End
	})
	var out []Symbol
	lastEnd := 0
	for _, sym := range valid {
		if sym.Start <= lastEnd {
			continue
		}
		out = append(out, sym)
		lastEnd = sym.End
	}
	return out
}

// qualName is a symbol's name with its container, joined the way the
// language writes it.
func qualName(sym Symbol, lang analyze.Lang) string {
	if sym.Container == "" || sym.Kind == "impl" {
		return sym.Name
	}
	if lang == analyze.LangRust {
		return sym.Container + "::" + sym.Name
	}
	return sym.Container + "." + sym.Name
}

// symItem classifies a symbol's text: its kind (from the symbol, or the
// header keyword when the symbol's kind is unknown) and its body brace.
func symItem(m string, start, end int, sym Symbol, goSemis bool) (string, int) {
	its := scanItems(m, start, end, goSemis)
	body := -1
	kind := sym.Kind
	if len(its) > 0 {
		it := its[len(its)-1] // attributes and docs fold into the last item
		for _, x := range its {
			if x.body >= 0 {
				it = x
				break
			}
		}
		body = it.body
		if kind == "" || kind == "unknown" {
			kind = it.kind
		}
	}
	return kind, body
}

// itemSkeleton renders one item [start, end) by kind, without trailing
// blank space.
func (s *srcFile) itemSkeleton(start, end int, kind string, body int, placeholder string) string {
	return strings.TrimRight(s.itemText(start, end, kind, body, placeholder), " \t\r\n")
}

func (s *srcFile) itemText(start, end int, kind string, body int, placeholder string) string {
	text := s.text[start:end]
	switch kind {
	case "import", "use", "extern", "struct", "enum", "union", "trait", "interface", "type", "type_alias", "assoc_type":
		return text
	case "func", "method", "fn", "macro", "macro_rules", "mod", "module":
		if body < 0 || body >= end {
			return s.headOnly(start, end)
		}
		return strings.TrimRight(s.text[start:body], " \t\n") + " " + placeholder
	case "impl":
		if body < 0 || body >= end {
			return text
		}
		return s.implSkeleton(start, end, body, placeholder)
	}
	return s.headOnly(start, end)
}

// implSkeleton keeps an impl block's header and renders each member item.
func (s *srcFile) implSkeleton(start, end, body int, placeholder string) string {
	m := s.maskedText()
	closeAt := matchBrace(m[:end], body)
	if closeAt < 0 {
		return s.headOnly(start, end)
	}
	var b strings.Builder
	b.WriteString(s.text[start : body+1])
	b.WriteByte('\n')
	for _, it := range scanItems(m, body+1, closeAt, false) {
		// Take the member from the start of its first line, with the doc
		// comments and attributes on the lines before it.
		from := s.offs[s.extendUpDocs(s.lineOf(it.start))-1]
		b.WriteString(s.itemSkeleton(from, it.end, it.kind, it.body, placeholder))
		b.WriteByte('\n')
	}
	b.WriteString(leadingSpace(s.lines[s.lineOf(closeAt)-1]))
	b.WriteString("}")
	return b.String()
}

// extendUpDocs moves a line up over the comment and attribute lines above
// it (member docs inside an impl).
func (s *srcFile) extendUpDocs(l int) int {
	for l > 1 {
		t := strings.TrimSpace(s.lines[l-2])
		if strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "//") {
			l--
			continue
		}
		break
	}
	return l
}

// headOnly shows a long item as its first lines and its last line around
// an elision marker; short items whole.
func (s *srcFile) headOnly(start, end int) string {
	first, last := s.lineOf(start), s.lineOf(max(end-1, start))
	if last-first+1 <= longItemLines {
		return s.text[start:end]
	}
	head := s.text[start:s.lineEndOff(first+2)]
	return head + "\n" + s.marker(first+3, last-1) + s.text[s.offs[last-1]:end]
}

// itemName returns the name an item header declares: the word after its
// kind keyword ("fn find_by_email" gives find_by_email, "impl Store"
// gives Store).
func itemName(hdr string) string {
	words := headerWords(hdr)
	for k, w := range words {
		if w == itemKind(hdr) && k+1 < len(words) {
			if w == "impl" {
				for _, x := range words[k+1:] {
					if x != "for" && x != "dyn" {
						return x
					}
				}
			}
			return words[k+1]
		}
	}
	return ""
}
