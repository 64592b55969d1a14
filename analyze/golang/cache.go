package golang

import (
	"crypto/sha256"
	"encoding/hex"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"

	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
	"github.com/ctxexpand/ctxexpand/index"
)

// Reusing package results across loads.
//
// With Options.Cache set, the result of every extracted repository package
// (its files, symbols, edges, unresolved references and method sets) is
// stored under a result key that covers everything the extraction read:
// the package's import path, language version and files (by content for
// files under the root, by path elsewhere: the module cache and GOROOT do
// not change under a path), which of them it extracts, whether it is a
// repository package, and the surface of every package it imports: a hash
// of the declarations of that package and of those of the packages they
// name, recursively (exportcache.go). A later load whose package graph gives a package the
// same key reuses its result without parsing or type-checking it.
//
// Packages are visited in dependency order. A package whose result
// misses (its files changed, or a declaration it can reach) is checked in
// full, importing its dependencies from their export data, or checking
// them from their declarations when they have none; packages nothing
// checked depends on are not parsed or checked at all. Resolution across
// packages (the merger) always runs on all results, cached or fresh, so
// the facts equal those of a load without the cache.

// Cache keeps records between loads; index.Pack implements it.
type Cache = typecache.Cache

// resultCodecVersion changes with extraction or the encoding in
// cachecodec.go; records of another version are never read.
const resultCodecVersion = 1

// cacheSalt is what every package key of this load starts with: the
// caller's salt (the program's identity), the options that change
// extraction and the go command's environment.
func (l *loader) cacheSalt() string {
	if l.salt != "" {
		return l.salt
	}
	h := index.NewHasher("go-salt").Uint(resultCodecVersion).String(l.opt.CacheSalt).
		Bool(l.opt.SkipTests).Bool(l.opt.AllDirs).Uint(uint64(l.opt.maxFileSize()))
	vals := typecache.GoEnv(l.ctx, l.env)
	for _, k := range typecache.EnvVars {
		h.String(k).String(vals[k])
	}
	l.salt = h.Sum().String()
	return l.salt
}

// contentKey computes, once, a key of the node's files and of the files
// of everything it imports, recursively: the surface of a package that has
// no export data.
func (l *loader) contentKey(n *node, repo map[string]bool) index.Key {
	if n.ckeyDone {
		return n.ckey
	}
	n.ckeyDone = true // the graph is acyclic; this only guards against surprises
	n.ckey = typecache.ContentKey(l.cacheSalt(), l.pkgID(n, repo), l.keyFiles(n),
		l.importKeys(n, func(d *node) index.Key { return l.contentKey(d, repo) }))
	return n.ckey
}

// fileHash is the content hash of a repository file: the caller's when it
// knows it, else read here. An unreadable file hashes to its error, which
// the extraction would meet too.
func (l *loader) fileHash(rel, abs string) string {
	if l.opt.FileHash != nil {
		if h, ok := l.opt.FileHash(rel); ok {
			return h
		}
	}
	f, err := os.Open(abs)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "unreadable: " + err.Error()
	}
	return hex.EncodeToString(sum.Sum(nil))
}

// planCache prepares the unit's packages for checkAll: without a cache
// every package is checked and every repository package extracted; with
// one, visit decides as it reaches each package.
func (l *loader) planCache(order []*node) {
	for _, n := range order {
		n.extract = n.full && l.opt.Cache == nil
		n.needTypes = !n.reused
	}
}

// visit does what a package needs once its imports are done: with a
// cache, look its result and export data up, check it when either is
// missing (in full when its result is), store its export data, and work
// out its surface (exportcache.go).
func (l *loader) visit(fset *token.FileSet, n *node, sizes types.Sizes, repo map[string]bool) {
	if l.ctx.Err() != nil {
		return
	}
	if l.opt.Cache == nil {
		if !n.reused {
			l.check(fset, n, sizes)
			l.nchecked.Add(1)
		}
		return
	}
	if len(n.goFiles) == 0 {
		return // missing: its importers say so
	}
	// A repository package's records are found under its imports' whole
	// surfaces, or else under the objects it uses of other packages
	// (uses.go).
	n.inRepo = repo[n.pkg.PkgPath] && !n.reused
	l.setUses(n, nil)
	n.usesLooked, n.usesRaw = false, nil
	if n.full {
		n.rkey = l.resultKey(n, repo)
		at := n.rkey
		data, ok := l.opt.Cache.Get(at)
		if !ok && l.tryUses(n) {
			if k := l.resultKey(n, repo); k != n.rkey {
				if data, ok = l.opt.Cache.Get(k); ok {
					at = k
					l.putAlias(n.rkey, aliasTarget(k, data)) // found at once next time
				}
			}
		}
		if ok {
			if res := l.decodeStored(n, at, data); res != nil {
				n.cached = res
				l.hits.Add(1)
			}
		}
		n.extract = n.cached == nil
	}
	found := l.lookupExport(n)
	borrowed := !found && l.borrowExport(n)
	moved := false
	if !n.reused && (n.extract || !(found || borrowed) || n.exp.Unexportable) {
		if !n.extract || !l.tryPartial(fset, n, sizes) {
			l.check(fset, n, sizes)
		}
		l.nchecked.Add(1)
		// A package whose result is kept and that was checked for its
		// declarations alone keeps the uses its result was found with:
		// they cover its declarations' too.
		if n.inRepo && (n.extract || !n.full) {
			moved = l.afterCheck(n, repo)
		}
	}
	switch {
	case found && moved:
		l.putExport(n) // the same declarations, under the key of the uses found
	case found:
	case borrowed:
		l.putExport(n)
	case n.reused:
		n.exp.Unexportable = true // its type errors are another unit's; not stored
	default:
		l.storeExport(n, repo[n.pkg.PkgPath])
	}
	l.retainUses(n)
	l.setSurface(n, repo)
}

