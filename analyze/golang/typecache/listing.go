package typecache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/factcodec"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Reusing go list's answer.
//
// go list costs a few hundred milliseconds on a large module even when
// its answer is the one it gave last time, which makes it most of the
// cost of a load after an edit. Its answer depends on the go command and
// its environment, on the go.mod, go.sum, go.work and vendor files and
// the module cache, all of which the listSalt of ListKey describes (the
// Go loader's Options.ListSalt, its Fingerprint), on the options and the
// overlay, and on the .go files
// under the root only through their names and headers: the build
// constraints and package clause, the imports with the cgo preamble
// among them, and the //go:embed directives. A function body or a
// comment below the imports does not change it.
//
// So each unit keeps the listing it last got, in one record per unit
// under a key of those inputs besides the files (ListKey), together with the
// header digest of every file the listing was computed from (with the
// file's content hash, so that unchanged files are not read again to
// check it). A load reuses the record when every Go file under the root
// has the header it had, and the set of files is the same; otherwise it
// runs go list and replaces the record. Files go list reported that the
// loader does not analyse (ignored or too large) are part of the check
// too, known by their size and modification time. Only a clean listing
// is kept: a failed go list is run again next time.

// listCacheVersion changes whenever the record's encoding or what it
// holds changes.
const listCacheVersion = 1

// ListKey is the key of a unit's listing record: everything go list's
// answer depends on besides the .go files under the root. listSalt is
// the caller's description of the go command, its environment and the
// module files (the loader's Options.ListSalt, its Fingerprint); dir,
// patterns and env are the unit's go list invocation, overlay what it
// was given instead of some files.
func ListKey(salt, listSalt, dir string, skipTests bool, patterns, env []string, overlay map[string][]byte) index.Key {
	h := index.NewHasher("go-list").Uint(listCacheVersion).String(salt).String(listSalt).
		String(dir).Bool(skipTests)
	for _, list := range [][]string{patterns, goRelevantEnv(env)} {
		h.Uint(uint64(len(list)))
		for _, s := range list {
			h.String(s)
		}
	}
	for _, name := range sortedKeys(overlay) {
		h.String(name).Bytes(overlay[name])
	}
	return h.Sum()
}

// goRelevantEnv keeps the variables of env that the go command reads
// (besides those the caller's salt describes): the rest of an environment
// changes from one process to the next without changing go list's answer.
func goRelevantEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "GOGC", k == "GOMEMLIMIT", k == "GOMAXPROCS", k == "GOTRACEBACK":
			continue // the go command's own runtime, not what it answers
		case strings.HasPrefix(k, "GO"), strings.HasPrefix(k, "CGO_"):
		case k == "CC", k == "CXX", k == "PKG_CONFIG", k == "PATH", k == "HOME", k == "XDG_CONFIG_HOME":
		default:
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Listings reuses go list's answers for one load. Its fields describe the
// files under the root as the loader sees them.
type Listings struct {
	Cache Cache
	// Root is the absolute root, symbolic links resolved.
	Root string
	// Analysed are the repository-relative paths of the Go files under the
	// root the loader analyses.
	Analysed map[string]bool
	// Overlay holds what go list is given instead of some files, by
	// absolute path.
	Overlay map[string][]byte
	// FileHash is the content hash of a file under the root.
	FileHash func(rel, abs string) string
	// RelOf is the repository-relative path of an absolute file name, or
	// false when it lies outside the root.
	RelOf func(abs string) (string, bool)

	// Memo, when set, keeps the records decoded by earlier loads.
	Memo *ListingMemo

	sorted []string // Analysed, sorted
}

// ListingMemo keeps the listing records that the loads sharing it decoded
// (a resident session chain, which loads again after every edit: on hugo
// decoding go list's answer was a twentieth of an edit's CPU). A record
// is reused only when its bytes are the ones decoded, so a record stored
// again under its key (with newer times) is decoded again. The listings
// it hands out are shared: the loader reads them and never writes them.
// The zero value is ready to use; a nil *ListingMemo decodes every time.
type ListingMemo struct {
	mu sync.Mutex
	m  map[index.Key]decodedListing
}

type decodedListing struct {
	data []byte
	rec  *listingRecord
}

// maxListings bounds a ListingMemo: a load lists a few units, and keys
// change only with the go command's environment and the manifests.
const maxListings = 32

