package lsp

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// symInfo is what the loader keeps of a symbol besides its analyze.Symbol:
// where its name is, for the position requests, and the pending work of
// tying it to its type.
type symInfo struct {
	sel      Position // start of the name (0-based, UTF-16 column)
	owner    string   // Go method: receiver type name to resolve in the package
	implSelf string   // Rust impl: self type name; Rust impl members: their impl's
	implOf   string   // Rust impl: trait name, or ""
	cfgTest  bool     // Rust: under #[cfg(test)]
}

// addSymbols converts one file's documentSymbol answer into symbols.
// Declarations inside function bodies are not symbols.
func (l *loader) addSymbols(fid analyze.FileID, tree []DocumentSymbol) {
	for i := range tree {
		l.addSymbol(fid, &tree[i], analyze.NoSym)
	}
}

func (l *loader) addSymbol(fid analyze.FileID, ds *DocumentSymbol, parent analyze.SymID) {
	lines := l.files[fid].lines
	if ds.Kind == skNamespace || ds.Kind == skPackage || ds.Kind == skFile {
		// Regions and package clauses group declarations without being one.
		for i := range ds.Children {
			l.addSymbol(fid, &ds.Children[i], parent)
		}
		return
	}
	start, end := ds.Range.Start.Line+1, ds.Range.End.Line+1
	if ds.Range.End.Character == 0 && end > start {
		end-- // the range ends at the start of the next line
	}
	decl := ds.SelectionRange.Start.Line + 1
	if decl < start || decl > end {
		decl = start
	}
	s := analyze.Symbol{Name: ds.Name, File: fid, Parent: parent, End: end, DeclLine: decl}
	info := symInfo{sel: ds.SelectionRange.Start}
	code := firstCodeLine(lines, start, decl, l.lang)
	s.Start = extendUp(lines, code, l.lang)
	if start < s.Start {
		s.Start = start
	}
	s.Doc = docText(lines, s.Start, code)
	col := 0
	if code == start {
		col = utf16ToByte(line(lines, start), ds.Range.Start.Character)
	}
	head := header(lines, code, col, end)

	var p *analyze.Symbol
	var pinfo *symInfo
	if parent != analyze.NoSym {
		p, pinfo = &l.facts.Symbols[parent], &l.info[parent]
	}
	switch l.lang {
	case analyze.LangGo:
		if !l.goSymbol(&s, &info, ds, p, head) {
			return
		}
	case analyze.LangRust:
		if !l.rustSymbol(&s, &info, ds, p, pinfo, head, lines) {
			return
		}
	default:
		s.Kind = genericKind(ds.Kind)
		if p != nil {
			s.Container = p.Name
		}
		s.Exported = true
	}
	if s.Signature == "" {
		s.Signature = head
	}
	id := l.facts.AddSymbol(s)
	l.info = append(l.info, info)
	if !s.Kind.IsCallable() {
		for i := range ds.Children {
			l.addSymbol(fid, &ds.Children[i], id)
		}
	}
}

