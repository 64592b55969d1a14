package scip

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	pb "github.com/sourcegraph/scip/bindings/go/scip"
)

// Options configures Load. The zero value reads nothing.
type Options struct {
	// Indexes are the index files, absolute or relative to the root. A
	// document's relative path is taken relative to its index file's
	// directory (where indexers write index.scip by default).
	Indexes []string
	// Ignore, when set, is asked about every repository path; ignored
	// files are left out.
	Ignore func(rel string, isDir bool) bool
	// MaxIndexSize caps an index file's size (0: MaxIndexSize);
	// MaxFileSize a source file's (0: analyze.MaxFileSize).
	MaxIndexSize int64
	MaxFileSize  int64
	// OnSource, when set, is given the text of every repository file the
	// facts hold, as read, with the content hash they record; src must
	// not be changed.
	OnSource func(rel, hash string, src []byte)
}

// Info describes one index that was read.
type Info struct {
	Path      string // as given in Options.Indexes
	Tool      string // "rust-analyzer 0.3.2", "scip-typescript 0.4.0"
	Documents int    // documents in the index
	Fresh     int    // documents that matched the working tree
}

// Result is what Load read.
type Result struct {
	// Facts holds the files of the documents that matched the working tree
	// with their symbols and edges (every edge exact, OriginSCIP), plus
	// files of languages known only through SCIP that have no usable
	// document (stale, or in no index), with no symbols and marked
	// Degraded. Facts are normalised.
	Facts *analyze.Facts
	// Fresh is the set of paths whose documents matched the working tree.
	Fresh map[string]bool
	// Stale lists, sorted, the paths of documents whose files changed or
	// disappeared since the index was made.
	Stale   []string
	Indexes []Info
}

// Load reads the indexes of opt under root. It fails only when ctx ends;
// an index that cannot be read is a problem in the result, and the others
// are still used.
func Load(ctx context.Context, root string, opt Options) (*Result, error) {
	var parsed []parsedIndex
	var probs []analyze.Problem
	for _, p := range opt.Indexes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(root, p)
		}
		idx, err := ReadFile(full, opt.MaxIndexSize)
		if err != nil {
			probs = append(probs, analyze.Problem{Kind: analyze.ProblemLoad, Msg: fmt.Sprintf("SCIP index %s not used: %v", p, err)})
			continue
		}
		parsed = append(parsed, parsedIndex{path: p, dir: indexDir(root, full), idx: idx})
	}
	res, err := convert(ctx, root, parsed, opt)
	if res != nil {
		res.Facts.Problems = append(res.Facts.Problems, probs...)
		res.Facts.Normalize()
	}
	return res, err
}

// parsedIndex is an index read from its file.
type parsedIndex struct {
	path string // as given
	dir  string // its directory relative to the root, which prefixes its documents' paths
	idx  *pb.Index
}

// convert turns read indexes into a result.
func convert(ctx context.Context, root string, indexes []parsedIndex, opt Options) (*Result, error) {
	res := &Result{Facts: &analyze.Facts{Root: root}, Fresh: map[string]bool{}}
	c := &converter{
		root: root, opt: opt, facts: res.Facts, res: res,
		defs: map[string]analyze.SymID{}, infos: map[string]*pb.SymbolInformation{},
		keys: map[string]described{}, seen: map[string]bool{},
	}
	// Every symbol's information first: a document may name a symbol
	// before the document that defines it comes (descriptions are cached).
	for _, in := range indexes {
		for _, si := range in.idx.ExternalSymbols {
			c.addInfo(si)
		}
		for _, d := range in.idx.Documents {
			for _, si := range d.GetSymbols() {
				c.addInfo(si)
			}
		}
	}
	var docs []*document
	for _, in := range indexes {
		p, idx, prefix := in.path, in.idx, in.dir
		info := Info{Path: p, Documents: len(idx.Documents)}
		if ti := idx.GetMetadata().GetToolInfo(); ti != nil {
			info.Tool = strings.TrimSpace(ti.Name + " " + ti.Version)
		}
		for _, d := range idx.Documents {
			doc := c.open(d, prefix, p)
			if doc != nil {
				docs = append(docs, doc)
				info.Fresh++
			}
		}
		res.Indexes = append(res.Indexes, info)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, d := range docs {
		c.define(d)
	}
	c.rustImpls()
	for _, d := range docs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.occurrences(d)
		c.relationships(d)
	}
	c.testEdges()
	c.uncovered(ctx)
	sort.Strings(res.Stale)
	return res, nil
}

