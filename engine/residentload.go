package engine

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/sourcegraph/conc/iter"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/factcodec"
	"github.com/ctxexpand/ctxexpand/analyze/golang"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Loading a resident session after a change.
//
// A resident session is reopened after every edit, so the load through
// the index (indexed.go) would read the root's record packs (tens of
// megabytes on hugo) from disk, walk and hash the whole tree for the
// snapshot key, and write the packs and the snapshot back, for every
// keystroke saved. A chain of resident sessions instead shares a
// residentIndex: the packs' records stay in memory (memPack), the content
// hashes of the inputs are kept and only the changed paths hashed again,
// and nothing is written until Persist, which the owner calls when the
// tree has been quiet for a while (and at exit). Persist does what the
// load would have done: it fingerprints the tree as it is, and stores the
// packs and the snapshots only when that is still the state the session
// was loaded from. The loaders still list the tree themselves, so a hash
// missing here costs a read, never a file. What the previous load decoded
// from those records stays decoded too: the Go packages' results
// (golang.ResultMemo) and the lexical index's per-file statistics
// (rank.TermsMemo).

// residentIndex is what a chain of resident sessions keeps between loads.
type residentIndex struct {
	st   *index.Store
	root string

	mu     sync.Mutex
	packs  map[string]*memPack // by kind
	hashes map[string]string   // input path → content hash, as of the last load
	goFP   string              // golang.Fingerprint as of the last load
	ready  bool                // hashes and goFP describe the tree (a full fingerprint was taken)
	// terms keeps the lexical index's per-file statistics decoded from
	// one generation to the next (rank.TermsMemo).
	terms *rank.TermsMemo
	// results keeps the Go packages' results decoded from one generation
	// to the next (golang.ResultMemo).
	results *golang.ResultMemo
	// walks keeps the loaders' walks of the tree while only the content
	// of listed files changes (see update).
	walks *analyze.Walks
}

func newResidentIndex(st *index.Store, root string) *residentIndex {
	return &residentIndex{st: st, root: root, packs: map[string]*memPack{}, terms: rank.NewTermsMemo(), results: golang.NewResultMemo(), walks: &analyze.Walks{}}
}

// pack returns the memory pack of a kind, reading the disk's on first use.
func (r *residentIndex) pack(kind string) *memPack {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.packs[kind]
	if !ok {
		p = &memPack{disk: r.st.Pack(r.root, kind), all: map[index.Key][]byte{}, used: map[index.Key]bool{}}
		r.packs[kind] = p
	}
	return p
}

// begin starts a load: what it uses is what Persist keeps.
func (r *residentIndex) begin() {
	for _, kind := range []string{"go-pkg", "rust-file", "lexfile"} {
		r.pack(kind).begin()
	}
}

