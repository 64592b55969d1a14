package rust

import (
	"sort"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
)

// maxMacroDepth bounds how deep item-level macro bodies are re-parsed
// (cfg_rt! { cfg_net! { … } } is two).
const maxMacroDepth = 6

// maxItemsPerFile stops pathological files (generated tables of millions
// of constants) from flooding the facts.
const maxItemsPerFile = 200000

// extractor turns one file's syntax tree into a resolve.FileSyntax. It walks only
// the declaration skeleton through tree-sitter (cgo calls are the costly
// part of a walk); signatures and bodies are read by the lexer.
type extractor struct {
	tp         *tsParser
	src        []byte
	lineStarts []int32
	fs         *resolve.FileSyntax
	skipTests  bool
	depth      int
	toks       []token  // scratch for lexing
	bound      []string // scratch: untyped local bindings of the body being scanned
	in         interner // identifiers of this file
	innerDocs  []string // the file's //! lines
	modDocs    map[int32][]string
	skim       *skim // the function bodies left out of the parse, or nil
}

// declCtx is where a declaration list sits.
type declCtx struct {
	parent    int32 // enclosing impl, trait, struct, enum or inline mod item; -1 at file level
	mod       int32 // enclosing inline mod item; -1 for the file's own module
	container string
	inTrait   bool
	inImpl    bool
	traitImpl bool
	exported  bool // members inherit exportedness (trait items, trait impl items)
	cfgTest   bool
	foreign   bool
}

// pending collects the attributes and doc comments before an item.
type pending struct {
	start int // byte offset of the first attribute or doc comment; -1 if none
	docs  []string
	attrs attrInfo
}

func (p *pending) reset() { *p = pending{start: -1} }

// extract parses src and returns what the file declares. It never panics on
// any input and returns nil only when the parse was cancelled or timed out.
//
// Function bodies are left out of the parse when the lexer finds them
// (skim.go); a file whose skimmed tree cannot be trusted is parsed whole.
func extract(tp *tsParser, src []byte, skipTests bool) *resolve.FileSyntax {
	language()
	starts := lineStarts(src)
	if sk := newSkim(src, starts, tp.fileToks(src)); sk != nil {
		if fs, ok := extractTree(tp, src, starts, skipTests, sk); ok {
			return fs
		}
	}
	fs, _ := extractTree(tp, src, starts, skipTests, nil)
	return fs
}

// extractTree parses src, without the function bodies sk lists when sk
// is set, and walks the tree. ok is false when the skimmed tree was
// refused (see skim.go); fs is nil when the parse was cancelled or timed out.
func extractTree(tp *tsParser, src []byte, starts []int32, skipTests bool, sk *skim) (fs *resolve.FileSyntax, ok bool) {
	var ranges []sitter.Range
	if sk != nil {
		ranges = sk.ranges
	}
	tree := tp.parse(src, ranges)
	if tree == nil {
		return nil, true
	}
	defer tree.Close()
	root := tree.RootNode()
	if sk != nil && !sk.accept(root, 0, len(src)) {
		return nil, false
	}
	x := &extractor{tp: tp, src: src, fs: &resolve.FileSyntax{}, skipTests: skipTests, in: interner{}, skim: sk}
	x.lineStarts = starts
	x.fs.Lines = len(x.lineStarts)
	if len(src) == 0 || src[len(src)-1] == '\n' {
		x.fs.Lines-- // no line after a final newline
	}
	if root.HasError() {
		x.countErrors(root)
	}
	x.walkDecls(root, declCtx{parent: -1, mod: -1})
	x.fs.InnerDoc = joinDocs(x.innerDocs)
	for idx, docs := range x.modDocs {
		m := &x.fs.Items[idx]
		m.Doc = resolve.JoinDoc(m.Doc, joinDocs(docs))
	}
	return x.fs, true
}

// lineStarts returns the byte offset at which each line begins.
func lineStarts(src []byte) []int32 {
	starts := make([]int32, 1, len(src)/32+1)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, int32(i+1))
		}
	}
	return starts
}

// line returns the 1-based line of byte offset off.
func (x *extractor) line(off int) int {
	return sort.Search(len(x.lineStarts), func(i int) bool { return int(x.lineStarts[i]) > off })
}

// point returns the tree-sitter position of byte offset off.
func (x *extractor) point(off int) sitter.Point {
	l := x.line(off) - 1
	return sitter.Point{Row: uint(l), Column: uint(off - int(x.lineStarts[l]))}
}

// countErrors counts ERROR and MISSING nodes, descending only into
// subtrees that contain one.
func (x *extractor) countErrors(root *sitter.Node) {
	c := root.Walk()
	defer c.Close()
	for {
		n := c.Node()
		descend := false
		switch {
		case n.IsError() || n.IsMissing():
			x.fs.Errors++
			if l := x.line(int(n.StartByte())); x.fs.ErrLine == 0 || l < x.fs.ErrLine {
				x.fs.ErrLine = l
			}
		case n.HasError():
			descend = true
		}
		if descend && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return
			}
		}
	}
}

// walkDecls visits the declarations directly under list (a source file,
// declaration list, or an ERROR node that swallowed some).
func (x *extractor) walkDecls(list *sitter.Node, ctx declCtx) {
	c := list.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return
	}
	var p pending
	p.reset()
	for {
		n := c.Node()
		kid := n.KindId()
		switch {
		case kid == kinds.lineComment || kid == kinds.blockComment:
			x.comment(n, &p, ctx)
		case kid == kinds.attributeItem:
			x.attribute(n, &p)
		case kid == kinds.innerAttributeItem:
			// #![…] applies to the enclosing module; nothing to record.
		case n.IsError():
			x.walkDecls(n, ctx)
			p.reset()
		default:
			if len(x.fs.Items) < maxItemsPerFile {
				x.decl(n, kid, ctx, &p)
			}
			p.reset()
		}
		if !c.GotoNextSibling() {
			return
		}
	}
}

