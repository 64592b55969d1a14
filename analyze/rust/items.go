package rust

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
)

// function records a fn item (with a body) or signature (trait method,
// extern fn).
func (x *extractor) function(n *sitter.Node, hasBody bool, ctx declCtx, p *pending) {
	kind := analyze.KindFunc
	if ctx.inTrait || ctx.inImpl {
		kind = analyze.KindMethod
	}
	idx, ok := x.namedItem(n, kind, ctx, p)
	if !ok {
		return
	}
	var body *sitter.Node
	if hasBody {
		body = n.ChildByFieldId(kinds.fBody)
	}
	sigEnd := x.head(n, body, idx)
	if body != nil {
		x.toks = lex(x.src, sigEnd, int(body.EndByte()), x.toks[:0])
		x.scanBody(idx, x.toks, false)
	}
}

// head records item idx's signature, the text of n up to body (all of n
// when body is nil), scans it for the names it mentions, and returns
// where it ends.
func (x *extractor) head(n, body *sitter.Node, idx int32) int {
	s, end := int(n.StartByte()), int(n.EndByte())
	if body != nil {
		end = int(body.StartByte())
	}
	x.fs.Items[idx].Sig = signature(x.src, s, end)
	x.toks = lex(x.src, s, end, x.toks[:0])
	x.scanSignature(idx, x.toks)
	return end
}

// structure records a struct or union with its named fields.
func (x *extractor) structure(n *sitter.Node, kind analyze.SymbolKind, ctx declCtx, p *pending) {
	idx, ok := x.namedItem(n, kind, ctx, p)
	if !ok {
		return
	}
	body := n.ChildByFieldId(kinds.fBody)
	if body != nil && body.KindId() != kinds.fieldDeclList {
		body = nil // a tuple struct's fields are part of its signature
	}
	x.head(n, body, idx)
	if body != nil {
		it := x.fs.Items[idx]
		x.walkFields(body, idx, it.Name, declCtx{parent: idx, mod: ctx.mod, cfgTest: it.CfgTest})
	}
}

// walkFields records the named fields of a struct, union or enum variant.
func (x *extractor) walkFields(list *sitter.Node, parent int32, container string, ctx declCtx) {
	c := list.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return
	}
	var p pending
	p.reset()
	for {
		n := c.Node()
		switch kid := n.KindId(); {
		case kid == kinds.lineComment || kid == kinds.blockComment:
			x.comment(n, &p, declCtx{parent: parent, mod: ctx.mod})
		case kid == kinds.attributeItem:
			x.attribute(n, &p)
		case kid == kinds.fieldDecl:
			x.field(n, parent, container, ctx, &p)
			p.reset()
		case n.IsNamed():
			p.reset()
		}
		if !c.GotoNextSibling() {
			return
		}
	}
}

func (x *extractor) field(n *sitter.Node, parent int32, container string, ctx declCtx, p *pending) {
	fctx := ctx
	fctx.parent = parent
	fctx.container = container
	idx, ok := x.namedItem(n, analyze.KindField, fctx, p)
	if !ok {
		return
	}
	s, e := int(n.StartByte()), int(n.EndByte())
	x.fs.Items[idx].Sig = signature(x.src, s, e)
	if t := n.ChildByFieldId(kinds.fType); t != nil {
		x.toks = lex(x.src, int(t.StartByte()), int(t.EndByte()), x.toks[:0])
		x.fs.Items[idx].Typ = typeHead(x.src, x.toks)
		x.scanTypes(idx, x.toks)
	}
}

// enumeration records an enum, its variants and their named fields.
func (x *extractor) enumeration(n *sitter.Node, ctx declCtx, p *pending) {
	idx, ok := x.namedItem(n, analyze.KindEnum, ctx, p)
	if !ok {
		return
	}
	body := n.ChildByFieldId(kinds.fBody)
	x.head(n, body, idx)
	if body == nil {
		return
	}
	enum := x.fs.Items[idx]
	vctx := declCtx{parent: idx, mod: ctx.mod, container: enum.Name, exported: enum.Exported, cfgTest: enum.CfgTest}
	c := body.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return
	}
	var vp pending
	vp.reset()
	for {
		v := c.Node()
		switch kid := v.KindId(); {
		case kid == kinds.lineComment || kid == kinds.blockComment:
			x.comment(v, &vp, vctx)
		case kid == kinds.attributeItem:
			x.attribute(v, &vp)
		case kid == kinds.enumVariant:
			x.variant(v, vctx, &vp)
			vp.reset()
		case v.IsNamed():
			vp.reset()
		}
		if !c.GotoNextSibling() {
			return
		}
	}
}