// indexDir is the directory of an index file relative to root ("" for the
// root itself or a file outside it).
func indexDir(root, full string) string {
	rel, err := filepath.Rel(root, filepath.Dir(full))
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// document is one fresh document being converted.
type document struct {
	doc    *pb.Document
	file   analyze.FileID
	lang   analyze.Lang
	text   *text
	module analyze.SymID // the file's module symbol, or NoSym
	defs   []defSpan     // symbols with their occurrence positions, for attribution
}

// defSpan is a definition with the span of its enclosing range (0-based
// lines and byte columns), for finding the innermost one around an
// occurrence.
type defSpan struct {
	sym  analyze.SymID
	body span
}

type converter struct {
	root  string
	opt   Options
	facts *analyze.Facts
	res   *Result
	defs  map[string]analyze.SymID // canonical symbol → definition
	infos map[string]*pb.SymbolInformation
	keys  map[string]described // symbol string → description (a cache)
	seen  map[string]bool      // repository paths already taken by an index
	// Rust trait implementations to decode after all definitions.
	impls []analyze.SymID
	desc  []described // per symbol of facts
}

func (c *converter) addInfo(si *pb.SymbolInformation) {
	if si == nil || si.Symbol == "" {
		return
	}
	if _, ok := c.infos[si.Symbol]; !ok {
		c.infos[si.Symbol] = si
	}
}

// describe interprets a symbol string once.
func (c *converter) describe(s string) (described, bool) {
	if d, ok := c.keys[s]; ok {
		return d, d.key != ""
	}
	d, ok := describe(s, c.infos[s])
	if !ok {
		d = described{}
	}
	c.keys[s] = d
	return d, ok
}

// open checks a document against the working tree and, when it matches,
// adds its file. It returns nil for a document that is not used.
func (c *converter) open(d *pb.Document, prefix, indexPath string) *document {
	rel := path.Clean(path.Join(prefix, filepath.ToSlash(d.RelativePath)))
	if d.RelativePath == "" || !analyze.CleanRel(rel) || c.seen[rel] {
		return nil
	}
	if c.opt.Ignore != nil && c.opt.Ignore(rel, false) {
		return nil
	}
	c.seen[rel] = true
	lang := langOf(d.Language, rel)
	src, err := analyze.ReadSource(c.root, rel, c.opt.MaxFileSize)
	if err != nil {
		c.res.Stale = append(c.res.Stale, rel)
		c.facts.Problemf(analyze.ProblemDegraded, rel, 0, "in SCIP index %s but unreadable now (%v); not used from the index", indexPath, err)
		return nil
	}
	t := newText(src, d.PositionEncoding)
	if !c.matches(d, t, src) {
		c.res.Stale = append(c.res.Stale, rel)
		fallback := "our own analysis is used instead"
		if lang != analyze.LangGo && lang != analyze.LangRust {
			fallback = "it is searched as text only"
		}
		c.facts.Problemf(analyze.ProblemDegraded, rel, 0, "changed since SCIP index %s was made; %s", indexPath, fallback)
		c.addFile(rel, lang, src, true)
		return nil
	}
	c.res.Fresh[rel] = true
	fid := c.addFile(rel, lang, src, false)
	return &document{doc: d, file: fid, lang: lang, text: t, module: analyze.NoSym}
}

// addFile adds a file of the repository to the facts.
func (c *converter) addFile(rel string, lang analyze.Lang, src []byte, degraded bool) analyze.FileID {
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:])
	if c.opt.OnSource != nil {
		c.opt.OnSource(rel, hash, src)
	}
	cat := analyze.Classify(rel)
	if cat == analyze.CatSource && analyze.IsGeneratedContent(src) {
		cat = analyze.CatGenerated
	}
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	lines := strings.Count(string(src), "\n")
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	return c.facts.AddFile(analyze.File{
		Path: rel, Lang: lang, Package: dir, PkgName: path.Base("/" + dir), Category: cat,
		Size: int64(len(src)), Lines: lines, Hash: hash, Degraded: degraded,
	})
}