// decode is decodeListing, reusing the record decoded from the same bytes
// under key.
func (m *ListingMemo) decode(key index.Key, data []byte) (*listingRecord, error) {
	if m == nil {
		return decodeListing(data)
	}
	m.mu.Lock()
	old, ok := m.m[key]
	m.mu.Unlock()
	if ok && bytes.Equal(old.data, data) {
		return old.rec, nil
	}
	rec, err := decodeListing(data)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.m == nil || len(m.m) >= maxListings {
		m.m = map[index.Key]decodedListing{}
	}
	m.m[key] = decodedListing{data: data, rec: rec}
	m.mu.Unlock()
	return rec, nil
}

// Listing is go list's answer for a unit: the root packages of the
// graph and the problems met on the way.
type Listing struct {
	Roots    []*packages.Package
	Problems []analyze.Problem
}

// Get returns the listing recorded under key (a ListKey) when it still
// holds (reused), and otherwise runs list and records its answer when it
// is clean: a failed or cancelled go list is run again next time.
func (c *Listings) Get(ctx context.Context, key index.Key, list func() (Listing, error)) (ls Listing, reused bool, err error) {
	var known map[string]listInput
	if data, ok := c.Cache.Get(key); ok {
		rec, err := c.Memo.decode(key, data)
		if err == nil {
			known = make(map[string]listInput, len(rec.inputs))
			for _, in := range rec.inputs {
				known[in.rel] = in
			}
			if c.inputsHold(rec, known) {
				if hasRacy(rec.inputs) {
					// Record the times that can be trusted now, so that
					// those files are not read at every load.
					c.Cache.Put(key, c.encodeRecord(rec.listing, known))
				}
				return rec.listing, true, nil
			}
		}
	}
	ls, err = list()
	if err != nil || ctx.Err() != nil {
		return ls, false, err
	}
	c.Cache.Put(key, c.encodeRecord(ls, known))
	return ls, false, nil
}

// inputsHold reports whether every file the record was computed from
// has the header it had, and no Go file under the root is new.
func (c *Listings) inputsHold(rec *listingRecord, known map[string]listInput) bool {
	seen := 0
	for _, rel := range c.sortedFiles() {
		in, ok := known[rel]
		if !ok {
			return false
		}
		seen++
		if c.inputOf(rel, known).header != in.header {
			return false
		}
	}
	for _, in := range rec.inputs {
		if !c.Analysed[in.rel] {
			seen++
			if c.inputOf(in.rel, known).header != in.header {
				return false
			}
		}
	}
	return seen == len(rec.inputs)
}

// sortedFiles are the Go files under the root the loader analyses.
func (c *Listings) sortedFiles() []string {
	if c.sorted == nil {
		c.sorted = sortedKeys(c.Analysed)
	}
	return c.sorted
}

// listInput is one file a listing was computed from.
type listInput struct {
	rel, content, header string
}

// hasRacy reports whether a record holds a file whose modification time
// was too recent to trust when it was made.
func hasRacy(inputs []listInput) bool {
	for _, in := range inputs {
		if in.content == racyContent {
			return true
		}
	}
	return false
}

// inputOf describes a file under the root as a listing input: its content
// hash and header digest, the recorded one when its content is unchanged,
// else computed from it.
func (c *Listings) inputOf(rel string, known map[string]listInput) listInput {
	content, racy, src := c.listContent(rel)
	if in, ok := known[rel]; ok && in.content == content {
		return in
	}
	in := listInput{rel: rel, content: content, header: content}
	if src != nil { // else unreadable or not a regular file: its description is all there is
		in.header = goHeaderDigest(src())
	}
	if racy {
		in.content = racyContent
	}
	return in
}

// racyContent stands, in a record, for the content of a file known by its
// size and modification time that was modified too shortly before the
// record was made for them to show a later edit: an edit within the same
// tick of the file system's clock, keeping the size, would leave both as
// they were. It never equals a file's description, so the file is read
// again at the next load (git's "racy" entries, the same way).
const racyContent = "racy"

// racyWindow is how recent a modification must be for its time to be
// untrustworthy: the coarsest timestamps in common use (FAT) tick every
// two seconds.
const racyWindow = 2 * time.Second

