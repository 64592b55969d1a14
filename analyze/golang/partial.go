package golang

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/factcodec"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Re-extracting only the edited files of a package.
//
// A large package costs most of a load after an edit: on hugo, checking
// hugolib with its tests in full takes a quarter of a second, whichever
// of its 96 files changed. Yet what extraction finds in one file depends
// only on that file, on the package's declarations and on its imports:
// a function body in one file cannot change what another file's code
// refers to.
//
// So when a package without type errors is extracted, each of its files'
// part of the result is kept (a part: that file's symbols, edges,
// references and method sets, with the identity of every key it holds
// outside the file, see foreign.go), under a key of the file's content,
// the package's shape (its declarations without lines and columns) and
// its imports' surfaces; and a slot per package records the shape and
// the content of each file. When the package must be extracted again and
// the slot names the same files, the package is checked with the bodies
// of its unchanged files left out (go/types accepts functions without
// bodies), which is cheap; if that check finds no error in the edited
// files and gives the recorded shape, only the edited files are
// extracted and the other files' parts are reused. Otherwise the
// package is checked again in full, as without the slot.

// partialVersion changes with what slots and parts hold.
const partialVersion = 2

// partialPlan is what tryPartial found for a node.
type partialPlan struct {
	only  map[string]bool      // absolute paths of the files to extract
	parts []*extract.Result    // the reused parts of the other files
	keys  map[string]index.Key // their keys, by repository-relative path

	// hybrid: the package has type errors (extraction fills gaps by
	// syntax), as it had when the parts were made; errFiles are the files
	// with type errors now.
	hybrid   bool
	errFiles map[string]bool
}

// partialKeySeen is told every slot and part key; tests count those
// records apart from results and export records.
var partialKeySeen = func(index.Key) {}

// slotKey is the key of the package's slot.
func (l *loader) slotKey(n *node) index.Key {
	k := index.NewHasher("go-slot").Uint(partialVersion).String(l.cacheSalt()).String(n.pkg.ID).
		String(goVersion(n.pkg)).Sum()
	partialKeySeen(k)
	return k
}

// partImportsKey hashes the node's imports with their surfaces (never
// as it uses them: a partial check does not tell).
func (l *loader) partImportsKey(n *node) index.Key {
	return index.NewHasher("go-part-imports").Key(l.surfacesKey(n)).Sum()
}

// partKey is the key of one file's part.
func (l *loader) partKey(n *node, rel, content string, shape []byte, imports index.Key) index.Key {
	k := index.NewHasher("go-part").Uint(partialVersion).String(l.cacheSalt()).String(n.pkg.ID).
		String(rel).String(content).Bytes(shape).Key(imports).Sum()
	partialKeySeen(k)
	return k
}

type slotRec struct {
	shape    []byte
	files    map[string]string // repository-relative path → content hash
	hybrid   bool              // the package had type errors (all of them consequences of missing imports)
	errFiles map[string]bool   // the files that had them
}

func encodeSlot(s slotRec) []byte {
	rels := sortedKeys(s.files)
	w := wire.NewWriter(64 + 96*len(rels))
	w.Uint(partialVersion)
	w.Blob(s.shape)
	w.Bool(s.hybrid)
	w.Uint(uint64(len(rels)))
	for _, rel := range rels {
		w.String(rel)
		w.String(s.files[rel])
		w.Bool(s.errFiles[rel])
	}
	return w.Bytes()
}

func decodeSlot(data []byte) (slotRec, error) {
	r := wire.NewReader(data)
	if v := r.Uint(); v != partialVersion {
		r.Done()
		return slotRec{}, wire.ErrCorrupt
	}
	s := slotRec{shape: r.Blob(), hybrid: r.Bool()}
	n := r.Len(3)
	s.files = make(map[string]string, n)
	s.errFiles = map[string]bool{}
	for i := 0; i < n && r.Err() == nil; i++ {
		rel := r.String()
		s.files[rel] = r.String()
		if r.Bool() {
			s.errFiles[rel] = true
		}
	}
	return s, r.Done()
}

// assignedHashes gives the content hash of each file the node extracts.
func (l *loader) assignedHashes(n *node) map[string]string {
	out := make(map[string]string, len(n.assigned))
	for abs, rel := range n.assigned {
		out[rel] = l.fileHash(rel, abs)
	}
	return out
}

