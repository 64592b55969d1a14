package extract

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Extractor turns the syntax trees of one package into symbols and edges.
// Declarations are read from syntax in both modes; references resolve
// through types.Info when the package was type-checked (refs_typed.go) and
// through scopes and names otherwise (refs_syntax.go).
type Extractor struct {
	res   *Result
	fset  *token.FileSet
	scope string

	// The file being extracted.
	rel      string
	tf       *token.File
	src      []byte
	file     *ast.File
	testFile bool

	// Typed mode.
	Info    *types.Info
	RelOf   func(filename string) (string, bool)
	RepoPkg func(path string) bool
	Hybrid  bool // the package has type errors: fill gaps by syntax

	// Per-declaration scratch.
	callee map[*ast.Ident]bool
	skip   map[*ast.Ident]bool

	// Syntax mode: the file's top-level objects and import names.
	fileObjs    map[*ast.Object]Key
	importNames map[string]bool
}

// NewExtractor returns an extractor that adds what it finds to res, with
// positions read through fset. Set Info, RelOf and RepoPkg before
// extracting a type-checked package.
func NewExtractor(res *Result, fset *token.FileSet) *Extractor {
	return &Extractor{
		res:    res,
		fset:   fset,
		scope:  res.Scope,
		callee: make(map[*ast.Ident]bool),
		skip:   make(map[*ast.Ident]bool),
	}
}

// typed reports whether references resolve through type information.
func (x *Extractor) typed() bool { return x.Info != nil }

// ExtractFile records the file's symbols and edges and returns its
// imports. src is the file's content, which signatures are cut from.
func (x *Extractor) ExtractFile(rel string, f *ast.File, src []byte) []ImportRec {
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
func (x *Extractor) imports(f *ast.File) []ImportRec {
	var out []ImportRec
	for _, is := range f.Imports {
		if is.Path == nil {
			continue
		}
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil || p == "" {
			continue
		}
		im := ImportRec{Path: analyze.ToValidUTF8(p), Line: x.line(is.Path.Pos())}
		if is.Name != nil {
			im.Name = is.Name.Name
		}
		out = append(out, im)
	}
	return out
}

// line is the unadjusted line of pos (line directives are ignored: spans
// are about this file as it is on disk).
func (x *Extractor) line(pos token.Pos) int {
	if !x.inFile(pos) {
		return 0
	}
	return x.tf.PositionFor(pos, false).Line
}

// endLine is the line of the last character of a node ending at end.
func (x *Extractor) endLine(end token.Pos) int {
	if end > token.Pos(x.tf.Base()) {
		end--
	}
	return x.line(end)
}

func (x *Extractor) inFile(pos token.Pos) bool {
	return x.tf != nil && pos.IsValid() && int(pos) >= x.tf.Base() && int(pos) <= x.tf.Base()+x.tf.Size()
}

// keyOf is the key of a declaring identifier in the current file.
func (x *Extractor) keyOf(id *ast.Ident) Key {
	if !x.inFile(id.Pos()) {
		return Key{}
	}
	p := x.tf.PositionFor(id.Pos(), false)
	return Key{Path: x.rel, Line: int32(p.Line), Col: int32(p.Column)}
}

// text returns the source between two positions of the current file as
// one line.
func (x *Extractor) text(from, to token.Pos) string {
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
func (x *Extractor) startLine(doc *ast.CommentGroup, pos token.Pos) int {
	if doc != nil && doc.Pos() < pos {
		return x.line(doc.Pos())
	}
	return x.line(pos)
}

func (x *Extractor) addSym(id *ast.Ident, s analyze.Symbol, parent Key) (Key, bool) {
	k := x.keyOf(id)
	if !k.valid() {
		return Key{}, false
	}
	s.DeclLine = int(k.Line)
	s.Exported = ast.IsExported(s.Name)
	s.Parent = analyze.NoSym
	if s.Start == 0 || s.Start > s.DeclLine {
		s.Start = s.DeclLine
	}
	if s.End < s.DeclLine {
		s.End = s.DeclLine
	}
	x.res.Syms = append(x.res.Syms, SymRec{Key: k, Sym: s, Scope: x.scope, Parent: parent, File: x.rel})
	return k, true
}

func (x *Extractor) edge(from, to Key, kind analyze.EdgeKind, exact bool, line int) {
	if from == to || !from.valid() || !to.valid() {
		return
	}
	x.res.Edges = append(x.res.Edges, EdgeRec{From: from, To: to, Kind: kind, Exact: exact, Line: line})
}

// refs records the references and calls made inside n on behalf of the
// declarations froms.
func (x *Extractor) refs(froms []Key, n ast.Node) {
	if n == nil || len(froms) == 0 {
		return
	}
	if x.typed() {
		x.refsTyped(froms, n)
	} else {
		x.refsSyntax(froms, n)
	}
}

func (x *Extractor) resetDecl() {
	clear(x.callee)
	clear(x.skip)
}

func (x *Extractor) funcDecl(d *ast.FuncDecl) {
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
		s.Container = typeRefOf(d.Recv.List[0].Type).Name
		arity = funcArity(d.Type)
	} else if x.testFile && isTestFunc(d.Name.Name) {
		s.Test = true
	}
	k, ok := x.addSym(d.Name, s, Key{})
	if !ok {
		return
	}
	if arity != "" {
		x.res.Syms[len(x.res.Syms)-1].Arity = arity
	}
	froms := []Key{k}
	if d.Recv != nil {
		x.refs(froms, d.Recv)
	}
	x.refs(froms, d.Type)
	if d.Body != nil {
		x.refs(froms, d.Body)
	}
}

func (x *Extractor) typeSpec(gd *ast.GenDecl, ts *ast.TypeSpec) {
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
			s.Signature = CapText(head+" = "+x.text(t.Pos(), t.End()), maxSignature)
		} else {
			s.Signature = CapText(head+" "+x.text(t.Pos(), t.End()), maxSignature)
		}
	}
	k, ok := x.addSym(ts.Name, s, Key{})
	if !ok {
		return
	}
	froms := []Key{k}
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