func (x *extractor) variant(n *sitter.Node, ctx declCtx, p *pending) {
	idx, ok := x.namedItem(n, analyze.KindVariant, ctx, p)
	if !ok {
		return
	}
	s, e := int(n.StartByte()), int(n.EndByte())
	x.fs.Items[idx].Sig = signature(x.src, s, e)
	body := n.ChildByFieldId(kinds.fBody)
	if body == nil {
		return
	}
	if body.KindId() == kinds.fieldDeclList {
		v := x.fs.Items[idx]
		x.walkFields(body, idx, v.Container+"::"+v.Name, declCtx{parent: idx, mod: ctx.mod, cfgTest: v.CfgTest})
		return
	}
	x.toks = lex(x.src, int(body.StartByte()), int(body.EndByte()), x.toks[:0])
	x.scanTypes(idx, x.toks)
}

// trait records a trait and its associated items.
func (x *extractor) trait(n *sitter.Node, ctx declCtx, p *pending) {
	idx, ok := x.namedItem(n, analyze.KindTrait, ctx, p)
	if !ok {
		return
	}
	body := n.ChildByFieldId(kinds.fBody)
	x.head(n, body, idx)
	if body != nil {
		t := x.fs.Items[idx]
		x.walkDecls(body, declCtx{parent: idx, mod: ctx.mod, container: t.Name, inTrait: true, exported: t.Exported, cfgTest: t.CfgTest})
	}
}

// impl records an impl block. Its Name is the self type ("MemoryStore")
// for an inherent impl and "Trait for Type" ("Store for MemoryStore",
// "From<StoreError> for ServiceError") for a trait impl; generic arguments
// of the self type are dropped, those of the trait kept.
func (x *extractor) impl(n *sitter.Node, ctx declCtx, p *pending) {
	idx, ok := x.newItem(n, analyze.KindImpl, ctx, p)
	if !ok {
		return
	}
	typ := n.ChildByFieldId(kinds.fType)
	if typ == nil {
		x.dropItem(idx)
		return
	}
	ts, te := int(typ.StartByte()), int(typ.EndByte())
	x.toks = lex(x.src, ts, te, x.toks[:0])
	selfName := typeDisplay(x.src, x.toks)
	it := &x.fs.Items[idx]
	it.ImplType = typeHead(x.src, x.toks)
	it.Name = selfName
	it.Decl = x.line(ts)
	it.Exported = false
	traitImpl := false
	if tr := n.ChildByFieldId(kinds.fTrait); tr != nil {
		x.toks = lex(x.src, int(tr.StartByte()), int(tr.EndByte()), x.toks[:0])
		it.ImplTrait = typeHead(x.src, x.toks)
		it.Name = collapse(x.src, int(tr.StartByte()), int(tr.EndByte())) + " for " + selfName
		traitImpl = true
	}
	body := n.ChildByFieldId(kinds.fBody)
	x.head(n, body, idx)
	if body != nil {
		im := x.fs.Items[idx]
		x.walkDecls(body, declCtx{parent: idx, mod: ctx.mod, container: selfName, inImpl: true, traitImpl: traitImpl, exported: traitImpl, cfgTest: im.CfgTest})
	}
}

// module records `mod x;` or `mod x { … }`.
func (x *extractor) module(n *sitter.Node, ctx declCtx, p *pending) {
	idx, ok := x.namedItem(n, analyze.KindModule, ctx, p)
	if !ok {
		return
	}
	s, e := int(n.StartByte()), int(n.EndByte())
	body := n.ChildByFieldId(kinds.fBody)
	it := &x.fs.Items[idx]
	it.Paths = p.attrs.paths
	if body == nil {
		it.External = true
		it.Sig = signature(x.src, s, e)
		return
	}
	it.Sig = signature(x.src, s, int(body.StartByte()))
	m := x.fs.Items[idx]
	x.walkDecls(body, declCtx{parent: idx, mod: idx, cfgTest: m.CfgTest})
}

// macroRules records a macro_rules! definition and what its rules mention.
func (x *extractor) macroRules(n *sitter.Node, ctx declCtx, p *pending) {
	idx, ok := x.namedItem(n, analyze.KindMacro, ctx, p)
	if !ok {
		return
	}
	it := &x.fs.Items[idx]
	it.MacroExport = p.attrs.macroExport
	it.Exported = it.MacroExport
	it.Sig = "macro_rules! " + it.Name
	s, e := int(n.StartByte()), int(n.EndByte())
	x.toks = lex(x.src, s, e, x.toks[:0])
	// Skip `macro_rules ! name` and read the rules as code.
	if len(x.toks) > 3 {
		x.scanBody(idx, x.toks[3:], true)
	}
}