// langOf is a document's language, from its language field or its path.
func langOf(lang, rel string) analyze.Lang {
	switch strings.ToLower(lang) {
	case "go":
		return analyze.LangGo
	case "rust":
		return analyze.LangRust
	case "typescript", "typescriptreact":
		return analyze.LangTypeScript
	case "javascript", "javascriptreact":
		return analyze.LangJavaScript
	case "python":
		return analyze.LangPython
	}
	return analyze.LangOf(rel)
}

// matches reports whether a document still describes the file: its text
// when the index carries it; otherwise every occurrence must lie inside the
// file, every definition's range must hold the defined name, and at most
// one reference in twenty (aliases, re-exports) may hold another text.
func (c *converter) matches(d *pb.Document, t *text, src []byte) bool {
	if d.Text != "" {
		return d.Text == string(src)
	}
	var refs, refMiss int
	for _, o := range d.Occurrences {
		s, ok := t.decodeRange(o.Range)
		if !ok {
			return false
		}
		if pb.IsLocalSymbol(o.Symbol) || s.startLine != s.endLine || s.startCol == s.endCol {
			continue
		}
		ds, ok := c.describe(o.Symbol)
		if !ok || ds.module || ds.implSelf != "" && ds.name == ds.implSelf {
			continue
		}
		want := lastDescriptorName(o.Symbol)
		if want == "" || strings.HasPrefix(want, "<") {
			continue
		}
		got := t.at(s)
		same := got == want || got == "Self" || got == "self" || strings.Trim(got, "`'\"") == want || strings.TrimPrefix(got, "r#") == want
		if o.SymbolRoles&int32(pb.SymbolRole_Definition) != 0 {
			if !same {
				return false
			}
			continue
		}
		refs++
		if !same {
			refMiss++
		}
	}
	return refMiss*20 <= refs
}

// lastDescriptorName is the name of a symbol's last descriptor as the
// source spells it.
func lastDescriptorName(s string) string {
	sym, err := parseSymbol(s)
	if err != nil || len(sym.Descriptors) == 0 {
		return ""
	}
	return sym.Descriptors[len(sym.Descriptors)-1].Name
}

