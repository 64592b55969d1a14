package golang

import (
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
	"github.com/ctxexpand/ctxexpand/index"
)

// Importing unchanged dependencies from export data.
//
// With Options.Cache set, every package a load type-checks leaves its
// export data (typecache.Encode) in the cache, and a later load that must
// check a package imports the packages it depends on from that data
// (typecache.Reader) instead of checking them from source.
//
// Keys follow what each record depends on (package typecache says how
// each is made). A package's export data depends on its own files and on
// the declarations of everything it imports, recursively: it is stored
// under the package's export key, which hashes its files (by content
// under the root) and the surface of each import. A package's surface
// hashes its shape (its export data without lines and columns) and the
// surfaces of the packages that data names, so that it changes whenever
// a declaration its importers can reach changes and only then: a comment
// appended to a file, or a changed function body, leaves the surface as
// it was, even when it moves the declarations after it (foreign.go), and
// a function added to a package changes the keys of its importers but
// not those of theirs, unless their declarations use its types. The extracted result of a
// repository package is stored under a result key that hashes its files
// and the surfaces of its imports (cache.go).
//
// Packages are visited in dependency order, so the surfaces of a
// package's imports are known when it is reached. A package whose export
// record is found costs nothing more unless a package being checked
// imports it; one whose record is missing is checked from its
// declarations (or in full, when it is extracted) and its export data
// stored. A package with type errors is exported as checked (what
// could not be resolved has the invalid type, which decodes as itself). A
// package whose declarations cannot be exported (a local type in its
// API, //line directives) is recorded as such: it is
// checked from source whenever it is reached, and its surface is its
// content key.
//
// A record that cannot be decoded (damaged, or of another version) is
// never trusted: the unit is checked again from source, as without the
// cache, and nothing the failed attempt computed is stored.

// pkgID is what names the node's package in its keys.
func (l *loader) pkgID(n *node, repo map[string]bool) typecache.Pkg {
	return typecache.Pkg{Path: n.pkg.PkgPath, Name: n.pkg.Name, GoVersion: goVersion(n.pkg), Repo: repo[n.pkg.PkgPath]}
}

// keyFiles describes, once, the node's files for its keys: by content
// under the root, by path elsewhere, and whether each is extracted.
func (l *loader) keyFiles(n *node) []typecache.File {
	if n.kfiles != nil {
		return n.kfiles
	}
	files := append([]string(nil), n.goFiles...)
	sort.Strings(files)
	out := make([]typecache.File, 0, len(files))
	for _, f := range files {
		rel, under := l.relOf(f)
		if !under {
			out = append(out, typecache.File{Name: f})
			continue
		}
		_, extracted := n.assigned[f]
		out = append(out, typecache.File{Name: rel, Under: true, Extracted: extracted, Hash: l.fileHash(rel, f)})
	}
	n.kfiles = out
	return out
}

// exportKey computes, once, the key of the node's export record.
func (l *loader) exportKey(n *node) index.Key {
	if n.ekeyDone {
		return n.ekey
	}
	n.ekeyDone = true
	n.ekey = typecache.ExportKey(l.cacheSalt(), l.pkgID(n, nil), l.keyFiles(n), l.importsKey(n))
	return n.ekey
}

// resultKey is the key of an extracted package's result.
func (l *loader) resultKey(n *node, repo map[string]bool) index.Key {
	return typecache.ResultKey(l.cacheSalt(), l.pkgID(n, repo), l.keyFiles(n), l.importsKey(n))
}

// plainResultKey and plainExportKey are the keys of the node's records
// under its imports' whole surfaces, whatever its uses.
func (l *loader) plainResultKey(n *node, repo map[string]bool) index.Key {
	return typecache.ResultKey(l.cacheSalt(), l.pkgID(n, repo), l.keyFiles(n), l.surfacesKey(n))
}

func (l *loader) plainExportKey(n *node) index.Key {
	if n.uses == nil {
		return l.exportKey(n) // the same, computed once
	}
	return typecache.ExportKey(l.cacheSalt(), l.pkgID(n, nil), l.keyFiles(n), l.surfacesKey(n))
}