// comment records doc comments for the next item, or as the module's
// inner documentation.
func (x *extractor) comment(n *sitter.Node, p *pending, ctx declCtx) {
	s, e := int(n.StartByte()), int(n.EndByte())
	text := x.src[s:e]
	doc, inner, ok := docText(text)
	if !ok {
		return
	}
	if inner {
		if ctx.mod < 0 && ctx.parent < 0 {
			x.innerDocs = append(x.innerDocs, doc)
		} else if ctx.mod >= 0 && ctx.mod == ctx.parent {
			if x.modDocs == nil {
				x.modDocs = map[int32][]string{}
			}
			x.modDocs[ctx.mod] = append(x.modDocs[ctx.mod], doc)
		}
		return
	}
	if p.start < 0 {
		p.start = s
	}
	p.docs = append(p.docs, doc)
}

// attribute parses #[…] for the next item.
func (x *extractor) attribute(n *sitter.Node, p *pending) {
	s, e := int(n.StartByte()), int(n.EndByte())
	if p.start < 0 {
		p.start = s
	}
	x.toks = lex(x.src, s, e, x.toks[:0])
	if doc, ok := p.attrs.add(x.src, x.toks); ok {
		p.docs = append(p.docs, doc)
	}
}

// newItem appends an item with the span, doc and flags every kind shares.
func (x *extractor) newItem(n *sitter.Node, kind analyze.SymbolKind, ctx declCtx, p *pending) (int32, bool) {
	s, e := int(n.StartByte()), int(n.EndByte())
	if e <= s {
		return -1, false
	}
	cfgTest := ctx.cfgTest || p.attrs.cfgTest
	test := p.attrs.test && (kind == analyze.KindFunc || kind == analyze.KindMethod)
	if x.skipTests && (cfgTest || test) {
		return -1, false
	}
	start := s
	if p.start >= 0 && p.start < s {
		start = p.start
	}
	it := resolve.Item{
		Kind:      kind,
		Container: ctx.container,
		Start:     x.line(start),
		End:       x.line(e - 1),
		Decl:      x.line(s),
		Doc:       joinDocs(p.docs),
		Exported:  ctx.exported || hasPub(x.src, s, e),
		Test:      test,
		CfgTest:   cfgTest,
		Parent:    ctx.parent,
		Mod:       ctx.mod,
	}
	x.fs.Items = append(x.fs.Items, it)
	return int32(len(x.fs.Items) - 1), true
}

// setName fills the item's name and declaration line from its name field.
func (x *extractor) setName(idx int32, n *sitter.Node) bool {
	nn := n.ChildByFieldId(kinds.fName)
	if nn == nil {
		return false
	}
	s, e := int(nn.StartByte()), int(nn.EndByte())
	name := identText(x.src[s:e])
	if name == "" {
		return false
	}
	it := &x.fs.Items[idx]
	it.Name = name
	it.Decl = x.line(s)
	return true
}

// dropItem removes the last item when it turned out to have no name
// (error recovery can produce such nodes).
func (x *extractor) dropItem(idx int32) {
	if int(idx) == len(x.fs.Items)-1 {
		x.fs.Items = x.fs.Items[:idx]
	}
}

// decl dispatches one declaration node.
func (x *extractor) decl(n *sitter.Node, kid uint16, ctx declCtx, p *pending) {
	switch kid {
	case kinds.functionItem, kinds.functionSig:
		x.function(n, kid == kinds.functionItem, ctx, p)
	case kinds.structItem, kinds.unionItem:
		kind := analyze.KindStruct
		if kid == kinds.unionItem {
			kind = analyze.KindUnion
		}
		x.structure(n, kind, ctx, p)
	case kinds.enumItem:
		x.enumeration(n, ctx, p)
	case kinds.traitItem:
		x.trait(n, ctx, p)
	case kinds.implItem:
		x.impl(n, ctx, p)
	case kinds.modItem:
		x.module(n, ctx, p)
	case kinds.macroDef:
		x.macroRules(n, ctx, p)
	case kinds.constItem, kinds.staticItem, kinds.typeItem, kinds.assocType:
		x.valueOrAlias(n, kid, ctx, p)
	case kinds.useDecl:
		s, e := int(n.StartByte()), int(n.EndByte())
		x.toks = lex(x.src, s, e, x.toks[:0])
		for _, u := range parseUse(x.src, x.toks, int32(x.line(s))) {
			u.Mod = ctx.mod
			x.fs.Uses = append(x.fs.Uses, u)
		}
	case kinds.externCrate:
		s, e := int(n.StartByte()), int(n.EndByte())
		x.toks = lex(x.src, s, e, x.toks[:0])
		if u, ok := parseExternCrate(x.src, x.toks, int32(x.line(s))); ok {
			u.Mod = ctx.mod
			x.fs.Uses = append(x.fs.Uses, u)
		}
	case kinds.foreignMod:
		if body := n.ChildByFieldId(kinds.fBody); body != nil {
			inner := ctx
			inner.foreign = true
			x.walkDecls(body, inner)
		}
	case kinds.macroInvocation:
		x.itemMacro(n, ctx, p)
	}
}