// update brings the hashes and the Go fingerprint up to date with ch (not
// All); it reports false when it cannot (no full fingerprint yet), and the
// caller loads through the index instead.
func (r *residentIndex) update(ctx context.Context, opt LoadOptions, ch Changes) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ready {
		return false
	}
	var rehash []string
	manifest := false
	// The walks kept stay true while every change is to the content of an
	// input file the last load had, which is still a regular file under
	// the size limit: a walk lists it as before, and finds nothing new.
	walksHold := true
	for _, p := range ch.Paths {
		abs := filepath.Join(r.root, filepath.FromSlash(p))
		st, err := os.Lstat(abs)
		if _, had := r.hashes[p]; !had || err != nil || !st.Mode().IsRegular() || st.Size() > analyze.MaxFileSize {
			walksHold = false
		}
		switch {
		case err != nil:
			// Gone: the path and, for a directory, what was below it.
			delete(r.hashes, p)
			for k := range r.hashes {
				if strings.HasPrefix(k, p+"/") {
					delete(r.hashes, k)
				}
			}
		case st.IsDir():
			// A directory created or moved in: its files may come without
			// events of their own.
			if analyze.SkipsDir(path.Base(p)) || (opt.Ignore != nil && opt.Ignore(p, true)) {
				break
			}
			ignore := func(rel string, isDir bool) bool { return opt.Ignore != nil && opt.Ignore(p+"/"+rel, isDir) }
			files, _, err := analyze.ListFiles(ctx, abs, analyze.WalkOptions{AllFiles: true, Ignore: ignore})
			if err != nil && ctx.Err() != nil {
				return false
			}
			for _, f := range files {
				if rel := p + "/" + f; IsInput(rel) {
					rehash = append(rehash, rel)
					if base := path.Base(rel); manifestNames[base] && base != ".gitignore" && base != ".ctxexpandignore" {
						manifest = true
					}
				}
			}
		case st.Mode().IsRegular() && IsInput(p) && st.Size() <= analyze.MaxFileSize && (opt.Ignore == nil || !opt.Ignore(p, false)):
			rehash = append(rehash, p)
		default:
			delete(r.hashes, p)
		}
		if base := path.Base(p); manifestNames[base] && base != ".gitignore" && base != ".ctxexpandignore" {
			manifest = true
		}
	}
	if len(rehash) > 0 {
		hs, err := readInputs(ctx, r.root, rehash, opt.sources)
		if err != nil {
			return false
		}
		for _, fh := range hs {
			if fh.Err != nil {
				delete(r.hashes, fh.Path)
			} else {
				r.hashes[fh.Path] = fh.Hash
			}
		}
	}
	if manifest || !walksHold {
		r.walks.Forget()
	}
	if manifest {
		var goFiles []string
		for p := range r.hashes {
			if strings.HasSuffix(p, ".go") {
				goFiles = append(goFiles, p)
			}
		}
		sort.Strings(goFiles)
		r.goFP = ""
		if len(goFiles) > 0 {
			fp, err := golang.Fingerprint(ctx, r.root, goFiles, opt.goOptions())
			if err != nil {
				return false
			}
			r.goFP = fp
		}
	}
	return true
}

// readInputs hashes the input files paths (repository-relative) under
// root, as Store.HashFiles would, and gives the text of the Go and Rust
// sources among them to src: the session loaded with these hashes shows
// these bytes, whatever the disk holds by then (source.go). The index's
// file table is left as it is: Persist's fingerprint finds these files'
// metadata changed and hashes them again.
func readInputs(ctx context.Context, root string, paths []string, src *sourceSet) ([]index.FileHash, error) {
	mapper := iter.Mapper[string, index.FileHash]{MaxGoroutines: runtime.GOMAXPROCS(0)}
	out := mapper.Map(paths, func(p *string) index.FileHash {
		if err := ctx.Err(); err != nil {
			return index.FileHash{Path: *p, Err: err}
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(*p)))
		if err != nil {
			return index.FileHash{Path: *p, Err: err}
		}
		h := hashOf(data)
		if strings.HasSuffix(*p, ".go") || strings.HasSuffix(*p, ".rs") {
			src.keep(*p, h, data)
		}
		return index.FileHash{Path: *p, Hash: h}
	})
	return out, ctx.Err()
}

// record keeps the fingerprint a full load through the index took.
func (r *residentIndex) record(hashes map[string]string, goFP string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hashes = make(map[string]string, len(hashes))
	for k, v := range hashes {
		r.hashes[k] = v
	}
	r.goFP, r.ready = goFP, true
	r.walks.Forget() // the tree may have changed in any way since the last resident load
}

// loadPacks are the loaders' packs for a load with the kept hashes.
func (r *residentIndex) loadPacks() *packs {
	r.mu.Lock()
	hashes := make(map[string]string, len(r.hashes))
	for k, v := range r.hashes {
		hashes[k] = v
	}
	goFP := r.goFP
	r.mu.Unlock()
	return &packs{salt: r.st.ExecutableID(), goList: goFP, hashes: hashes, rust: r.pack("rust-file"), golang: r.pack("go-pkg"), results: r.results, walks: r.walks}
}

