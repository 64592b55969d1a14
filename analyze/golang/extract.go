package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// extractor turns the syntax trees of one package into symbols and edges.
// Declarations are read from syntax in both modes; references resolve
// through types.Info when the package was type-checked (refs_typed.go) and
// through scopes and names otherwise (refs_syntax.go).
type extractor struct {
	res   *pkgResult
	fset  *token.FileSet
	scope string

	// The file being extracted.
	rel      string
	tf       *token.File
	src      []byte
	file     *ast.File
	testFile bool

	// Typed mode.
	info    *types.Info
	relOf   func(filename string) (string, bool)
	repoPkg func(path string) bool
	hybrid  bool // the package has type errors: fill gaps by syntax

	// Per-declaration scratch.
	callee map[*ast.Ident]bool
	skip   map[*ast.Ident]bool

	// Syntax mode: the file's top-level objects and import names.
	fileObjs    map[*ast.Object]key
	importNames map[string]bool
}

func newExtractor(res *pkgResult, fset *token.FileSet) *extractor {
	return &extractor{
		res:    res,
		fset:   fset,
		scope:  res.scope,
		callee: make(map[*ast.Ident]bool),
		skip:   make(map[*ast.Ident]bool),
	}
}

// typed reports whether references resolve through type information.
func (x *extractor) typed() bool { return x.info != nil }

// extractFile records the file's symbols and edges and returns its
// imports. src is the file's content, which signatures are cut from.
func (x *extractor) extractFile(rel string, f *ast.File, src []byte) []importRec {
	x.rel, x.file, x.src = rel, f, src
	x.tf = x.fset.File(f.Pos())
	x.testFile = strings.HasSuffix(rel, "_test.go")
	if !x.typed() {
		x.prepareSyntax(f)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			x.funcDecl(d)
		case *ast.GenDecl:
			switch d.Tok {
			case token.TYPE:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						x.typeSpec(d, ts)
					}
				}
			case token.CONST, token.VAR:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						x.valueSpec(d, vs)
					}
				}
			}
		}
	}
	return x.imports(f)
}

// imports returns the file's import specs.
func (x *extractor) imports(f *ast.File) []importRec {
	var out []importRec
	for _, is := range f.Imports {
		if is.Path == nil {
			continue
		}
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil || p == "" {
			continue
		}
		im := importRec{path: analyze.ToValidUTF8(p), line: x.line(is.Path.Pos())}
		if is.Name != nil {
			im.name = is.Name.Name
		}
		out = append(out, im)
	}
	return out
}

// line is the unadjusted line of pos (line directives are ignored: spans
// are about this file as it is on disk).
func (x *extractor) line(pos token.Pos) int {
	if !x.inFile(pos) {
		return 0
	}
	return x.tf.PositionFor(pos, false).Line
}

// endLine is the line of the last character of a node ending at end.
func (x *extractor) endLine(end token.Pos) int {
	if end > token.Pos(x.tf.Base()) {
		end--
	}
	return x.line(end)
}

func (x *extractor) inFile(pos token.Pos) bool {
	return x.tf != nil && pos.IsValid() && int(pos) >= x.tf.Base() && int(pos) <= x.tf.Base()+x.tf.Size()
}

// keyOf is the key of a declaring identifier in the current file.
func (x *extractor) keyOf(id *ast.Ident) key {
	if !x.inFile(id.Pos()) {
		return key{}
	}
	p := x.tf.PositionFor(id.Pos(), false)
	return key{path: x.rel, line: int32(p.Line), col: int32(p.Column)}
}

// text returns the source between two positions of the current file as
// one line.
func (x *extractor) text(from, to token.Pos) string {
	if !x.inFile(from) || !x.inFile(to) || to < from || x.src == nil {
		return ""
	}
	a, b := x.tf.Offset(from), x.tf.Offset(to)
	if a < 0 || b > len(x.src) || a > b {
		return ""
	}
	return oneLine(x.src[a:b])
}

// startLine is the first line of a declaration, its doc comment included.
func (x *extractor) startLine(doc *ast.CommentGroup, pos token.Pos) int {
	if doc != nil && doc.Pos() < pos {
		return x.line(doc.Pos())
	}
	return x.line(pos)
}

func (x *extractor) addSym(id *ast.Ident, s analyze.Symbol, parent key) (key, bool) {
	k := x.keyOf(id)
	if !k.valid() {
		return key{}, false
	}
	s.DeclLine = int(k.line)
	s.Exported = ast.IsExported(s.Name)
	s.Parent = analyze.NoSym
	if s.Start == 0 || s.Start > s.DeclLine {
		s.Start = s.DeclLine
	}
	if s.End < s.DeclLine {
		s.End = s.DeclLine
	}
	x.res.syms = append(x.res.syms, symRec{key: k, sym: s, scope: x.scope, parent: parent, file: x.rel})
	return k, true
}