// tryPartial checks a node that must be extracted with the bodies of its
// unchanged files left out, and reports whether extracting only the
// changed files is sound; it leaves the node checked either way (in
// full when it returns false).
func (l *loader) tryPartial(fset *token.FileSet, n *node, sizes types.Sizes) bool {
	if l.opt.Cache == nil || l.noImport || n.reused || len(n.assigned) == 0 {
		return false
	}
	data, ok := l.opt.Cache.Get(l.slotKey(n))
	if !ok {
		return false
	}
	slot, err := decodeSlot(data)
	if err != nil {
		return false
	}
	now := l.assignedHashes(n)
	if len(now) != len(slot.files) {
		return false
	}
	imports := l.partImportsKey(n)
	plan := &partialPlan{only: map[string]bool{}, keys: map[string]index.Key{}}
	keep := map[string]bool{} // absolute paths of unchanged files
	for abs, rel := range n.assigned {
		old, ok := slot.files[rel]
		if !ok {
			return false
		}
		if old != now[rel] {
			plan.only[abs] = true
			continue
		}
		pk := l.partKey(n, rel, old, slot.shape, imports)
		rec, ok := l.opt.Cache.Get(pk)
		if !ok {
			return false
		}
		plan.keys[rel] = pk
		part, err := decodeResultRecord(rec)
		if err != nil || len(part.Files) != 1 || part.Files[0].File.Path != rel {
			return false
		}
		plan.parts = append(plan.parts, part)
		keep[abs] = true
	}
	l.checkWith(fset, n, sizes, keep)
	if n.tpkg == nil || n.info == nil {
		return false
	}
	// Errors in the unchanged files come from their missing bodies (an
	// import only a body used) or were there when their parts were made.
	// In the edited files, only consequences of missing imports, which
	// are not reported as problems, keep the partial path: any other
	// error needs the full check.
	var changedErrs []types.Error
	plan.errFiles = map[string]bool{}
	for _, te := range n.typeErrs {
		if !te.Pos.IsValid() {
			return false
		}
		file := fset.PositionFor(te.Pos, false).Filename
		if keep[file] {
			continue
		}
		if !quietError(n, te) {
			return false
		}
		changedErrs = append(changedErrs, te)
		plan.errFiles[n.assigned[file]] = true
	}
	for abs := range keep {
		if rel := n.assigned[abs]; slot.errFiles[rel] {
			plan.errFiles[rel] = true
		}
	}
	// The parts were extracted with gaps filled by syntax or without;
	// the edited files must be extracted the same way.
	plan.hybrid = len(plan.errFiles) > 0
	if plan.hybrid != slot.hybrid {
		return false
	}
	exp, err := typecache.Encode(n.tpkg, l.fset, l.exportName, n.full)
	if err != nil || !bytes.Equal(exp.Shape, slot.shape) {
		return false
	}
	// The declarations are checked in full: this is the export data
	// storeExport would encode again.
	n.exp = exp
	n.typeErrs = changedErrs
	n.partial = plan
	l.npartial.Add(1)
	return true
}

// stripBodies returns a copy of a file whose function declarations have
// no bodies; the original, which other packages may be reading, is left
// as it is.
func stripBodies(f *ast.File) *ast.File {
	c := *f
	c.Decls = make([]ast.Decl, len(f.Decls))
	for i, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			cp := *fd
			cp.Body = nil
			c.Decls[i] = &cp
			continue
		}
		c.Decls[i] = d
	}
	return &c
}

// slotWorthy reports whether a freshly extracted node's parts may be kept:
// no syntax error, and no type error but the consequences of missing
// imports, which are not reported one by one (see typeProblems); the
// problem saying which imports are missing belongs to the package and is
// made again by each extraction.
func (l *loader) slotWorthy(n *node, res *extract.Result) bool {
	if l.opt.Cache == nil || n.reused || n.exp.Shape == nil || n.exp.Unexportable {
		return false
	}
	for _, te := range n.typeErrs {
		if !te.Pos.IsValid() || !quietError(n, te) {
			return false
		}
	}
	for _, p := range res.Problems {
		if p.Kind != analyze.ProblemDegraded || p.Path != res.Dir || !strings.HasPrefix(p.Msg, missingPrefix) {
			return false
		}
	}
	return true
}

// errFilesOf are the files of a fully checked node that have type errors.
func (l *loader) errFilesOf(n *node) map[string]bool {
	out := map[string]bool{}
	for _, te := range n.typeErrs {
		if rel, ok := n.assigned[l.fset.PositionFor(te.Pos, false).Filename]; ok {
			out[rel] = true
		}
	}
	return out
}