// goMethodName matches gopls's method names: "(*T).M", "(T).M", "T.M",
// with type parameters in the receiver: "(*List[T]).Push".
// Compiled on first use: its Unicode classes cost every process about
// 1 to 2 ms at start otherwise.
var goMethodName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\(?\*?([\pL_][\pL\pN_]*)(?:\[[^\]]*\])?\)?\.([\pL_][\pL\pN_]*)$`)
})

// goSymbol sets the Go specifics of s. It returns false for symbols that
// are left out (blank identifiers).
func (l *loader) goSymbol(s *analyze.Symbol, info *symInfo, ds *DocumentSymbol, p *analyze.Symbol, head string) bool {
	if m := goMethodName().FindStringSubmatch(ds.Name); m != nil && p == nil {
		s.Name, s.Container, info.owner = m[2], m[1], m[1]
	}
	if s.Name == "_" || s.Name == "" {
		return false
	}
	if p != nil {
		s.Container = p.Name
	}
	declText := line(l.files[s.File].lines, s.DeclLine)
	before := declText[:min(len(declText), utf16ToByte(declText, ds.SelectionRange.Start.Character))]
	isFunc := hasWord(before, "func")
	switch ds.Kind {
	case skMethod:
		s.Kind = analyze.KindMethod
	case skFunction:
		s.Kind = analyze.KindFunc
		if info.owner != "" {
			s.Kind = analyze.KindMethod
		}
	case skStruct:
		s.Kind = analyze.KindStruct
	case skInterface:
		s.Kind = analyze.KindInterface
	case skField, skProperty:
		s.Kind = analyze.KindField
	case skConstant:
		s.Kind = analyze.KindConst
	case skVariable:
		s.Kind = analyze.KindVar
	default:
		s.Kind = analyze.KindType
	}
	if (s.Kind == analyze.KindFunc || s.Kind == analyze.KindMethod) && !isFunc && p == nil {
		// gopls gives a type the kind of its underlying type: type F func().
		s.Kind = analyze.KindType
	}
	if s.Kind == analyze.KindType || s.Kind == analyze.KindStruct || s.Kind == analyze.KindInterface {
		after := strings.TrimSpace(declText[min(len(declText), utf16ToByte(declText, ds.SelectionRange.End.Character)):])
		if strings.HasPrefix(after, "[") { // type parameters
			after = strings.TrimSpace(after[skipBrackets(after):])
		}
		if strings.HasPrefix(after, "=") {
			s.Kind = analyze.KindTypeAlias
		}
	}
	if s.Kind == analyze.KindVar || s.Kind == analyze.KindConst {
		// The declaring line only: an initializer can run on for pages.
		head = header(l.files[s.File].lines, s.DeclLine, 0, s.DeclLine)
	}
	if s.Kind == analyze.KindField && strings.HasSuffix(head, "`") {
		if i := strings.LastIndex(head[:len(head)-1], "`"); i > 0 {
			head = strings.TrimSpace(head[:i]) // the struct tag
		}
	}
	s.Signature = head
	s.Exported = goExported(s.Name)
	s.Test = s.Kind == analyze.KindFunc && strings.HasSuffix(l.facts.Files[s.File].Path, "_test.go") && goTestName(s.Name)
	return true
}

// fixGoHeader puts the keyword the server's range leaves out back in
// front of a Go declaration's header: gopls's range for a type, constant
// or variable starts at its name.
func fixGoHeader(s *analyze.Symbol) {
	if s.Parent != analyze.NoSym {
		return
	}
	kw := ""
	switch {
	case s.Kind.IsType():
		kw = "type "
	case s.Kind == analyze.KindConst:
		kw = "const "
	case s.Kind == analyze.KindVar:
		kw = "var "
	}
	if kw != "" && !strings.HasPrefix(s.Signature, kw) {
		s.Signature = kw + s.Signature
	}
}

func skipBrackets(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

func goExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// goTestName reports whether name is one go test runs: Test, Benchmark,
// Fuzz or Example, alone or followed by a character that is not a
// lower-case letter.
func goTestName(name string) bool {
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			return rest == "" || !unicode.IsLower(r)
		}
	}
	return false
}

