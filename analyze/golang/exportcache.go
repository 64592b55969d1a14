package golang

import (
	"bytes"
	"crypto/sha256"
	"go/types"
	"path/filepath"
	"sort"

	"github.com/ctxexpand/ctxexpand/index"
)

// Importing unchanged dependencies from export data.
//
// With Options.Cache set, every package a load type-checks leaves its
// export data (exportenc.go) in the cache, and a later load that must
// check a package imports the packages it depends on from that data
// instead of checking them from source.
//
// Keys follow what each record depends on. A package's export data
// depends on its own files and on the declarations of everything it
// imports, recursively: it is stored under the package's export key,
// which hashes its files (by content under the root) and the surface of
// each import. A package's surface hashes its shape (its export data
// without lines and columns, see encodeExportShape) and the surfaces of
// its imports, so that it changes whenever a declaration anywhere below
// changes (a field added, a method's signature) and only then: a comment
// appended to a file, or a changed function body, leaves the surface as
// it was, even when it moves the declarations after it (foreign.go). The extracted result of a repository package is
// stored under a result key that hashes its files and the surfaces of its
// imports (cache.go).
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

// Export record tags. The export record of a package names its data by
// hash; the data itself is a record of its own under a key of that hash
// (exportBlobKey), so that packages with equal data (the test copies of a
// package, see linkVariants) store it once.
const (
	exportRecData         byte = 1 // sha256 of the data, then its shape
	exportRecUnexportable byte = 2
	exportRecBlob         byte = 3 // the data
)

// exportBlobKey is the key of the export data with the given hash.
func exportBlobKey(sum []byte) index.Key {
	return index.NewHasher("go-export-blob").Uint(exportVersion).Bytes(sum).Sum()
}

// exportKey computes, once, the key of the node's export record.
func (l *loader) exportKey(n *node) index.Key {
	if n.ekeyDone {
		return n.ekey
	}
	n.ekeyDone = true
	h := index.NewHasher("go-export").String(l.cacheSalt()).Uint(exportVersion).String(n.pkg.PkgPath).
		String(n.pkg.Name).String(goVersion(n.pkg))
	l.hashFiles(h, n, false)
	l.hashImports(h, n)
	n.ekey = h.Sum()
	return n.ekey
}

// resultKey is the key of an extracted package's result.
func (l *loader) resultKey(n *node, repo map[string]bool) index.Key {
	h := index.NewHasher("go-result").String(l.cacheSalt()).String(n.pkg.PkgPath).String(n.pkg.Name).
		String(goVersion(n.pkg)).Bool(repo[n.pkg.PkgPath])
	l.hashFiles(h, n, true)
	l.hashImports(h, n)
	return h.Sum()
}

// hashFiles adds the node's files: by content under the root, by path
// elsewhere; with extracted, whether each is extracted.
func (l *loader) hashFiles(h *index.Hasher, n *node, extracted bool) {
	files := append([]string(nil), n.goFiles...)
	sort.Strings(files)
	for _, f := range files {
		rel, under := l.relOf(f)
		if !under {
			h.String(f)
			continue
		}
		h.String(rel)
		if extracted {
			_, ok := n.assigned[f]
			h.Bool(ok)
		}
		h.String(l.fileHash(rel, f))
	}
}

// hashImports adds each import's path and surface, hashed once per node
// (the keys of a node all hash them, and large graphs have thousands of
// nodes). The node's imports must all have been visited.
func (l *loader) hashImports(h *index.Hasher, n *node) {
	if !n.impDone {
		ih := index.NewHasher("go-imports")
		l.hashImportsBy(ih, n, func(d *node) index.Key { return d.surf })
		n.imp, n.impDone = ih.Sum(), true
	}
	h.Key(n.imp)
}

// hashImportsBy adds each import's path and the key of it that key gives
// ("missing" for an import with no files).
func (l *loader) hashImportsBy(h *index.Hasher, n *node, key func(*node) index.Key) {
	for _, p := range sortedKeys(n.pkg.Imports) {
		h.String(p)
		if d := n.imports[p]; d != nil && len(d.goFiles) > 0 {
			h.Key(key(d))
		} else {
			h.String("missing")
		}
	}
}

// setSurface computes the node's surface once its export data (or its
// lack of it) is known and its imports' surfaces are.
func (l *loader) setSurface(n *node, repo map[string]bool) {
	h := index.NewHasher("go-surface")
	if n.shape != nil && !n.unexportable {
		h.Bytes(n.shape)
	} else {
		h.String("content").Key(l.contentKey(n, repo))
	}
	l.hashImports(h, n)
	n.surf = h.Sum()
}

