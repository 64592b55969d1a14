package golang

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/ctxexpand/ctxexpand/index"
)

// Reusing package results across loads.
//
// With Options.Cache set, the result of every extracted repository package
// (its files, symbols, edges, unresolved references and method sets) is
// stored under a key that covers everything the extraction read: the
// package's import path, language version and files (by content for files
// under the root, by path elsewhere: the module cache and GOROOT do not
// change under a path), which of them it extracts, whether it is a
// repository package, and the same key of every package it imports,
// recursively. A later load whose package graph gives a package the same
// key reuses its result without parsing or type-checking it.
//
// A package that misses (it or something it depends on changed) is
// checked in full, and every package it depends on is type-checked from
// its declarations, as on a cold load; packages no miss depends on are not
// parsed or checked at all. Resolution across packages (the merger) always
// runs on all results, cached or fresh, so the facts equal those of a load
// without the cache.

// Cache keeps records between loads; index.Pack implements it.
type Cache interface {
	Get(key index.Key) ([]byte, bool)
	Put(key index.Key, data []byte)
}

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
	vals := goEnvValues(l.ctx, l.env)
	for _, k := range fingerprintEnv {
		h.String(k).String(vals[k])
	}
	l.salt = h.Sum().String()
	return l.salt
}

// contentKey computes, once, the node's key (see above).
func (l *loader) contentKey(n *node, repo map[string]bool) index.Key {
	if n.ckeyDone {
		return n.ckey
	}
	n.ckeyDone = true // the graph is acyclic; this only guards against surprises
	h := index.NewHasher("go-pkg").String(l.cacheSalt()).String(n.pkg.PkgPath).String(n.pkg.Name).
		String(goVersion(n.pkg)).Bool(repo[n.pkg.PkgPath])
	files := append([]string(nil), n.goFiles...)
	sort.Strings(files)
	for _, f := range files {
		rel, under := l.relOf(f)
		switch {
		case under:
			_, extracted := n.assigned[f]
			h.String(rel).Bool(extracted).String(l.fileHash(rel, f))
		default:
			h.String(f)
		}
	}
	paths := make([]string, 0, len(n.pkg.Imports))
	for p := range n.pkg.Imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		h.String(p)
		if d := n.imports[p]; d != nil && len(d.goFiles) > 0 {
			h.Key(l.contentKey(d, repo))
		} else {
			h.String("missing")
		}
	}
	n.ckey = h.Sum()
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

// planCache looks the unit's extracted packages up in the cache and
// decides what must be parsed and checked: packages that missed, in full,
// and the packages they depend on, from their declarations. It returns
// the number of hits.
func (l *loader) planCache(order []*node, repo map[string]bool) int {
	for _, n := range order {
		n.extract = n.full
		n.needTypes = true
	}
	if l.opt.Cache == nil {
		return 0
	}
	hits := 0
	for _, n := range order {
		n.needTypes = false
		if !n.full {
			continue
		}
		k := l.contentKey(n, repo)
		if data, ok := l.opt.Cache.Get(k); ok {
			if res, err := decodeResult(data); err == nil {
				n.cached, n.extract = res, false
				hits++
				continue
			}
		}
	}
	var need func(n *node)
	need = func(n *node) {
		if n.needTypes {
			return
		}
		n.needTypes = true
		for _, d := range n.imports {
			need(d)
		}
	}
	for _, n := range order {
		if n.extract {
			need(n)
		}
	}
	return hits
}

// storeResult keeps a freshly extracted package's result.
// A result whose files were read with another content than the key says
// (a file saved while the load ran) is not stored.
func (l *loader) storeResult(n *node, res *pkgResult, repo map[string]bool) {
	if l.opt.Cache == nil || res == nil || l.ctx.Err() != nil {
		return
	}
	for _, fr := range res.files {
		if fr.file.Hash != l.fileHash(fr.file.Path, filepath.Join(l.root, filepath.FromSlash(fr.file.Path))) {
			return
		}
	}
	l.opt.Cache.Put(l.contentKey(n, repo), encodeResult(res))
}