// listContent returns a file's content hash as go list sees it (the
// overlay's stub for a .go entry that is not a regular file, which is
// never opened: a named pipe would block), whether that description is
// its size and a modification time too recent to trust (see racyContent),
// and a way to read it, nil when there is nothing to read.
func (c *Listings) listContent(rel string) (content string, racy bool, src func() []byte) {
	abs := filepath.Join(c.Root, filepath.FromSlash(rel))
	if ov, ok := c.Overlay[abs]; ok {
		return fmt.Sprintf("overlay %x", sha256.Sum256(ov)), false, func() []byte { return ov }
	}
	read := func() []byte {
		src, err := os.ReadFile(abs)
		if err != nil {
			return []byte("unreadable: " + err.Error())
		}
		return src
	}
	if !c.Analysed[rel] {
		// Not a file the walker vetted (vendored, ignored, too large):
		// make sure it is a regular one, and know it by its size and
		// modification time rather than read it every load (a vendor
		// directory holds thousands).
		st, err := os.Lstat(abs)
		if err != nil {
			return "unreadable: " + err.Error(), false, nil
		}
		if !st.Mode().IsRegular() {
			return "special: " + st.Mode().String(), false, nil
		}
		racy := time.Since(st.ModTime()) < racyWindow
		return fmt.Sprintf("stat %d %d", st.Size(), st.ModTime().UnixNano()), racy, read
	}
	return c.FileHash(rel, abs), false, read
}