// loadResident loads root after the changes ch, from the records and
// hashes kept in memory (see above), and returns the input hashes it
// loaded with; ok is false when that cannot be done and the caller loads
// through the index.
func loadResident(ctx context.Context, root string, opt LoadOptions, r *residentIndex, ch Changes) (facts *analyze.Facts, hashes map[string]string, ok bool, err error) {
	if ch.All || !r.update(ctx, opt, ch) {
		return nil, nil, false, nil
	}
	r.begin()
	fresh := opt
	fresh.Index = nil
	fresh.packs = r.loadPacks()
	facts, err = Load(ctx, root, fresh)
	return facts, fresh.packs.hashes, true, err
}

// memPack is a record pack held in memory across the loads of a resident
// session chain: the records read from disk at first or added since, and
// which of them the current load used (what Persist writes).
type memPack struct {
	mu    sync.Mutex
	disk  *index.Pack // the pack as on disk at start; read on a miss
	all   map[index.Key][]byte
	used  map[index.Key]bool
	dirty bool // written to since the last Persist
}

// Get implements the loaders' caches.
func (p *memPack) Get(k index.Key) ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d, ok := p.all[k]; ok {
		p.used[k] = true
		return d, true
	}
	if p.disk != nil {
		if d, ok := p.disk.Get(k); ok {
			p.all[k] = d
			p.used[k] = true
			return d, true
		}
	}
	return nil, false
}

// Retain keeps the record under k for the next Persist, if there is one:
// what Get does, since reading a record from memory costs nothing.
func (p *memPack) Retain(k index.Key) { p.Get(k) }

// Put implements the loaders' caches.
func (p *memPack) Put(k index.Key, data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.all[k]; !ok || string(old) != string(data) {
		p.all[k] = data
		p.dirty = true
	}
	p.used[k] = true
}

// Flush does nothing: Persist writes (loaders' packs flush themselves
// through the packs type, which calls it).
func (p *memPack) Flush() {}

func (p *memPack) begin() {
	p.mu.Lock()
	p.used = map[index.Key]bool{}
	p.mu.Unlock()
}

// persist writes the records the last load used as the root's pack of
// kind, and forgets the others. The records are collected under the lock
// and written outside it, so that a load running meanwhile is not held up
// by the disk.
func (p *memPack) persist(st *index.Store, root, kind string) {
	p.mu.Lock()
	if len(p.used) == 0 || (!p.dirty && p.disk == nil) {
		p.mu.Unlock()
		return // the last load did not use this kind (a snapshot hit), or nothing changed since the last Persist
	}
	keep := make(map[index.Key][]byte, len(p.used))
	for k := range p.used {
		keep[k] = p.all[k]
	}
	for k := range p.all {
		if !p.used[k] {
			delete(p.all, k)
		}
	}
	p.disk, p.dirty = nil, false
	p.mu.Unlock()
	out := st.Pack(root, kind)
	for k, v := range keep {
		out.Put(k, v)
	}
	out.Flush()
}

// Persist stores what the session's loads kept in memory (resident
// sessions): the record packs, and the facts and lexical snapshots,
// provided the tree still is as it was loaded; a tree that changed since
// is left to the next load. Sessions that are not resident store as they
// load and Persist does nothing. It is safe to call at any time, but
// costs a walk and a hash of the tree.
func (s *Session) Persist(ctx context.Context) {
	r := s.resident
	if r == nil || s.Facts.Partial || s.content.torn {
		return // a torn session's lexical index lacks a file's text (source.go)
	}
	opt := s.loadOpts
	key, hashes, _, err := snapshotKey(ctx, r.st, s.Root, opt)
	if err != nil || !sameHashes(hashes, s.loadHashes) {
		return
	}
	for kind, p := range r.packsSnapshot() {
		p.persist(r.st, s.Root, kind)
	}
	r.st.PutSnapshot(s.Root, "facts", key, factcodec.Encode(s.Facts))
	if s.lexEncode != nil {
		r.st.PutSnapshot(s.Root, "lexical", lexicalKey(key), s.lexEncode())
	}
}

func (r *residentIndex) packsSnapshot() map[string]*memPack {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]*memPack, len(r.packs))
	for k, v := range r.packs {
		out[k] = v
	}
	return out
}

func sameHashes(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
