package diffmode

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// scanRust lists the items of Rust source by a light scan: comments and
// literals are masked, braces matched, and items recognised by their
// keywords at the top level and directly inside impl, trait and inline
// mod blocks. Methods take their impl's type (or their trait) as
// container. Function bodies are not searched for nested items.
//
// It mirrors the names and kinds of the Rust loader closely enough to
// tell, across the two sides of a diff, which items are gone.
func scanRust(src []byte) []Decl {
	s := &rustScanner{m: maskRust(src), lines: strings.Split(string(src), "\n")}
	s.lineStarts = append(s.lineStarts, 0)
	for i, c := range s.m {
		if c == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	s.block(0, len(s.m), rustCtx{parent: -1})
	return sortDecls(s.out)
}

type rustCtx struct {
	kind      analyze.SymbolKind // KindImpl, KindTrait, KindModule or KindUnknown (file)
	container string
	parent    int
}

type rustScanner struct {
	m          []byte // masked source
	lines      []string
	lineStarts []int
	out        []Decl
}

func (s *rustScanner) line(off int) int {
	return sort.Search(len(s.lineStarts), func(i int) bool { return s.lineStarts[i] > off })
}

// docStart walks up from the line of an item over doc comments and
// attributes written on lines of their own.
func (s *rustScanner) docStart(line int) int {
	for line > 1 {
		t := strings.TrimSpace(s.lines[line-2])
		if strings.HasPrefix(t, "///") || strings.HasPrefix(t, "//!") || strings.HasPrefix(t, "#[") ||
			strings.HasPrefix(t, "/**") || strings.HasPrefix(t, "*") {
			line--
			continue
		}
		break
	}
	return line
}

func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// word returns the identifier at i and the offset after it.
func (s *rustScanner) word(i, to int) (string, int) {
	j := i
	for j < to && isIdentByte(s.m[j]) {
		j++
	}
	return string(s.m[i:j]), j
}

func (s *rustScanner) skipSpace(i, to int) int {
	for i < to && (s.m[i] == ' ' || s.m[i] == '\t' || s.m[i] == '\n' || s.m[i] == '\r') {
		i++
	}
	return i
}

// group returns the offset after the bracketed group opening at i.
func (s *rustScanner) group(i, to int) int {
	depth := 0
	for j := i; j < to; j++ {
		switch s.m[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return to
}

// until returns the offset of the first stop byte outside brackets from i,
// or to. With braces false, a '{' is a stop byte and braces are not
// skipped.
func (s *rustScanner) until(i, to int, stops string, skipBraces bool) int {
	for j := i; j < to; j++ {
		c := s.m[j]
		if strings.IndexByte(stops, c) >= 0 {
			return j
		}
		switch c {
		case '(', '[':
			j = s.group(j, to) - 1
		case '{':
			if skipBraces {
				j = s.group(j, to) - 1
			}
		case '}':
			return j // the end of the enclosing block
		}
	}
	return to
}

var rustModifiers = map[string]bool{"pub": true, "unsafe": true, "async": true, "extern": true, "default": true, "crate": true}

// block scans the items between from and to.
func (s *rustScanner) block(from, to int, ctx rustCtx) {
	itemStart := -1
	for i := s.skipSpace(from, to); i < to; i = s.skipSpace(i, to) {
		c := s.m[i]
		switch {
		case c == '#':
			if itemStart < 0 {
				itemStart = i
			}
			j := s.skipSpace(i+1, to)
			if j < to && s.m[j] == '!' {
				j = s.skipSpace(j+1, to)
			}
			if j < to && s.m[j] == '[' {
				i = s.group(j, to)
			} else {
				i = j
			}
			continue
		case c == '"':
			i = s.until(i+1, to, `"`, true) + 1 // extern "C": the masked literal
			continue
		case !isIdentByte(c):
			if c == '{' || c == '(' || c == '[' {
				i = s.group(i, to)
			} else {
				i++
			}
			itemStart = -1
			continue
		}
		w, j := s.word(i, to)
		if itemStart < 0 {
			itemStart = i
		}
		switch {
		case rustModifiers[w]:
			k := s.skipSpace(j, to)
			if w == "pub" && k < to && s.m[k] == '(' {
				j = s.group(k, to)
			}
			i = j
			continue
		case w == "const":
			// const fn, or a const item.
			nw, _ := s.word(s.skipSpace(j, to), to)
			if nw == "fn" || nw == "unsafe" || nw == "async" || nw == "extern" {
				i = j
				continue
			}
		}
		i = s.item(w, itemStart, j, to, ctx)
		itemStart = -1
	}
}

// item handles the item whose keyword w ends at j; it returns the offset
// after the item.
func (s *rustScanner) item(w string, start, j, to int, ctx rustCtx) int {
	nameAt := s.skipSpace(j, to)
	name, afterName := s.word(nameAt, to)
	decl := Decl{Name: name, Parent: ctx.parent}
	bodyKind := analyze.KindUnknown
	switch w {
	case "fn":
		decl.Kind = analyze.KindFunc
		if ctx.kind == analyze.KindImpl || ctx.kind == analyze.KindTrait {
			decl.Kind, decl.Container = analyze.KindMethod, ctx.container
		}
	case "struct":
		decl.Kind = analyze.KindStruct
	case "enum":
		decl.Kind = analyze.KindEnum
	case "union":
		if name == "" {
			return afterName
		}
		decl.Kind = analyze.KindUnion
	case "trait":
		decl.Kind, bodyKind = analyze.KindTrait, analyze.KindTrait
	case "mod":
		decl.Kind, bodyKind = analyze.KindModule, analyze.KindModule
	case "impl":
		decl.Kind, bodyKind = analyze.KindImpl, analyze.KindImpl
		head := s.until(j, to, "{;", false)
		decl.Name = implType(string(s.m[j:head]))
		afterName = j
	case "type":
		decl.Kind = analyze.KindTypeAlias
		if ctx.kind == analyze.KindImpl || ctx.kind == analyze.KindTrait {
			decl.Kind, decl.Container = analyze.KindAssocType, ctx.container
		}
	case "const", "static":
		decl.Kind = analyze.KindConst
		if w == "static" {
			decl.Kind = analyze.KindStatic
			if name == "mut" {
				name, afterName = s.word(s.skipSpace(afterName, to), to)
				decl.Name = name
			}
		}
		if ctx.kind == analyze.KindImpl || ctx.kind == analyze.KindTrait {
			decl.Container = ctx.container
		}
	case "macro_rules":
		k := s.skipSpace(j, to)
		if k < to && s.m[k] == '!' {
			name, afterName = s.word(s.skipSpace(k+1, to), to)
			decl.Name, decl.Kind = name, analyze.KindMacro
		}
	case "use":
		return s.until(j, to, ";", true) + 1
	}
	if decl.Kind == analyze.KindUnknown || decl.Name == "" {
		// Not an item we know: a macro call (name! { … }) or stray words.
		k := s.skipSpace(j, to)
		if k < to && s.m[k] == '!' {
			k = s.skipSpace(k+1, to)
			if k < to && isIdentByte(s.m[k]) { // macro_rules-like: name! ident { … }
				_, k = s.word(k, to)
				k = s.skipSpace(k, to)
			}
			if k < to && strings.IndexByte("([{", s.m[k]) >= 0 {
				k = s.group(k, to)
			}
			return k
		}
		return j
	}
	var end, bodyOpen int
	switch decl.Kind {
	case analyze.KindConst, analyze.KindStatic, analyze.KindTypeAlias, analyze.KindAssocType:
		end = s.until(afterName, to, ";", true)
		bodyOpen = -1
	default:
		k := s.until(afterName, to, "{;", false)
		if k < to && s.m[k] == '{' {
			bodyOpen = k
			end = s.group(k, to) - 1
		} else {
			bodyOpen = -1
			end = k
		}
		if decl.Kind == analyze.KindMacro && k < to && s.m[k] != '{' {
			end = s.until(afterName, to, ";", true)
		}
	}
	if end >= to {
		end = to - 1
	}
	decl.Start = s.docStart(s.line(start))
	decl.End = s.line(max(end, start))
	idx := len(s.out)
	s.out = append(s.out, decl)
	if bodyOpen >= 0 && bodyKind != analyze.KindUnknown {
		inner := rustCtx{kind: bodyKind, parent: idx, container: decl.Name}
		if bodyKind == analyze.KindModule {
			inner.container = ""
		}
		s.block(bodyOpen+1, end, inner)
	}
	return end + 1
}

// implType is the type an impl block is for: "Store" for
// "<T: Clone> Trait<T> for crate::Store<T> where T: X".
func implType(head string) string {
	h := strings.TrimSpace(head)
	if strings.HasPrefix(h, "<") {
		depth := 0
		for i := 0; i < len(h); i++ {
			switch h[i] {
			case '<':
				depth++
			case '>':
				depth--
				if depth == 0 {
					h = h[i+1:]
					i = len(h)
				}
			}
		}
	}
	if i := strings.Index(h, " where "); i >= 0 {
		h = h[:i]
	}
	// The type after " for " at angle depth 0.
	depth := 0
	for i := 0; i+5 <= len(h); i++ {
		switch h[i] {
		case '<':
			depth++
		case '>':
			depth--
		}
		if depth == 0 && h[i:i+5] == " for " {
			h = h[i+5:]
			break
		}
	}
	h = strings.TrimSpace(h)
	if i := strings.IndexByte(h, '<'); i >= 0 {
		h = h[:i]
	}
	h = strings.TrimLeft(h, "&!( ")
	for _, p := range []string{"mut ", "dyn ", "unsafe "} {
		h = strings.TrimPrefix(h, p)
	}
	if i := strings.LastIndex(h, "::"); i >= 0 {
		h = h[i+2:]
	}
	if i := strings.IndexAny(h, " ,)+"); i >= 0 {
		h = h[:i]
	}
	return h
}

// maskRust blanks comments and the contents of string and character
// literals, keeping line breaks and the quotes of strings, so that
// braces and keywords in them are not read as code.
func maskRust(src []byte) []byte {
	m := append([]byte(nil), src...)
	blank := func(a, b int) {
		for k := a; k < b && k < len(m); k++ {
			if m[k] != '\n' {
				m[k] = ' '
			}
		}
	}
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			j := i
			for j < n && src[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j
		case c == '/' && i+1 < n && src[i+1] == '*':
			depth, j := 1, i+2
			for j < n && depth > 0 {
				switch {
				case src[j] == '/' && j+1 < n && src[j+1] == '*':
					depth++
					j += 2
				case src[j] == '*' && j+1 < n && src[j+1] == '/':
					depth--
					j += 2
				default:
					j++
				}
			}
			blank(i, j)
			i = j
		case (c == 'r' || c == 'b') && (i == 0 || !isIdentByte(src[i-1])):
			j := i + 1
			if c == 'b' && j < n && src[j] == 'r' {
				j++
			} else if c == 'b' {
				i++ // b"…" and b'…': the literal is handled at the quote
				continue
			}
			hashes := 0
			for j < n && src[j] == '#' {
				hashes++
				j++
			}
			if j >= n || src[j] != '"' {
				i++
				continue
			}
			closing := "\"" + strings.Repeat("#", hashes)
			k := strings.Index(string(src[j+1:]), closing)
			end := n
			if k >= 0 {
				end = j + 1 + k
			}
			blank(j+1, end)
			i = min(n, end+len(closing))
		case c == '"':
			j := i + 1
			for j < n && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			blank(i+1, min(j, n))
			i = min(n, j+1)
		case c == '\'':
			if end, ok := rustCharLit(src, i); ok {
				blank(i+1, end)
				i = end + 1
			} else {
				i++ // a lifetime
			}
		default:
			i++
		}
	}
	return m
}

// rustCharLit reports whether a character literal starts at the quote at
// i, and the offset of its closing quote.
func rustCharLit(src []byte, i int) (int, bool) {
	n := len(src)
	if i+1 >= n {
		return 0, false
	}
	if src[i+1] == '\\' {
		for j := i + 2; j < n && j < i+14; j++ {
			if src[j] == '\'' {
				return j, true
			}
			if src[j] == '\n' {
				break
			}
		}
		return 0, false
	}
	_, size := utf8.DecodeRune(src[i+1:])
	if j := i + 1 + size; j < n && src[j] == '\'' {
		return j, true
	}
	return 0, false
}