// importsKey is the key of the node's imports as its export and result
// keys hash them: as it uses them, when that is known (uses.go), else
// with their whole surfaces.
func (l *loader) importsKey(n *node) index.Key {
	if n.uses == nil {
		return l.surfacesKey(n)
	}
	if !n.uimpDone {
		n.uimp, n.uimpDone = l.usedImportsKey(n), true
	}
	return n.uimp
}

// surfacesKey is, computed once per node, the key of its imports with
// their surfaces (the keys of a node all hash them, and large graphs
// have thousands of nodes). The node's imports must all have been
// visited.
func (l *loader) surfacesKey(n *node) index.Key {
	if !n.impDone {
		n.imp, n.impDone = typecache.ImportsKey(l.importKeys(n, func(d *node) index.Key { return d.surf })), true
	}
	return n.imp
}

// importKeys lists each import's path and the key of it that key gives
// (missing for an import with no files).
func (l *loader) importKeys(n *node, key func(*node) index.Key) []typecache.Import {
	paths := n.importPaths()
	out := make([]typecache.Import, len(paths))
	for i, p := range paths {
		out[i].Path = p
		if d := n.imports[p]; d != nil && len(d.goFiles) > 0 {
			out[i].Key = key(d)
		} else {
			out[i].Missing = true
		}
	}
	return out
}

// setSurface computes the node's surface once its export data (or its
// lack of it) is known and its imports' surfaces are.
//
// Only a package without a shape needs its content key, and few do: on
// hugo, computing the key of all 2,200 packages of the graph before
// checking was a twenty-fifth of an edit's CPU, for one or two used.
func (l *loader) setSurface(n *node, repo map[string]bool) {
	var content index.Key
	if !n.exp.HasShape() {
		// Visits run concurrently; the key reads the node's imports,
		// which are all visited by now, and writes their keys once.
		l.ckeyMu.Lock()
		content = l.contentKey(n, repo)
		l.ckeyMu.Unlock()
	}
	n.refs = nil
	if n.exp.HasShape() {
		n.refs = l.refKeys(n)
	}
	n.surf = typecache.SurfaceKey(n.exp, n.refs, content, l.surfacesKey(n))
}

// refKeys lists the surfaces of the packages the node's export data
// names, found as its importers' readers find them (resolveFrom): those
// are all below it, so visited. unsafe, which has no export data of its
// own, is the same in every load with one salt.
func (l *loader) refKeys(n *node) []typecache.Import {
	out := make([]typecache.Import, len(n.exp.Refs))
	for i, p := range n.exp.Refs {
		out[i].Path = p
		if p == "unsafe" {
			continue
		}
		x := l.seenFrom(n, p)
		if x == nil || x == n {
			out[i].Missing = true
			continue
		}
		out[i].Key = x.surf
	}
	return out
}

// lookupExport reads the node's export record: its data, or whether it
// is known to have none. It is looked up under the key of the imports'
// whole surfaces, then under the key of the node's uses (uses.go).
func (l *loader) lookupExport(n *node) (found bool) {
	if l.opt.Cache == nil || l.noImport {
		return false
	}
	// Under the imports' whole surfaces first, as the result.
	key := l.plainExportKey(n)
	e, ok := typecache.LookupExport(l.opt.Cache, key)
	if !ok && l.tryUses(n) {
		if k := l.exportKey(n); k != key {
			if e, ok = typecache.LookupExport(l.opt.Cache, k); ok {
				l.put(e.Records(key)[0]) // found at once next time; the data is stored already
			}
		}
	}
	if ok {
		n.exp = e
	}
	return ok
}

// storeExport encodes a checked node's export data and records it, with
// the sums of its objects for a repository package (uses.go).
func (l *loader) storeExport(n *node, repo bool) {
	if l.opt.Cache == nil || l.ctx.Err() != nil {
		return
	}
	// Data checked from files whose content is not what the key says (a
	// file saved while the load ran) is not stored.
	for _, pf := range n.files {
		if pf.rel != "" && (pf.skip != "" || pf.hash != l.fileHash(pf.rel, pf.abs)) {
			n.exp.Unexportable = true
			return
		}
	}
	if n.exp.Data == nil { // else encoded already (tryPartial)
		var exp typecache.Export
		if n.tpkg != nil {
			exp, _ = typecache.Encode(n.tpkg, l.fset, l.exportName, repo)
		}
		if exp.Data == nil {
			exp = typecache.Export{Unexportable: true}
		}
		n.exp = exp
	}
	l.putExport(n)
}