// goHeaderDigest hashes what go list reads of a Go file: everything up to
// the end of its imports (build constraints, package clause, cgo
// preamble, imports) and its //go:embed lines. A file whose header does
// not parse is hashed whole.
func goHeaderDigest(src []byte) string {
	h := sha256.New()
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly|parser.SkipObjectResolution)
	end := len(src)
	if err == nil && f.Name != nil {
		end = int(f.Name.End()) - 1
		for _, d := range f.Decls {
			if e := int(d.End()) - 1; e > end {
				end = e
			}
		}
		if end > len(src) || end < 0 {
			end = len(src)
		}
	}
	h.Write(src[:end])
	if bytes.Contains(src[end:], []byte("//go:embed")) {
		for _, line := range bytes.Split(src[end:], []byte("\n")) {
			if line = bytes.TrimSpace(line); bytes.HasPrefix(line, []byte("//go:embed")) {
				h.Write([]byte{0})
				h.Write(line)
			}
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// listingRecord is what a unit's record holds.
type listingRecord struct {
	inputs  []listInput
	listing Listing
}

// encodeRecord records a listing with the header of every file it was
// computed from: the Go files under the root, and the files under it that
// go list reported besides (ignored or too large for the loader). known
// holds the headers of the previous record, reused for unchanged files.
func (c *Listings) encodeRecord(ls Listing, known map[string]listInput) []byte {
	rels := append([]string(nil), c.sortedFiles()...)
	extra := map[string]bool{}
	packages.Visit(ls.Roots, nil, func(p *packages.Package) {
		for _, list := range [][]string{p.GoFiles, p.CompiledGoFiles, p.IgnoredFiles} {
			for _, f := range list {
				if rel, ok := c.RelOf(f); ok && strings.HasSuffix(rel, ".go") && !c.Analysed[rel] {
					extra[rel] = true
				}
			}
		}
	})
	for rel := range extra {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	w := wire.NewWriter(1 << 16)
	w.Uint(listCacheVersion)
	w.Uint(uint64(len(rels)))
	for _, rel := range rels {
		in := c.inputOf(rel, known)
		w.String(in.rel)
		w.String(in.content)
		w.String(in.header)
	}
	encodeListing(w, ls.Roots)
	factcodec.WriteProblems(w, ls.Problems)
	return w.Bytes()
}

// encodeListing writes the package graph: every package reachable from
// the roots, each with the fields the loader reads, imports by index.
func encodeListing(w *wire.Writer, roots []*packages.Package) {
	var all []*packages.Package
	idx := map[*packages.Package]int{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		idx[p] = len(all)
		all = append(all, p)
	})
	w.Uint(uint64(len(all)))
	for _, p := range all {
		w.String(p.ID)
		w.String(p.Name)
		w.String(p.PkgPath)
		w.String(p.Dir)
		w.String(p.ForTest)
		for _, list := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles} {
			w.Uint(uint64(len(list)))
			for _, f := range list {
				// Most files are in the package's directory: their base
				// name is enough.
				if p.Dir != "" && filepath.Dir(f) == p.Dir {
					w.String(filepath.Base(f))
				} else {
					w.String(string(filepath.Separator) + "\x00" + f)
				}
			}
		}
		if m := p.Module; m != nil {
			w.Bool(true)
			w.String(m.Path)
			w.String(m.Version)
			w.Bool(m.Main)
			w.String(m.Dir)
			w.String(m.GoMod)
			w.String(m.GoVersion)
		} else {
			w.Bool(false)
		}
		w.Uint(uint64(len(p.Errors)))
		for _, e := range p.Errors {
			w.String(e.Pos)
			w.String(e.Msg)
			w.Int(int64(e.Kind))
		}
		paths := sortedKeys(p.Imports)
		w.Uint(uint64(len(paths)))
		for _, path := range paths {
			w.String(path)
			w.Uint(uint64(idx[p.Imports[path]]))
		}
	}
	w.Uint(uint64(len(roots)))
	for _, r := range roots {
		w.Uint(uint64(idx[r]))
	}
}

// decodeListing reads a record encodeRecord wrote.
func decodeListing(data []byte) (*listingRecord, error) {
	r := wire.NewReader(data)
	if v := r.Uint(); v != listCacheVersion {
		return nil, fmt.Errorf("listing record version %d, want %d", v, listCacheVersion)
	}
	in := wire.Interner{}
	rec := &listingRecord{}
	n := r.Len(3)
	rec.inputs = make([]listInput, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		rec.inputs = append(rec.inputs, listInput{rel: r.String(), content: r.String(), header: r.String()})
	}
	count := r.Len(8)
	all := make([]*packages.Package, count)
	for i := range all {
		all[i] = &packages.Package{}
	}
	for _, p := range all {
		if r.Err() != nil {
			break
		}
		p.ID, p.Name, p.PkgPath = r.String(), in.String(r), r.String()
		p.Dir, p.ForTest = in.String(r), in.String(r)
		for _, list := range []*[]string{&p.GoFiles, &p.CompiledGoFiles, &p.OtherFiles, &p.IgnoredFiles} {
			k := r.Len(1)
			if k == 0 {
				continue
			}
			files := make([]string, 0, k)
			for j := 0; j < k && r.Err() == nil; j++ {
				s := r.String()
				if full, ok := strings.CutPrefix(s, string(filepath.Separator)+"\x00"); ok {
					files = append(files, full)
				} else {
					files = append(files, filepath.Join(p.Dir, s))
				}
			}
			*list = files
		}
		if r.Bool() {
			p.Module = &packages.Module{Path: in.String(r), Version: in.String(r), Main: r.Bool(),
				Dir: in.String(r), GoMod: in.String(r), GoVersion: in.String(r)}
		}
		if k := r.Len(3); k > 0 {
			p.Errors = make([]packages.Error, 0, k)
			for j := 0; j < k && r.Err() == nil; j++ {
				p.Errors = append(p.Errors, packages.Error{Pos: r.String(), Msg: r.String(), Kind: packages.ErrorKind(r.Int())})
			}
		}
		k := r.Len(2)
		p.Imports = make(map[string]*packages.Package, k)
		for j := 0; j < k && r.Err() == nil; j++ {
			path := in.String(r)
			d := r.Uint()
			if d >= uint64(count) {
				return nil, fmt.Errorf("%w: import index %d of %d", wire.ErrCorrupt, d, count)
			}
			p.Imports[path] = all[d]
		}
	}
	nr := r.Len(1)
	for i := 0; i < nr && r.Err() == nil; i++ {
		d := r.Uint()
		if d >= uint64(count) {
			return nil, fmt.Errorf("%w: root index %d of %d", wire.ErrCorrupt, d, count)
		}
		rec.listing.Roots = append(rec.listing.Roots, all[d])
	}
	rec.listing.Problems = factcodec.ReadProblems(r)
	if err := r.Done(); err != nil {
		return nil, err
	}
	if err := acyclic(all); err != nil {
		return nil, err
	}
	return rec, nil
}

// acyclic refuses a decoded graph with an import cycle, which go list
// never reports and which would make the loader wait forever.
func acyclic(all []*packages.Package) error {
	state := make(map[*packages.Package]int8, len(all))
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		switch state[p] {
		case 1:
			return false
		case 2:
			return true
		}
		state[p] = 1
		for _, d := range p.Imports {
			if !visit(d) {
				return false
			}
		}
		state[p] = 2
		return true
	}
	for _, p := range all {
		if !visit(p) {
			return fmt.Errorf("%w: import cycle through %s", wire.ErrCorrupt, p.ID)
		}
	}
	return nil
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