func (x *Extractor) structFields(tk Key, typeName string, st *ast.StructType) {
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
		froms := []Key{tk}
		if len(f.Names) == 0 {
			id := embeddedIdent(f.Type)
			if id == nil {
				x.refs(froms, f.Type)
				continue
			}
			s := analyze.Symbol{Name: id.Name, Container: typeName, Kind: analyze.KindField,
				Start: start, End: end, Doc: doc, Signature: typeText}
			if fk, ok := x.addSym(id, s, tk); ok {
				x.res.Syms[len(x.res.Syms)-1].FieldType = typeRefOf(f.Type)
				x.edge(tk, fk, analyze.EdgeField, true, int(fk.Line))
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
				Start: start, End: end, Doc: doc, Signature: CapText(name.Name+" "+typeText, maxSignature)}
			if fk, ok := x.addSym(name, s, tk); ok {
				x.res.Syms[len(x.res.Syms)-1].FieldType = typeRefOf(f.Type)
				x.edge(tk, fk, analyze.EdgeField, true, int(fk.Line))
				froms = append(froms, fk)
			}
		}
		x.refs(froms, f.Type)
	}
}

func (x *Extractor) interfaceMethods(ik Key, ifaceName string, it *ast.InterfaceType) {
	if it.Methods == nil {
		return
	}
	for _, f := range it.Methods.List {
		if f.Type == nil {
			continue
		}
		froms := []Key{ik}
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
				s.Signature = CapText(name.Name+x.text(ft.Params.Pos(), ft.End()), maxSignature)
			}
			if mk, ok := x.addSym(name, s, ik); ok {
				if ft != nil {
					x.res.Syms[len(x.res.Syms)-1].Arity = funcArity(ft)
				}
				x.edge(mk, ik, analyze.EdgeMethodOf, true, int(mk.Line))
				froms = append(froms, mk)
			}
		}
		x.refs(froms, f.Type)
	}
}

func (x *Extractor) valueSpec(gd *ast.GenDecl, vs *ast.ValueSpec) {
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
	keys := make([]Key, len(vs.Names))
	var froms []Key
	for i, name := range vs.Names {
		if name.Name == "_" {
			continue
		}
		sig := word + name.Name + typeText
		if len(vs.Values) == len(vs.Names) {
			sig += " = " + x.text(vs.Values[i].Pos(), vs.Values[i].End())
		}
		s := analyze.Symbol{Name: name.Name, Kind: kind, Start: start, End: end, Doc: doc,
			Signature: CapText(sig, maxSignature)}
		if k, ok := x.addSym(name, s, Key{}); ok {
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
				x.refs([]Key{keys[i]}, v)
			}
		}
	} else {
		for _, v := range vs.Values {
			x.refs(froms, v)
		}
	}
}

// embeds records an embeds edge from the type tk to the type named by expr.
func (x *Extractor) embeds(tk Key, expr ast.Expr) {
	id := embeddedIdent(expr)
	if id == nil {
		return
	}
	if x.typed() {
		if obj := x.Info.Uses[id]; obj != nil {
			if to, ok := x.objKey(obj); ok {
				x.edge(tk, to, analyze.EdgeEmbeds, true, x.line(id.Pos()))
			}
			return
		}
		if !x.Hybrid {
			return
		}
	}
	ref := typeRefOf(expr)
	x.res.Raws = append(x.res.Raws, RawRef{From: tk, Kind: analyze.EdgeEmbeds, Line: x.line(id.Pos()),
		File: x.rel, Scope: x.scope, Qual: ref.Qual, Name: ref.Name, ExactScope: true})
}