func (x *extractor) edge(from, to key, kind analyze.EdgeKind, exact bool, line int) {
	if from == to || !from.valid() || !to.valid() {
		return
	}
	x.res.edges = append(x.res.edges, edgeRec{from: from, to: to, kind: kind, exact: exact, line: line})
}

// refs records the references and calls made inside n on behalf of the
// declarations froms.
func (x *extractor) refs(froms []key, n ast.Node) {
	if n == nil || len(froms) == 0 {
		return
	}
	if x.typed() {
		x.refsTyped(froms, n)
	} else {
		x.refsSyntax(froms, n)
	}
}

func (x *extractor) resetDecl() {
	clear(x.callee)
	clear(x.skip)
}

func (x *extractor) funcDecl(d *ast.FuncDecl) {
	if d.Name == nil || d.Name.Name == "_" || d.Type == nil {
		return
	}
	x.resetDecl()
	s := analyze.Symbol{
		Name:      d.Name.Name,
		Kind:      analyze.KindFunc,
		Start:     x.startLine(d.Doc, d.Pos()),
		End:       x.endLine(d.End()),
		Doc:       docText(d.Doc),
		Signature: x.text(d.Pos(), d.Type.End()),
	}
	var arity string
	if d.Recv != nil && len(d.Recv.List) > 0 {
		s.Kind = analyze.KindMethod
		s.Container = typeRefOf(d.Recv.List[0].Type).name
		arity = funcArity(d.Type)
	} else if x.testFile && isTestFunc(d.Name.Name) {
		s.Test = true
	}
	k, ok := x.addSym(d.Name, s, key{})
	if !ok {
		return
	}
	if arity != "" {
		x.res.syms[len(x.res.syms)-1].arity = arity
	}
	froms := []key{k}
	if d.Recv != nil {
		x.refs(froms, d.Recv)
	}
	x.refs(froms, d.Type)
	if d.Body != nil {
		x.refs(froms, d.Body)
	}
}

func (x *extractor) typeSpec(gd *ast.GenDecl, ts *ast.TypeSpec) {
	if ts.Name == nil || ts.Name.Name == "_" || ts.Type == nil {
		return
	}
	x.resetDecl()
	single := len(gd.Specs) == 1
	s := analyze.Symbol{Name: ts.Name.Name, Kind: analyze.KindType}
	if single {
		s.Start, s.End = x.startLine(gd.Doc, gd.Pos()), x.endLine(gd.End())
		s.Doc = docText(ts.Doc, gd.Doc, ts.Comment)
	} else {
		s.Start, s.End = x.startLine(ts.Doc, ts.Pos()), x.endLine(ts.End())
		s.Doc = docText(ts.Doc, ts.Comment)
	}
	head := "type " + x.text(ts.Pos(), typeParamsEnd(ts))
	switch t := ts.Type.(type) {
	case *ast.StructType:
		s.Kind = analyze.KindStruct
		s.Signature = head + " struct"
	case *ast.InterfaceType:
		s.Kind = analyze.KindInterface
		s.Signature = head + " interface"
	default:
		if ts.Assign.IsValid() {
			s.Kind = analyze.KindTypeAlias
			s.Signature = capText(head+" = "+x.text(t.Pos(), t.End()), maxSignature)
		} else {
			s.Signature = capText(head+" "+x.text(t.Pos(), t.End()), maxSignature)
		}
	}
	k, ok := x.addSym(ts.Name, s, key{})
	if !ok {
		return
	}
	froms := []key{k}
	if ts.TypeParams != nil {
		x.refs(froms, ts.TypeParams)
	}
	switch t := ts.Type.(type) {
	case *ast.StructType:
		x.structFields(k, ts.Name.Name, t)
	case *ast.InterfaceType:
		x.interfaceMethods(k, ts.Name.Name, t)
	default:
		x.refs(froms, t)
	}
}

func typeParamsEnd(ts *ast.TypeSpec) token.Pos {
	if ts.TypeParams != nil {
		return ts.TypeParams.End()
	}
	return ts.Name.End()
}