// lookupExport reads the node's export record: its data, or whether it
// is known to have none.
func (l *loader) lookupExport(n *node) (found bool) {
	if l.opt.Cache == nil || l.noImport {
		return false
	}
	rec, ok := l.opt.Cache.Get(l.exportKey(n))
	if !ok || len(rec) == 0 {
		return false
	}
	switch rec[0] {
	case exportRecData:
		if len(rec) != 1+2*sha256.Size {
			return false
		}
		sum := rec[1 : 1+sha256.Size]
		blob, ok := l.opt.Cache.Get(exportBlobKey(sum))
		if !ok || len(blob) < 1+4 || blob[0] != exportRecBlob {
			return false
		}
		n.ehash, n.shape, n.exportData = sum, rec[1+sha256.Size:], blob[1:]
		return true
	case exportRecUnexportable:
		n.unexportable = true
		return true
	}
	return false
}

// storeExport encodes a checked node's export data and records it.
func (l *loader) storeExport(n *node) {
	if l.opt.Cache == nil || l.ctx.Err() != nil {
		return
	}
	// Data checked from files whose content is not what the key says (a
	// file saved while the load ran) is not stored.
	for _, pf := range n.files {
		if pf.rel != "" && (pf.skip != "" || pf.hash != l.fileHash(pf.rel, pf.abs)) {
			n.unexportable = true
			return
		}
	}
	if n.exportData == nil { // else encoded already (tryPartial)
		var data, shape []byte
		if n.tpkg != nil {
			data, shape, _ = encodeExportShape(n.tpkg, l.fset, l.exportName)
		}
		if data == nil {
			n.unexportable = true
			l.deferPut(l.exportKey(n), []byte{exportRecUnexportable})
			return
		}
		sum := sha256.Sum256(data)
		n.ehash, n.shape, n.exportData = sum[:], shape, data
	}
	l.putExport(n)
}

// putExport records the node's export data under its export key.
func (l *loader) putExport(n *node) {
	rec := make([]byte, 0, 1+len(n.ehash)+len(n.shape))
	l.deferPut(l.exportKey(n), append(append(append(rec, exportRecData), n.ehash...), n.shape...))
	blob := make([]byte, 0, 1+len(n.exportData))
	l.deferPut(exportBlobKey(n.ehash), append(append(blob, exportRecBlob), n.exportData...))
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
	if b == nil || n.full || n.reused || b.unexportable || b.ehash == nil || b.exportData == nil {
		return false
	}
	n.ehash, n.shape, n.exportData = b.ehash, b.shape, b.exportData
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

// deferPut keeps a record to store once the unit is known to be sound.
func (l *loader) deferPut(k index.Key, data []byte) {
	l.mu.Lock()
	l.puts = append(l.puts, pendingPut{k, data})
	l.mu.Unlock()
}

type pendingPut struct {
	key  index.Key
	data []byte
}

func (l *loader) flushPuts() {
	for _, p := range l.puts {
		l.opt.Cache.Put(p.key, p.data)
	}
	l.puts = nil
}

// typesOf returns the package the type checker should see for an import
// of a node: the checked one, or the one decoded from export data
// (completed before it is returned), or nil. The caller holds imports.mu.
func (l *loader) typesOf(d *node) *types.Package {
	if d.tpkg != nil && (d.checked || d.reused) {
		return d.tpkg
	}
	if d.exportData == nil || l.noImport {
		return nil
	}
	r := l.readerOf(d)
	if err := r.Complete(); err != nil {
		l.importFailed.Store(true)
		l.opt.logf("golang: export data of %s unusable, checking the unit from source: %v", d.pkg.ID, err)
		return nil
	}
	return r.pkg
}

// readerOf returns the node's export reader, made on first use. The
// caller holds imports.mu.
func (l *loader) readerOf(d *node) *exportReader {
	if d.reader == nil {
		l.nimported.Add(1)
		data := d.exportData
		if sum := sha256.Sum256(data); !bytes.Equal(sum[:], d.ehash) {
			data = nil // not the data the record's hash (and so the surface) describes: refused when opened
		}
		d.reader = l.imports.newReader(types.NewPackage(d.pkg.PkgPath, d.pkg.Name), data, func(path string) (*types.Package, *exportReader, bool) {
			return l.resolveFrom(d, path)
		})
	}
	return d.reader
}

// resolveFrom finds the package an import path means in d's dependencies:
// export data names the packages of the objects it refers to, which may
// lie anywhere below d. The caller holds imports.mu.
func (l *loader) resolveFrom(d *node, path string) (*types.Package, *exportReader, bool) {
	x, ok := l.unique[path]
	if !ok {
		x = d.findDep(path)
	}
	if x == nil {
		return nil, nil, false
	}
	if x.tpkg != nil && (x.checked || x.reused) {
		return x.tpkg, nil, true
	}
	if x.exportData == nil {
		return nil, nil, false
	}
	r := l.readerOf(x)
	return r.pkg, r, true
}

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
