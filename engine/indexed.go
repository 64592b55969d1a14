package engine

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/factcodec"
	"github.com/ctxexpand/ctxexpand/analyze/golang"
	"github.com/ctxexpand/ctxexpand/analyze/rust"
	"github.com/ctxexpand/ctxexpand/index"
)

// Loading through the on-disk index.
//
// A run with an index first fingerprints its inputs: the content hash of
// every Go and Rust file and of every manifest (go.mod, go.sum, go.work,
// Cargo.toml, Cargo.lock, vendor/modules.txt), which the index's file
// table answers without reading unchanged files; for Go, the go command's
// environment and module cache (golang.Fingerprint); and the program's
// own identity. Equal fingerprints mean equal facts, so a warm run with
// nothing changed decodes the facts snapshot and analyses nothing. When
// something changed, the loaders run with the index's packs of per-file
// and per-package results (see each loader's Options.Cache) and redo only
// what depends on the change; the new facts become the snapshot.

// Snapshot outcomes, for statistics and notes.
const (
	snapshotHit  = "hit"
	snapshotMiss = "miss"
	// snapshotMemory: a resident session loaded after an edit from the
	// records and hashes its chain keeps in memory (residentload.go).
	snapshotMemory = "memory"
)

// manifestNames are the files besides source files whose content a load
// depends on.
var manifestNames = map[string]bool{
	"go.mod": true, "go.sum": true, "go.work": true, "go.work.sum": true,
	"Cargo.toml": true, "Cargo.lock": true, "modules.txt": true,
	".gitignore": true, ".ctxexpandignore": true, // ignore rules mark files generated, too
}

// IndexedLoad is what a load through the index did, for statistics.
type IndexedLoad struct {
	Snapshot string        // snapshotHit, snapshotMiss or snapshotMemory
	Inputs   int           // files fingerprinted
	Took     time.Duration // fingerprinting and loading
}

// loadIndexed loads root through opt.Index.
func loadIndexed(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
	start := time.Now()
	st := opt.Index
	if r := opt.resident; r != nil {
		// After an edit: from memory (residentload.go).
		facts, hashes, ok, err := loadResident(ctx, root, opt, r, opt.changes)
		if ok {
			if err == nil {
				if opt.state != nil {
					opt.state.hashes = hashes
				}
				opt.report(IndexedLoad{Snapshot: snapshotMemory, Inputs: len(hashes), Took: time.Since(start)})
			}
			return facts, err
		}
	}
	key, hashes, goFP, err := snapshotKey(ctx, st, root, opt)
	if err != nil {
		if ctx.Err() != nil {
			// The time limit passed while fingerprinting: load what the
			// loaders manage, without the index.
			fresh := opt
			fresh.Index = nil
			return Load(ctx, root, fresh)
		}
		return nil, err
	}
	inputs := len(hashes)
	if opt.resident != nil {
		opt.resident.record(hashes, goFP)
		if opt.state != nil {
			opt.state.hashes = hashes
		}
	}
	if data, ok := st.GetSnapshot(root, "facts", key); ok {
		facts, err := factcodec.Decode(data, root)
		if err == nil {
			opt.setState(key)
			opt.report(IndexedLoad{Snapshot: snapshotHit, Inputs: inputs, Took: time.Since(start)})
			return facts, nil
		}
		opt.notice(fmt.Sprintf("index: the analysis snapshot could not be read and is rebuilt (%v)", err))
	}
	fresh := opt
	fresh.Index = nil
	fresh.packs = newPacks(st, root, hashes)
	fresh.packs.goList = goFP
	if opt.resident != nil {
		// The records stay in memory; Persist stores them.
		opt.resident.begin()
		fresh.packs = opt.resident.loadPacks()
	}
	facts, err := Load(ctx, root, fresh)
	if err != nil {
		return nil, err
	}
	if opt.resident != nil {
		opt.setState(key)
		opt.report(IndexedLoad{Snapshot: snapshotMiss, Inputs: inputs, Took: time.Since(start)})
		return facts, nil
	}
	if !facts.Partial && ctx.Err() == nil && inputsUnchanged(ctx, st, root, hashes) {
		opt.setState(key)
		data := factcodec.Encode(facts) // now: the session may change the facts (a time limit marks them partial)
		opt.state.save(func() {
			fresh.packs.flush()
			st.PutSnapshot(root, "facts", key, data)
		})
	}
	opt.report(IndexedLoad{Snapshot: snapshotMiss, Inputs: inputs, Took: time.Since(start)})
	return facts, nil
}