// define adds a symbol for every global definition in the document.
func (c *converter) define(d *document) {
	var module analyze.SymID = analyze.NoSym
	for _, o := range d.doc.Occurrences {
		if o.SymbolRoles&int32(pb.SymbolRole_Definition) == 0 || pb.IsLocalSymbol(o.Symbol) {
			continue
		}
		ds, ok := c.describe(o.Symbol)
		if !ok {
			continue
		}
		if _, dup := c.defs[ds.key]; dup {
			continue
		}
		at, ok := d.text.decodeRange(o.Range)
		if !ok {
			continue
		}
		body := at
		if len(o.EnclosingRange) > 0 {
			if b, ok := d.text.decodeRange(o.EnclosingRange); ok && b.startLine <= at.startLine && b.endLine >= at.endLine {
				body = b
			}
		}
		fileModule := ds.module && (at.startLine == 0 && at.startCol == at.endCol || body.startLine == 0 && body.endLine >= len(d.text.lines)-2)
		info := c.infos[o.Symbol]
		sym := analyze.Symbol{
			Name: ds.name, Container: ds.container, Kind: ds.kind, File: d.file,
			Start: d.text.extendUp(body.startLine) + 1, End: body.endLine + 1, DeclLine: at.startLine + 1,
			Doc: docOf(info), Signature: signatureOf(info), Exported: !strings.HasPrefix(ds.name, "_"),
			Parent: analyze.NoSym,
		}
		if fileModule {
			if module != analyze.NoSym {
				continue
			}
			sym.Name = moduleStem(c.facts.Files[d.file].Path)
			sym.Start, sym.End, sym.DeclLine = 1, 1, 1
		}
		if body.endLine == len(d.text.lines)-1 && len(d.text.lines[body.endLine]) == 0 && body.endCol == 0 && sym.End > sym.Start {
			sym.End-- // an enclosing range ending at the start of the last, empty line
		}
		cat := c.facts.Files[d.file].Category
		sym.Test = cat == analyze.CatTest && (sym.Kind.IsCallable() || fileModule)
		id := c.facts.AddSymbol(sym)
		c.desc = append(c.desc, ds)
		c.defs[ds.key] = id
		if fileModule {
			module = id
			continue
		}
		if ds.implTrait != "" || ds.implSelf != "" {
			c.impls = append(c.impls, id)
		}
		if !ds.module {
			d.defs = append(d.defs, defSpan{sym: id, body: body})
		}
	}
	if module == analyze.NoSym && d.lang != analyze.LangGo && d.lang != analyze.LangRust {
		cat := c.facts.Files[d.file].Category
		module = c.facts.AddSymbol(analyze.Symbol{Name: moduleStem(c.facts.Files[d.file].Path), Kind: analyze.KindModule,
			File: d.file, Start: 1, End: 1, DeclLine: 1, Exported: true, Test: cat == analyze.CatTest, Parent: analyze.NoSym})
		c.desc = append(c.desc, described{module: true})
	}
	d.module = module
	// Members point at their types.
	for _, ds := range d.defs {
		desc := c.desc[ds.sym]
		if desc.parent == "" {
			continue
		}
		if p, ok := c.defs[desc.parent]; ok {
			c.facts.Symbols[ds.sym].Parent = p
			c.memberEdge(ds.sym, p)
		}
	}
	sort.SliceStable(d.defs, func(i, j int) bool {
		return before(d.defs[i].body.startLine, d.defs[i].body.startCol, d.defs[j].body.startLine, d.defs[j].body.startCol)
	})
}

// memberEdge links a member to its type: method_of for methods and
// associated items, field for fields and variants.
func (c *converter) memberEdge(member, typ analyze.SymID) {
	s := &c.facts.Symbols[member]
	switch s.Kind {
	case analyze.KindField, analyze.KindVariant:
		c.facts.AddEdge(analyze.Edge{From: typ, To: member, Kind: analyze.EdgeField, Exact: true, Origin: analyze.OriginSCIP, Line: s.DeclLine})
	default:
		c.facts.AddEdge(analyze.Edge{From: member, To: typ, Kind: analyze.EdgeMethodOf, Exact: true, Origin: analyze.OriginSCIP, Line: s.DeclLine})
	}
}

// moduleStem names a file's module: the file name without its extension
// ("user.test.ts" → "user.test"), or the directory's for an __init__.py or
// index.ts.
func moduleStem(rel string) string {
	base := path.Base(rel)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if stem == "__init__" || stem == "index" || stem == "mod" {
		if dir := path.Base(path.Dir(rel)); dir != "." && dir != "/" {
			return dir
		}
	}
	return stem
}

func before(l1, c1, l2, c2 int) bool { return l1 < l2 || l1 == l2 && c1 < c2 }

// inside reports whether position (l, col) lies within s.
func inside(s span, l, col int) bool {
	return !before(l, col, s.startLine, s.startCol) && !before(s.endLine, s.endCol, l, col)
}

// enclosing is the innermost definition whose body holds (l, col), or
// NoSym.
func (d *document) enclosing(l, col int) analyze.SymID {
	best := analyze.NoSym
	var bestSpan span
	for _, ds := range d.defs {
		if before(l, col, ds.body.startLine, ds.body.startCol) {
			break // sorted by start
		}
		if !inside(ds.body, l, col) {
			continue
		}
		if best == analyze.NoSym || !before(ds.body.startLine, ds.body.startCol, bestSpan.startLine, bestSpan.startCol) {
			best, bestSpan = ds.sym, ds.body
		}
	}
	return best
}