// storeResult keeps a freshly extracted package's result.
// A result whose files were read with another content than the key says
// (a file saved while the load ran) is not stored.
func (l *loader) storeResult(n *node, res *extract.Result, repo map[string]bool) {
	if l.opt.Cache == nil || res == nil || l.ctx.Err() != nil {
		return
	}
	for _, fr := range res.Files {
		if fr.File.Hash != l.fileHash(fr.File.Path, filepath.Join(l.root, filepath.FromSlash(fr.File.Path))) {
			return
		}
	}
	if !storable(res) {
		return
	}
	// Stored once every package's symbols are known (reconcile): as parts
	// when the package may be extracted in part next time, else whole (a
	// partial extraction always has its parts).
	f := freshResult{key: n.rkey, res: res, parts: l.planParts(n, res)}
	if n.uses != nil {
		if k := l.resultKey(n, repo); k != f.key {
			f.alias = k
		}
	}
	if f.parts == nil && n.partial != nil {
		return
	}
	l.mu.Lock()
	l.fresh = append(l.fresh, f)
	l.mu.Unlock()
}

// Result record tags.
const (
	resultWhole byte = 1 // the result with its foreign table (encodeResultRecord)
	resultParts byte = 2 // the keys of its parts, one per file (partial.go)
	resultAlias byte = 3 // the key of the record that holds it (uses.go)
)

// decodeStored reads a result record found under key: the whole result,
// or its parts, each looked up (which also keeps them, and the package's
// slot, in the cache), or an alias to the record that holds one of those.
// It returns nil when anything is missing or damaged.
func (l *loader) decodeStored(n *node, key index.Key, data []byte) []*extract.Result {
	if len(data) == 0 {
		return nil
	}
	if data[0] == resultAlias {
		if len(data) != 1+len(key) {
			return nil
		}
		key = aliasTarget(key, data)
		var ok bool
		if data, ok = l.opt.Cache.Get(key); !ok || len(data) == 0 || data[0] == resultAlias {
			return nil
		}
	}
	switch data[0] {
	case resultWhole:
		res, err := l.opt.Results.decode(key, data[1:])
		if err != nil {
			return nil
		}
		return []*extract.Result{res}
	case resultParts:
		keys, probs, err := decodePartsList(data[1:])
		if err != nil || len(keys) == 0 {
			return nil
		}
		out := make([]*extract.Result, 0, len(keys))
		for _, k := range keys {
			rec, ok := l.opt.Cache.Get(k)
			if !ok {
				return nil
			}
			part, err := l.opt.Results.decode(k, rec)
			if err != nil {
				return nil
			}
			out = append(out, part)
		}
		l.opt.Cache.Get(l.slotKey(n))
		if len(probs) > 0 {
			first := out[0]
			out = append(out, &extract.Result{Scope: first.Scope, ImportPath: first.ImportPath, PkgName: first.PkgName,
				Dir: first.Dir, Problems: probs})
		}
		return out
	}
	return nil
}

// freshResult is a result extracted by this load, to be stored.
type freshResult struct {
	key   index.Key
	alias index.Key // the key of its uses, when it has some and it is another (uses.go)
	res   *extract.Result
	parts *pendingParts // nil: stored whole
}

// aliasTarget is the key of the record that holds a result found under
// key with the given record: the alias's target, or key itself.
func aliasTarget(key index.Key, data []byte) index.Key {
	if len(data) == 1+len(key) && data[0] == resultAlias {
		copy(key[:], data[1:])
	}
	return key
}

// aliasRecord is a record that sends its reader to the one at target.
func aliasRecord(target index.Key) []byte {
	return append([]byte{resultAlias}, target[:]...)
}

// putAlias stores at key, with the unit's records, an alias to target.
func (l *loader) putAlias(key, target index.Key) {
	l.put(typecache.Record{Key: key, Data: aliasRecord(target)})
}

// put adds records to those stored with the unit's.
func (l *loader) put(recs ...typecache.Record) {
	l.mu.Lock()
	l.puts = append(l.puts, recs...)
	l.mu.Unlock()
}

// reconcile runs once every unit is loaded, before the results are
// merged: it moves the edges of results read from the cache to where
// their targets are now, and stores the results extracted by this load
// with the identity of what they refer to outside their files.
func (l *loader) reconcile() {
	if l.opt.Cache == nil {
		return // nothing was read from a cache or will be stored
	}
	byKey, byIdent := identities(l.results)
	remapForeign(l.results, byIdent)
	if l.ctx.Err() != nil {
		return
	}
	for _, f := range l.fresh {
		pp := f.parts
		if pp == nil {
			if table, ok := foreignTable(f.res, byKey); ok {
				l.opt.Cache.Put(f.key, append([]byte{resultWhole}, encodeResultRecord(encodeResult(f.res), table)...))
				if f.alias != (index.Key{}) {
					l.opt.Cache.Put(f.alias, aliasRecord(f.key))
				}
			}
			continue
		}
		ok := true
		split := splitParts(f.res)
		for _, p := range pp.parts {
			part := split[p.rel]
			table, good := foreignTable(part, byKey)
			if !good {
				ok = false
				break
			}
			l.opt.Cache.Put(p.key, encodeResultRecord(encodeResult(part), table))
		}
		if ok {
			l.opt.Cache.Put(pp.slotKey, pp.slot)
			l.opt.Cache.Put(f.key, append([]byte{resultParts}, encodePartsList(pp.keys, pp.probs)...))
			if f.alias != (index.Key{}) {
				l.opt.Cache.Put(f.alias, aliasRecord(f.key))
			}
		}
	}
	l.fresh = nil
}