// putExport records the node's export data (or its lack of it) under its
// export key, and under the key of its imports' whole surfaces when that
// is another (uses.go).
func (l *loader) putExport(n *node) {
	key := l.exportKey(n)
	recs := n.exp.Records(key)
	if n.uses != nil {
		if plain := l.plainExportKey(n); plain != key {
			recs = append(recs, n.exp.Records(plain)[0]) // the export record alone: its data is in recs
		}
	}
	l.put(recs...)
}

// Test variants.
//
// go list reports a package once more for every test that imports it
// through a package under test: "P [X.test]" is P compiled against X's
// test variant. When P's files are those of P itself, its declarations
// are too, and so is its export data: a test variant only adds files to
// the package under test, never changes a declaration P can refer to,
// and export data names what P refers to by package path and name. A
// large package is imported that way by dozens of tests, and checking
// each copy again whenever P changes would cost more than P itself.
//
// linkVariants therefore makes each such copy wait for P, and
// borrowExport gives it P's export data instead of a check. The copy
// keeps its own imports: a package importing it still sees X's test
// variant through it, decoded from the same data.

// linkVariants gives each test copy of a package with the package's own
// files its base, the package, and makes it wait for the base.
func linkVariants(order []*node) {
	base := make(map[string]*node)
	for _, n := range order {
		if n.pkg.ForTest == "" && n.pkg.ID == n.pkg.PkgPath {
			base[n.pkg.PkgPath] = n
		}
	}
	for _, n := range order {
		if n.pkg.ForTest == "" || n.pkg.ID == n.pkg.PkgPath {
			continue
		}
		b := base[n.pkg.PkgPath]
		if b == nil || b == n || !sameStrings(b.goFiles, n.goFiles) {
			continue
		}
		n.base = b
		b.rdeps = append(b.rdeps, n)
	}
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// borrowExport gives a node that needs no check of its own the export
// data of its base, when the base has some.
func (l *loader) borrowExport(n *node) bool {
	b := n.base
	if b == nil || n.full || n.reused || !b.exp.Has() || b.exp.Hash == nil {
		return false
	}
	n.exp = b.exp
	return true
}

// exportName is how a file is named in export data: relative to the root
// under it, absolute elsewhere; fileName reverses it.
func (l *loader) exportName(abs string) string {
	if rel, ok := l.relOf(abs); ok {
		return rel
	}
	return abs
}

func (l *loader) fileName(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(l.root, filepath.FromSlash(name))
}

// flushPuts stores the records of a unit known to be sound.
func (l *loader) flushPuts() {
	for _, p := range l.puts {
		l.opt.Cache.Put(p.Key, p.Data)
	}
	l.puts = nil
}

// Memory that drops as it goes.
//
// A package checked from source holds everything the checker made: the
// objects of every function's parameters and locals, and the scopes of
// every block, all reachable from the package's scope. Its dependents
// need only its declarations, yet a dependent checked against that
// package keeps all of it alive for as long as the dependent's own types
// live, and on the standard library these were a fifth of the live heap
// at its peak. So, when the load has a cache, a dependent is checked
// against the package as its export data (stored a moment earlier)
// decodes it, exactly as a warm load would be: the universe the checker
// sees is then that of the export data throughout, which keeps type
// identity, and the package's own check is dropped once it is extracted.
// A package without export data (unexportable, or without a cache) is
// still seen as checked.

// decodes reports whether the node's dependents see it as its export
// data decodes it rather than as checked. The caller holds imports.mu or
// runs before dependents are scheduled.
func (l *loader) decodes(d *node) bool {
	return l.opt.Cache != nil && !l.noImport && !d.reused && d.exp.Data != nil && !d.exp.Unexportable
}

// typesOf returns the package the type checker should see for an import
// of a node: the checked one, or the one decoded from export data
// (completed before it is returned), or nil. The caller holds imports.mu.
func (l *loader) typesOf(d *node) *types.Package {
	if !l.decodes(d) && d.tpkg != nil && (d.checked || d.reused) { // decodes first: a decoded node's tpkg is dropped concurrently
		return d.tpkg
	}
	if d.exp.Data == nil || l.noImport {
		return nil
	}
	r := l.readerOf(d)
	if err := r.Complete(); err != nil {
		l.importFailed.Store(true)
		l.opt.logf("golang: export data of %s unusable, checking the unit from source: %v", d.pkg.ID, err)
		return nil
	}
	return r.Package()
}

// readerOf returns the node's export reader, made on first use. The
// caller holds the importer's lock.
func (l *loader) readerOf(d *node) *typecache.Reader {
	if d.reader == nil {
		l.nimported.Add(1)
		d.reader = l.imports.NewReader(types.NewPackage(d.pkg.PkgPath, d.pkg.Name), d.exp, func(path string) (*types.Package, *typecache.Reader, bool) {
			return l.resolveFrom(d, path)
		})
	}
	return d.reader
}

// resolveFrom finds the package an import path means in d's dependencies:
// export data names the packages of the objects it refers to, which may
// lie anywhere below d. The caller holds the importer's lock.
func (l *loader) resolveFrom(d *node, path string) (*types.Package, *typecache.Reader, bool) {
	x, ok := l.unique[path]
	if !ok {
		x = d.findDep(path)
	}
	if x == nil {
		return nil, nil, false
	}
	if !l.decodes(x) && x.tpkg != nil && (x.checked || x.reused) {
		return x.tpkg, nil, true
	}
	if x.exp.Data == nil {
		return nil, nil, false
	}
	r := l.readerOf(x)
	return r.Package(), r, true
}

// seenFrom finds the package an import path means for n, which depends
// on it, directly or not. A test binary X.test holds one package per
// path: "P [X.test]" where P was compiled again against X's test
// variant, else P itself; so a package of that binary (its ID ends in
// "[X.test]") sees the first when it exists, and any other package sees
// P. That spares the walk of findDep, which costs a whole graph's walk
// per package and was a quarter of an edit's CPU on hugo when every
// package's keys needed it (uses.go).
func (l *loader) seenFrom(n *node, path string) (x *node) {
	if seenFromChecked != nil {
		defer func() { seenFromChecked(n, path, x) }()
	}
	if d := n.imports[path]; d != nil {
		return d
	}
	if x, ok := l.unique[path]; ok {
		return x
	}
	id := n.pkg.ID
	if i := strings.LastIndex(id, " ["); i >= 0 && strings.HasSuffix(id, "]") {
		if x := l.byID[path+id[i:]]; x != nil {
			return x
		}
	}
	if x := l.byID[path]; x != nil {
		return x
	}
	return n.findDep(path)
}

// seenFromChecked, when set (by tests), is told each answer of seenFrom.
var seenFromChecked func(n *node, path string, got *node)

// uniquePaths maps each import path that only one package of the unit
// has to that package: a dependency with that path can only be it, which
// spares most lookups the walk of findDep.
func uniquePaths(order []*node) map[string]*node {
	out := make(map[string]*node, len(order))
	dup := map[string]bool{}
	for _, n := range order {
		p := n.pkg.PkgPath
		if _, seen := out[p]; seen || dup[p] {
			delete(out, p)
			dup[p] = true
			continue
		}
		out[p] = n
	}
	return out
}

// findDep finds the package of an import path among the node's
// dependencies, directly or not.
func (n *node) findDep(path string) *node {
	if d := n.imports[path]; d != nil {
		return d
	}
	if n.deps == nil {
		n.deps = make(map[string]*node)
		var walk func(x *node)
		seen := map[*node]bool{}
		walk = func(x *node) {
			for _, d := range x.imports {
				if !seen[d] {
					seen[d] = true
					if _, ok := n.deps[d.pkg.PkgPath]; !ok {
						n.deps[d.pkg.PkgPath] = d
					}
					walk(d)
				}
			}
		}
		walk(n)
	}
	return n.deps[path]
}