// occurrences adds an edge for every reference occurrence whose target is
// defined in some document, from the innermost definition around it (or
// the file's module).
func (c *converter) occurrences(d *document) {
	imported := map[string]bool{}
	for _, o := range d.doc.Occurrences {
		if o.SymbolRoles&int32(pb.SymbolRole_Definition) != 0 || pb.IsLocalSymbol(o.Symbol) {
			continue
		}
		ds, ok := c.describe(o.Symbol)
		if !ok {
			continue
		}
		to, ok := c.defs[ds.key]
		if !ok {
			continue // defined outside every document: the standard library, a dependency
		}
		at, ok := d.text.decodeRange(o.Range)
		if !ok {
			continue
		}
		from := d.enclosing(at.startLine, at.startCol)
		if from == analyze.NoSym {
			from = d.module
		}
		if from == analyze.NoSym || from == to {
			continue
		}
		target := &c.facts.Symbols[to]
		if tf := target.File; tf != d.file {
			if pkg := c.facts.Files[tf].Package; !imported[pkg] && pkg != c.facts.Files[d.file].Package {
				imported[pkg] = true
				c.facts.Imports = append(c.facts.Imports, analyze.Import{File: d.file, Path: pkg, Line: at.startLine + 1})
			}
		}
		if ds.module {
			continue // a module named in an import: the import record says it
		}
		kind := analyze.EdgeReferences
		switch {
		case target.Kind == analyze.KindMacro:
			kind = analyze.EdgeMacro
		case target.Kind.IsCallable() && ds.name != "constructor":
			if next := d.text.followedBy(at); next == '(' || next == '<' || next == ':' || next == '`' {
				kind = analyze.EdgeCalls
			}
		case target.Kind.IsCallable():
			kind = analyze.EdgeCalls // TypeScript's new X(…) names X's constructor
		}
		c.facts.AddEdge(analyze.Edge{From: from, To: to, Kind: kind, Exact: true, Origin: analyze.OriginSCIP, Line: at.startLine + 1})
	}
}

// relationships adds implements edges from is_implementation
// relationships.
func (c *converter) relationships(d *document) {
	for _, si := range d.doc.Symbols {
		if si == nil || len(si.Relationships) == 0 {
			continue
		}
		ds, ok := c.describe(si.Symbol)
		if !ok {
			continue
		}
		from, ok := c.defs[ds.key]
		if !ok || c.facts.Symbols[from].File != d.file {
			continue
		}
		for _, r := range si.Relationships {
			if r == nil || !r.IsImplementation {
				continue
			}
			rd, ok := c.describe(r.Symbol)
			if !ok {
				continue
			}
			if to, ok := c.defs[rd.key]; ok {
				c.facts.AddEdge(analyze.Edge{From: from, To: to, Kind: analyze.EdgeImplements, Exact: true, Origin: analyze.OriginSCIP, Line: c.facts.Symbols[from].DeclLine})
			}
		}
	}
}