func (x *extractor) structFields(tk key, typeName string, st *ast.StructType) {
	if st.Fields == nil {
		return
	}
	for _, f := range st.Fields.List {
		if f.Type == nil {
			continue
		}
		start, end := x.startLine(f.Doc, f.Pos()), x.endLine(f.End())
		doc := docText(f.Doc, f.Comment)
		typeText := x.text(f.Type.Pos(), f.Type.End())
		froms := []key{tk}
		if len(f.Names) == 0 {
			id := embeddedIdent(f.Type)
			if id == nil {
				x.refs(froms, f.Type)
				continue
			}
			s := analyze.Symbol{Name: id.Name, Container: typeName, Kind: analyze.KindField,
				Start: start, End: end, Doc: doc, Signature: typeText}
			if fk, ok := x.addSym(id, s, tk); ok {
				x.res.syms[len(x.res.syms)-1].ftype = typeRefOf(f.Type)
				x.edge(tk, fk, analyze.EdgeField, true, int(fk.line))
				froms = append(froms, fk)
			}
			x.embeds(tk, f.Type)
			x.refs(froms, f.Type)
			continue
		}
		for _, name := range f.Names {
			if name.Name == "_" {
				continue
			}
			s := analyze.Symbol{Name: name.Name, Container: typeName, Kind: analyze.KindField,
				Start: start, End: end, Doc: doc, Signature: capText(name.Name+" "+typeText, maxSignature)}
			if fk, ok := x.addSym(name, s, tk); ok {
				x.res.syms[len(x.res.syms)-1].ftype = typeRefOf(f.Type)
				x.edge(tk, fk, analyze.EdgeField, true, int(fk.line))
				froms = append(froms, fk)
			}
		}
		x.refs(froms, f.Type)
	}
}

func (x *extractor) interfaceMethods(ik key, ifaceName string, it *ast.InterfaceType) {
	if it.Methods == nil {
		return
	}
	for _, f := range it.Methods.List {
		if f.Type == nil {
			continue
		}
		froms := []key{ik}
		if len(f.Names) == 0 {
			// An embedded interface, or a type-set term of a constraint.
			if embeddedIdent(f.Type) != nil {
				x.embeds(ik, f.Type)
			}
			x.refs(froms, f.Type)
			continue
		}
		ft, _ := f.Type.(*ast.FuncType)
		for _, name := range f.Names {
			if name.Name == "_" {
				continue
			}
			s := analyze.Symbol{Name: name.Name, Container: ifaceName, Kind: analyze.KindMethod,
				Start: x.startLine(f.Doc, f.Pos()), End: x.endLine(f.End()), Doc: docText(f.Doc, f.Comment)}
			if ft != nil && ft.Params != nil {
				s.Signature = capText(name.Name+x.text(ft.Params.Pos(), ft.End()), maxSignature)
			}
			if mk, ok := x.addSym(name, s, ik); ok {
				if ft != nil {
					x.res.syms[len(x.res.syms)-1].arity = funcArity(ft)
				}
				x.edge(mk, ik, analyze.EdgeMethodOf, true, int(mk.line))
				froms = append(froms, mk)
			}
		}
		x.refs(froms, f.Type)
	}
}

func (x *extractor) valueSpec(gd *ast.GenDecl, vs *ast.ValueSpec) {
	x.resetDecl()
	single := len(gd.Specs) == 1
	var start, end int
	if single {
		start, end = x.startLine(gd.Doc, gd.Pos()), x.endLine(gd.End())
	} else {
		start, end = x.startLine(vs.Doc, vs.Pos()), x.endLine(vs.End())
	}
	doc := docText(vs.Doc, vs.Comment, gd.Doc)
	kind, word := analyze.KindVar, "var "
	if gd.Tok == token.CONST {
		kind, word = analyze.KindConst, "const "
	}
	typeText := ""
	if vs.Type != nil {
		typeText = " " + x.text(vs.Type.Pos(), vs.Type.End())
	}
	keys := make([]key, len(vs.Names))
	var froms []key
	for i, name := range vs.Names {
		if name.Name == "_" {
			continue
		}
		sig := word + name.Name + typeText
		if len(vs.Values) == len(vs.Names) {
			sig += " = " + x.text(vs.Values[i].Pos(), vs.Values[i].End())
		}
		s := analyze.Symbol{Name: name.Name, Kind: kind, Start: start, End: end, Doc: doc,
			Signature: capText(sig, maxSignature)}
		if k, ok := x.addSym(name, s, key{}); ok {
			keys[i] = k
			froms = append(froms, k)
		}
	}
	if vs.Type != nil {
		x.refs(froms, vs.Type)
	}
	if len(vs.Values) == len(vs.Names) {
		for i, v := range vs.Values {
			if keys[i].valid() {
				x.refs([]key{keys[i]}, v)
			}
		}
	} else {
		for _, v := range vs.Values {
			x.refs(froms, v)
		}
	}
}

// embeds records an embeds edge from the type tk to the type named by expr.
func (x *extractor) embeds(tk key, expr ast.Expr) {
	id := embeddedIdent(expr)
	if id == nil {
		return
	}
	if x.typed() {
		if obj := x.info.Uses[id]; obj != nil {
			if to, ok := x.objKey(obj); ok {
				x.edge(tk, to, analyze.EdgeEmbeds, true, x.line(id.Pos()))
			}
			return
		}
		if !x.hybrid {
			return
		}
	}
	ref := typeRefOf(expr)
	x.res.raws = append(x.res.raws, rawRef{from: tk, kind: analyze.EdgeEmbeds, line: x.line(id.Pos()),
		file: x.rel, scope: x.scope, qual: ref.qual, name: ref.name, exactScope: true})
}