// rustSymbol sets the Rust specifics of s, following the conventions of
// the tree-sitter loader: impls are named "Type" or "Trait for Type",
// functions in impls and traits are methods with the self type or trait as
// Container, variants and fields belong to their enum or struct.
func (l *loader) rustSymbol(s *analyze.Symbol, info *symInfo, ds *DocumentSymbol, p *analyze.Symbol, pinfo *symInfo, head string, lines []string) bool {
	kind := rustKeywordKind(head, ds.Name)
	if strings.HasPrefix(ds.Name, "impl") || ds.Kind == skObject && kind == analyze.KindImpl {
		kind = analyze.KindImpl
	}
	switch {
	case kind == analyze.KindImpl:
		trait, self := parseImplName(ds.Name)
		if self == "" {
			trait, self = parseImplName("impl " + strings.TrimPrefix(head, "unsafe "))
		}
		if self == "" {
			return false
		}
		s.Name, info.implSelf, info.implOf = self, self, trait
		if trait != "" {
			s.Name = trait + " for " + self
		}
	case ds.Kind == skEnumMember:
		kind = analyze.KindVariant
	case ds.Kind == skField && kind == analyze.KindUnknown:
		kind = analyze.KindField
	case kind == analyze.KindTypeAlias && p != nil && (p.Kind == analyze.KindImpl || p.Kind == analyze.KindTrait):
		kind = analyze.KindAssocType
	case kind == analyze.KindUnknown:
		kind = genericKind(ds.Kind)
	}
	s.Kind = kind
	if s.Kind == analyze.KindFunc && p != nil && (p.Kind == analyze.KindImpl || p.Kind == analyze.KindTrait) {
		s.Kind = analyze.KindMethod
	}
	if p != nil {
		switch p.Kind {
		case analyze.KindImpl:
			s.Container = pinfo.implSelf
			info.implSelf = pinfo.implSelf
		case analyze.KindVariant:
			s.Container = p.Container + "::" + p.Name
		case analyze.KindModule:
		default:
			s.Container = p.Name
		}
		info.cfgTest = pinfo.cfgTest
	}
	attrs := strings.Join(lines[max(0, s.Start-1):max(0, s.DeclLine-1)], "\n")
	if strings.Contains(attrs, "#[cfg(test)]") {
		info.cfgTest = true
	}
	switch {
	case p != nil && p.Kind == analyze.KindImpl && pinfo.implOf != "":
		s.Exported = true // trait impl members are as visible as the trait
	case p != nil && p.Kind == analyze.KindTrait:
		s.Exported = p.Exported
	case s.Kind == analyze.KindVariant:
		s.Exported = p != nil && p.Exported
	default:
		s.Exported = hasWord(head, "pub")
	}
	s.Test = info.cfgTest || (s.Kind == analyze.KindFunc || s.Kind == analyze.KindMethod) && rustTestAttr(attrs)
	return true
}

// rustTestAttr reports whether attribute text marks a test function.
func rustTestAttr(attrs string) bool {
	for _, a := range []string{"#[test]", "#[bench]", "#[tokio::test", "#[async_std::test", "#[rstest", "#[test_case", "#[quickcheck", "#[proptest"} {
		if strings.Contains(attrs, a) {
			return true
		}
	}
	return false
}

// parseImplName reads rust-analyzer's impl label, "impl Type",
// "impl<T> Trait<T> for Type<T>", "impl !Send for Type", into the trait
// (generic arguments kept) and the self type (generic arguments, paths
// and references dropped).
func parseImplName(label string) (trait, self string) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(label), "impl")
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '<' {
		return "", ""
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "<") {
		rest = strings.TrimSpace(rest[skipAngles(rest):])
	}
	if i := indexWord(rest, "for"); i >= 0 && angleDepth(rest[:i]) == 0 {
		trait, rest = strings.TrimSpace(rest[:i]), strings.TrimSpace(rest[i+3:])
	}
	if i := indexWord(rest, "where"); i >= 0 {
		rest = strings.TrimSpace(rest[:i])
	}
	self = rest
	for _, p := range []string{"&'static ", "&mut ", "&", "dyn ", "mut "} {
		self = strings.TrimPrefix(self, p)
	}
	if i := strings.IndexByte(self, '<'); i >= 0 {
		self = self[:i]
	}
	if i := strings.LastIndex(self, "::"); i >= 0 {
		self = self[i+2:]
	}
	return trait, strings.TrimSpace(self)
}

func skipAngles(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			if i > 0 && s[i-1] == '-' {
				continue // ->
			}
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

func angleDepth(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			if i == 0 || s[i-1] != '-' {
				depth--
			}
		}
	}
	return depth
}

// genericKind maps an LSP symbol kind for a language the loader has no
// rules for.
func genericKind(k SymbolKind) analyze.SymbolKind {
	switch k {
	case skFunction, skConstructor:
		return analyze.KindFunc
	case skMethod:
		return analyze.KindMethod
	case skStruct, skClass, skObject:
		return analyze.KindStruct
	case skInterface:
		return analyze.KindInterface
	case skEnum:
		return analyze.KindEnum
	case skEnumMember:
		return analyze.KindVariant
	case skField, skProperty:
		return analyze.KindField
	case skConstant:
		return analyze.KindConst
	case skVariable:
		return analyze.KindVar
	case skModule:
		return analyze.KindModule
	case skTypeParameter:
		return analyze.KindTypeAlias
	}
	return analyze.KindUnknown
}

// utf16ToByte converts a UTF-16 column into a byte offset in s (clamped).
func utf16ToByte(s string, col int) int {
	units := 0
	for i, r := range s {
		if units >= col {
			return i
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return len(s)
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