// snapshotKey fingerprints everything a load of root depends on, and
// returns the content hash of each input file and the Go fingerprint
// (golang.Fingerprint; empty without Go files).
func snapshotKey(ctx context.Context, st *index.Store, root string, opt LoadOptions) (index.Key, map[string]string, string, error) {
	// The program's identity, which the key needs last, is worked out
	// while the tree is walked: without version control stamps it is a
	// hash of the executable (50 MB, about 0.05 s on the main goroutine of
	// every cold run). ExecutableID computes it once; the call below waits.
	go st.ExecutableID()
	all, _, err := analyze.ListFiles(ctx, root, analyze.WalkOptions{AllFiles: true, Ignore: opt.Ignore})
	if err != nil && len(all) == 0 {
		return index.Key{}, nil, "", fmt.Errorf("reading %s: %w", root, err)
	}
	var inputs, goFiles []string
	indexes := opt.scipIndexes(root)
	scipInput := scipInputs(indexes)
	for _, p := range all {
		base := path.Base(p)
		switch {
		case strings.HasSuffix(base, ".go"):
			goFiles = append(goFiles, p)
			inputs = append(inputs, p)
		case strings.HasSuffix(base, ".rs"), manifestNames[base], scipInput(p):
			inputs = append(inputs, p)
		}
	}
	hashes, err := st.HashFiles(ctx, root, inputs)
	if err != nil {
		return index.Key{}, nil, "", err
	}
	known := make(map[string]string, len(hashes))
	h := index.NewHasher("facts").String(st.ExecutableID()).String(root).
		Bool(opt.SkipTests).Bool(opt.AllowNetwork).String(opt.backend()).String(opt.LSPCmd).
		String(opt.IndexKey).String(ignoreFilesAbove(root)).String(scipStamp(root, indexes))
	for _, fh := range hashes {
		h.String(fh.Path)
		if fh.Err != nil {
			h.String("unreadable")
		} else {
			h.String(fh.Hash)
			known[fh.Path] = fh.Hash
		}
	}
	var fp string
	if len(goFiles) > 0 {
		fp, err = golang.Fingerprint(ctx, root, goFiles, opt.goOptions())
		if err != nil {
			return index.Key{}, nil, "", err
		}
		h.String(fp)
	}
	return h.Sum(), known, fp, ctx.Err()
}

// backend is opt.Backend, BackendBuiltin when empty: the two load alike,
// and must share their index entries (ctxexpand index and the MCP server
// leave it empty, queries name it).
func (opt LoadOptions) backend() string {
	if opt.Backend == "" {
		return BackendBuiltin
	}
	return opt.Backend
}

func (opt LoadOptions) setState(key index.Key) {
	if opt.state != nil {
		opt.state.key = key
	}
}

func (opt LoadOptions) report(l IndexedLoad) {
	if opt.OnIndexed != nil {
		opt.OnIndexed(l)
	}
}

func (opt LoadOptions) notice(msg string) {
	if opt.Notice != nil {
		opt.Notice(msg)
	}
}

// packs are the per-root record packs the loaders read and fill, with
// the content hashes of the inputs, so that loaders need not read
// unchanged files.
type packs struct {
	salt   string
	goList string // the Go fingerprint, which lets go list's answer be reused
	hashes map[string]string
	rust   recordPack
	golang recordPack
	// results keeps a resident chain's decoded Go results (nil otherwise).
	results *golang.ResultMemo
	// walks keeps a resident chain's walks of the tree (nil otherwise).
	walks *analyze.Walks
}

// walked is the Walks the loads of p keep their walks in, or nil.
func (p *packs) walked() *analyze.Walks {
	if p == nil {
		return nil
	}
	return p.walks
}

// recordPack is an index.Pack, or a resident session chain's memPack.
type recordPack interface {
	Get(index.Key) ([]byte, bool)
	Put(index.Key, []byte)
	Flush()
}

func newPacks(st *index.Store, root string, hashes map[string]string) *packs {
	return &packs{salt: st.ExecutableID(), hashes: hashes, rust: st.Pack(root, "rust-file"), golang: st.Pack(root, "go-pkg")}
}

// goOptions adds the cache to the Go loader's options.
func (p *packs) goOptions(o golang.Options) golang.Options {
	if p == nil {
		return o
	}
	o.Cache, o.CacheSalt, o.FileHash, o.ListSalt, o.Results, o.Walks = p.golang, p.salt, p.fileHash, p.goList, p.results, p.walks
	return o
}

// fileHash gives a loader the content hash of an input file.
func (p *packs) fileHash(rel string) (string, bool) {
	h, ok := p.hashes[rel]
	return h, ok
}

// rustOptions adds the cache to the Rust loader's options.
func (p *packs) rustOptions(o rust.Options) rust.Options {
	if p == nil {
		return o
	}
	o.Cache, o.CacheSalt, o.FileHash, o.Walks = p.rust, p.salt, p.fileHash, p.walks
	return o
}

func (p *packs) flush() {
	if p == nil {
		return
	}
	p.rust.Flush()
	p.golang.Flush()
}

// ignoreFilesAbove describes the ignore rules outside the root that apply
// to it: the ignore files of its ancestors up to the git top level and
// .git/info/exclude, by content.
func ignoreFilesAbove(root string) string {
	var b strings.Builder
	for dir := root; ; dir = filepath.Dir(dir) {
		if dir != root {
			for _, name := range []string{".gitignore", ".ctxexpandignore"} {
				if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
					fmt.Fprintf(&b, "%s %x\n", filepath.Join(dir, name), sha256.Sum256(data))
				}
			}
		}
		if st, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			if st.IsDir() {
				if data, err := os.ReadFile(filepath.Join(dir, ".git", "info", "exclude")); err == nil {
					fmt.Fprintf(&b, "exclude %x\n", sha256.Sum256(data))
				}
			}
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return b.String()
}

// inputsUnchanged reports whether the input files still have the content
// they had when the snapshot key was computed: a file saved while the
// loaders ran would otherwise have the new facts stored under the old key.
// The file table makes this a stat per file.
func inputsUnchanged(ctx context.Context, st *index.Store, root string, before map[string]string) bool {
	paths := make([]string, 0, len(before))
	for p := range before {
		paths = append(paths, p)
	}
	after, err := st.HashFiles(ctx, root, paths)
	if err != nil {
		return false
	}
	for _, fh := range after {
		if fh.Err != nil || fh.Hash != before[fh.Path] {
			return false
		}
	}
	return true
}