// rustImpls decodes rust-analyzer's impl#[Self][Trait]item symbols: the
// item is a member of Self, implements the trait's item of the same name,
// and Self implements the trait. The names are resolved among the
// index's types; an ambiguous name links nothing.
func (c *converter) rustImpls() {
	if len(c.impls) == 0 {
		return
	}
	types := map[string][]analyze.SymID{}
	members := map[[2]string]analyze.SymID{}
	for id, s := range c.facts.Symbols {
		if s.Kind.IsType() {
			types[s.Name] = append(types[s.Name], analyze.SymID(id))
		}
		if p := c.desc[id].parent; p != "" && c.facts.Symbols[id].Kind != analyze.KindField {
			if pid, ok := c.defs[p]; ok && c.facts.Symbols[pid].Kind == analyze.KindTrait {
				members[[2]string{c.facts.Symbols[pid].Name, s.Name}] = analyze.SymID(id)
			}
		}
	}
	unique := func(name string, trait bool) analyze.SymID {
		var found []analyze.SymID
		for _, id := range types[name] {
			if (c.facts.Symbols[id].Kind == analyze.KindTrait) == trait {
				found = append(found, id)
			}
		}
		if len(found) == 1 {
			return found[0]
		}
		return analyze.NoSym
	}
	done := map[[2]analyze.SymID]bool{}
	for _, id := range c.impls {
		ds := c.desc[id]
		self := unique(ds.implSelf, false)
		s := &c.facts.Symbols[id]
		if self != analyze.NoSym && s.Parent == analyze.NoSym {
			s.Parent = self
			c.memberEdge(id, self)
		}
		if ds.implTrait == "" {
			continue
		}
		trait := unique(ds.implTrait, true)
		if trait == analyze.NoSym {
			continue
		}
		if m, ok := members[[2]string{ds.implTrait, s.Name}]; ok {
			c.facts.AddEdge(analyze.Edge{From: id, To: m, Kind: analyze.EdgeImplements, Exact: true, Origin: analyze.OriginSCIP, Line: s.DeclLine})
		}
		if self != analyze.NoSym && !done[[2]analyze.SymID{self, trait}] {
			done[[2]analyze.SymID{self, trait}] = true
			c.facts.AddEdge(analyze.Edge{From: self, To: trait, Kind: analyze.EdgeImplements, Exact: true, Origin: analyze.OriginSCIP, Line: s.DeclLine})
		}
	}
}

// testEdges adds a tests edge beside every call or reference from a test
// to code outside the test files.
func (c *converter) testEdges() {
	n := len(c.facts.Edges)
	for i := 0; i < n; i++ {
		e := c.facts.Edges[i]
		if e.Kind != analyze.EdgeCalls && e.Kind != analyze.EdgeReferences {
			continue
		}
		from, to := &c.facts.Symbols[e.From], &c.facts.Symbols[e.To]
		if from.Test && c.facts.Files[to.File].Category != analyze.CatTest {
			c.facts.AddEdge(analyze.Edge{From: e.From, To: e.To, Kind: analyze.EdgeTests, Exact: true, Origin: analyze.OriginSCIP, Line: e.Line})
		}
	}
}

// uncovered adds, as text-only files, the files of the languages known
// only through SCIP that no index covers, so that they are still found by
// their words; a problem names each.
func (c *converter) uncovered(ctx context.Context) {
	langs := map[analyze.Lang]bool{}
	for _, f := range c.facts.Files {
		if f.Lang != analyze.LangGo && f.Lang != analyze.LangRust && f.Lang != analyze.LangUnknown {
			langs[f.Lang] = true
		}
	}
	if len(langs) == 0 {
		return
	}
	var list []analyze.Lang
	for l := range langs {
		list = append(list, l)
	}
	sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
	files, _, err := analyze.ListFiles(ctx, c.root, analyze.WalkOptions{Langs: list, Ignore: c.opt.Ignore, MaxFileSize: c.opt.MaxFileSize})
	if err != nil && len(files) == 0 {
		return
	}
	for _, rel := range files {
		if c.seen[rel] || strings.HasSuffix(rel, ".d.ts") {
			continue
		}
		src, err := analyze.ReadSource(c.root, rel, c.opt.MaxFileSize)
		if err != nil {
			continue
		}
		c.seen[rel] = true
		c.addFile(rel, analyze.LangOf(rel), src, true)
		c.facts.Problemf(analyze.ProblemDegraded, rel, 0, "in no SCIP index; searched as text only (index it again to have its symbols)")
	}
}

// Summary is a one-line account of what the indexes gave, for logs and
// --explain.
func (r *Result) Summary() string {
	var parts []string
	for _, in := range r.Indexes {
		tool := in.Tool
		if tool == "" {
			tool = "unknown indexer"
		}
		parts = append(parts, fmt.Sprintf("%s (%s): %d of %d documents used", in.Path, tool, in.Fresh, in.Documents))
	}
	return strings.Join(parts, "; ")
}