// splitParts cuts a result into one part per file.
func splitParts(res *extract.Result) map[string]*extract.Result {
	parts := make(map[string]*extract.Result, len(res.Files))
	for _, fr := range res.Files {
		parts[fr.File.Path] = &extract.Result{Scope: res.Scope, ImportPath: res.ImportPath, PkgName: res.PkgName,
			Dir: res.Dir, Files: []extract.FileRec{fr}}
	}
	route(parts, res.Syms, func(s extract.SymRec) string { return s.File }, func(p *extract.Result, s extract.SymRec) { p.Syms = append(p.Syms, s) })
	route(parts, res.Edges, func(e extract.EdgeRec) string { return e.From.Path }, func(p *extract.Result, e extract.EdgeRec) { p.Edges = append(p.Edges, e) })
	route(parts, res.Raws, func(r extract.RawRef) string { return r.File }, func(p *extract.Result, r extract.RawRef) { p.Raws = append(p.Raws, r) })
	route(parts, res.MethodSets, func(m extract.MethodSet) string { return m.Key.Path }, func(p *extract.Result, m extract.MethodSet) { p.MethodSets = append(p.MethodSets, m) })
	return parts
}

// route adds each item to the part of the file it belongs to.
func route[T any](parts map[string]*extract.Result, items []T, file func(T) string, add func(*extract.Result, T)) {
	for _, it := range items {
		if p := parts[file(it)]; p != nil {
			add(p, it)
		}
	}
}

// pendingParts is how a fresh extraction is stored: the package's slot,
// the parts of the files it extracted, and the keys of all its parts,
// those a partial extraction reused included, in file order.
//
// The parts are cut from the result only when they are stored
// (reconcile, one package at a time): cut as each package was extracted,
// every package's parts stayed alive beside its whole result until the
// end of the load, about a fifth of the live heap at the peak of a cold
// load of the standard library.
type pendingParts struct {
	slotKey index.Key
	slot    []byte
	parts   []pendingPart
	keys    []index.Key
	probs   []analyze.Problem // the package's own, see packageProblems
}

// pendingPart is a part to cut from the result: the file's and its key.
type pendingPart struct {
	key index.Key
	rel string
}

// planParts prepares the slot and the parts' keys of a freshly extracted
// node; the parts are cut and encoded, with their foreign tables, once
// every symbol is known (reconcile).
func (l *loader) planParts(n *node, res *extract.Result) *pendingParts {
	if !l.slotWorthy(n, res) {
		return nil
	}
	hashes := l.assignedHashes(n)
	for _, fr := range res.Files {
		if hashes[fr.File.Path] != fr.File.Hash {
			return nil // a file saved while the load ran
		}
	}
	imports := l.partImportsKey(n)
	slot := slotRec{shape: n.exp.Shape, files: hashes, hybrid: len(n.typeErrs) > 0, errFiles: l.errFilesOf(n)}
	if n.partial != nil {
		slot.hybrid, slot.errFiles = n.partial.hybrid, n.partial.errFiles
	}
	pp := &pendingParts{slotKey: l.slotKey(n), slot: encodeSlot(slot), probs: packageProblems(res)}
	extracted := ownFiles(res)
	for _, rel := range sortedKeys(hashes) {
		if extracted[rel] {
			k := l.partKey(n, rel, hashes[rel], n.exp.Shape, imports)
			pp.parts = append(pp.parts, pendingPart{k, rel})
			pp.keys = append(pp.keys, k)
			continue
		}
		k, ok := n.partial.keyOf(rel)
		if !ok {
			return nil // a file neither extracted nor reused: not a whole package
		}
		pp.keys = append(pp.keys, k)
	}
	return pp
}

// keyOf is the key of a part the plan reused.
func (p *partialPlan) keyOf(rel string) (index.Key, bool) {
	if p == nil {
		return index.Key{}, false
	}
	k, ok := p.keys[rel]
	return k, ok
}

// encodePartsList writes a package's parts record: the keys of its parts
// and the problems that belong to the package rather than to one file.
func encodePartsList(keys []index.Key, probs []analyze.Problem) []byte {
	w := wire.NewWriter(16 + 33*len(keys))
	w.Uint(uint64(len(keys)))
	for _, k := range keys {
		w.Blob(k[:])
	}
	factcodec.WriteProblems(w, probs)
	return w.Bytes()
}

func decodePartsList(data []byte) ([]index.Key, []analyze.Problem, error) {
	r := wire.NewReader(data)
	n := r.Len(33)
	keys := make([]index.Key, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		var k index.Key
		b := r.Blob()
		if len(b) != len(k) {
			return nil, nil, wire.ErrCorrupt
		}
		copy(k[:], b)
		keys = append(keys, k)
	}
	probs := factcodec.ReadProblems(r)
	return keys, probs, r.Done()
}

// packageProblems are the problems of a result that belong to no one of
// its files (splitParts leaves them out of the parts).
func packageProblems(res *extract.Result) []analyze.Problem {
	own := ownFiles(res)
	var out []analyze.Problem
	for _, p := range res.Problems {
		if !own[p.Path] {
			out = append(out, p)
		}
	}
	return out
}