// valueOrAlias records const, static, type alias and associated type items.
func (x *extractor) valueOrAlias(n *sitter.Node, kid uint16, ctx declCtx, p *pending) {
	var kind analyze.SymbolKind
	switch kid {
	case kinds.constItem:
		kind = analyze.KindConst
	case kinds.staticItem:
		kind = analyze.KindStatic
	case kinds.typeItem:
		kind = analyze.KindTypeAlias
		if ctx.inImpl || ctx.inTrait {
			kind = analyze.KindAssocType
		}
	default:
		kind = analyze.KindAssocType
	}
	idx, ok := x.namedItem(n, kind, ctx, p)
	if !ok {
		return
	}
	s, e := int(n.StartByte()), int(n.EndByte())
	x.fs.Items[idx].Sig = signature(x.src, s, e)
	if t := n.ChildByFieldId(kinds.fType); t != nil {
		x.toks = lex(x.src, int(t.StartByte()), int(t.EndByte()), x.toks[:0])
		x.fs.Items[idx].Typ = typeHead(x.src, x.toks)
	}
	x.toks = lex(x.src, s, e, x.toks[:0])
	if kind == analyze.KindConst || kind == analyze.KindStatic {
		x.scanBody(idx, x.toks, false)
		return
	}
	x.scanSignature(idx, x.toks)
}

// itemMacro handles a macro invoked where items go. Wrappers such as
// cfg_rt! { pub mod runtime; } hide real items from the grammar, so a body
// that starts like items is re-parsed in place (positions stay those of
// the file) and its items join the enclosing scope.
func (x *extractor) itemMacro(n *sitter.Node, ctx declCtx, p *pending) {
	tt := lastChildOfKind(n, kinds.tokenTree)
	if tt == nil {
		return
	}
	s, e := int(tt.StartByte())+1, int(tt.EndByte())-1
	if ctx.parent >= 0 {
		ms := int(n.StartByte())
		x.toks = lex(x.src, ms, s, x.toks[:0])
		if path, ok := macroPath(x.src, x.toks); ok {
			it := &x.fs.Items[ctx.parent]
			it.Refs = append(it.Refs, resolve.Ref{Kind: resolve.RefMacro, Line: int32(x.line(ms)), Path: path})
		}
	}
	if e <= s || x.depth >= maxMacroDepth || !looksLikeItems(x.src, s, e) {
		return
	}
	tree := x.parseMacroBody(s, e)
	if tree == nil {
		return
	}
	defer tree.Close()
	inner := ctx
	inner.cfgTest = ctx.cfgTest || p.attrs.cfgTest
	x.depth++
	x.walkDecls(tree.RootNode(), inner)
	x.depth--
}

// parseMacroBody parses src[s:e] on its own, positions kept. Under a skim
// the function bodies inside are left out too, unless the tree that gives
// fails the skim's check; then the range is parsed whole, as it would be
// without the skim.
func (x *extractor) parseMacroBody(s, e int) *sitter.Tree {
	if x.skim != nil {
		if ranges := x.skim.within(s, e, x.point); len(ranges) > 1 {
			tree := x.tp.parse(x.src, ranges)
			if tree == nil || x.skim.accept(tree.RootNode(), s, e) {
				return tree
			}
			tree.Close()
		}
	}
	return x.tp.parse(x.src, []sitter.Range{{StartByte: uint(s), EndByte: uint(e), StartPoint: x.point(s), EndPoint: x.point(e)}})
}

// lastChildOfKind returns n's last child of the given kind, or nil.
func lastChildOfKind(n *sitter.Node, kind uint16) *sitter.Node {
	c := n.Walk()
	defer c.Close()
	var found *sitter.Node
	if !c.GotoFirstChild() {
		return nil
	}
	for {
		if ch := c.Node(); ch.KindId() == kind {
			found = ch
		}
		if !c.GotoNextSibling() {
			return found
		}
	}
}

// looksLikeItems reports whether the text starts with an attribute, a doc
// comment or an item keyword.
func looksLikeItems(src []byte, s, e int) bool {
	toks := lex(src, s, min(e, s+512), nil)
	for i, t := range toks {
		if i >= 3 {
			break
		}
		if t.k == tPunct && isPunct(src, t, "#") {
			return true
		}
		if t.k != tIdent {
			return false
		}
		switch string(src[t.s:t.e]) {
		case "pub", "fn", "struct", "enum", "union", "trait", "impl", "mod", "use", "const", "static",
			"type", "unsafe", "async", "extern", "macro_rules":
			return true
		}
	}
	return false
}

// namedItem records a new item for n and its name; an item whose name
// cannot be read is dropped again, and ok is false.
func (x *extractor) namedItem(n *sitter.Node, kind analyze.SymbolKind, ctx declCtx, p *pending) (int32, bool) {
	idx, ok := x.newItem(n, kind, ctx, p)
	if !ok {
		return 0, false
	}
	if !x.setName(idx, n) {
		x.dropItem(idx)
		return 0, false
	}
	return idx, true
}
