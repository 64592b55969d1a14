package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/sourcegraph/conc/iter"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// contentCache reads each file of the facts once and keeps it for the
// lexical index and the bundle. Files that cannot be read (binary, too
// large, gone) read as errors every time without retrying the disk.
//
// A resident session (LoadOptions.Resident) outlives the files it read,
// and a file may be saved again while the next session is being loaded
// and while queries still run on this one. Its answers must not depend on
// what the disk holds when a query happens to read it, so its cache is
// pinned when the session is made: it holds, for every file of the facts
// with a content hash, the very text that hash is of, and never reads
// those files again. The text comes from the load itself (sourceSet: what
// the loaders extracted their facts from, and what a reload after an edit
// read to hash the changed files), from the previous session of the chain
// for a file whose hash did not change, and only for the rest (the files
// of a load that decoded the facts from the index without reading them)
// from the disk, checked against the hash. A file whose text cannot be
// had that way (it changed or vanished between the load and the check)
// reads as an error and marks the session stale (Session.Stale), so that
// its owner loads the new state and asks again. Paths outside the facts
// (an @reference to a README) are read from the disk when asked for, as
// in any session.
type contentCache struct {
	facts  *analyze.Facts
	pinned bool // a resident session's cache (see above)
	// torn: pinned, but the text of some file of the facts could not be
	// had (entry.changed). What is computed from the contents (the
	// lexical index's per-file records) is then not kept for other
	// sessions, nor stored.
	torn  bool
	mu    sync.Mutex
	data  map[string]entry
	stale atomic.Pointer[string] // the first path found changed
}

type entry struct {
	b   []byte
	err error
	// hash is the facts' content hash the bytes are of ("" when they
	// were read at a query, unchecked).
	hash string
	// changed: the facts hold the file with hash, but its text could not
	// be had; it reads as errChanged and marks the session stale.
	changed bool
}

func newContentCache(facts *analyze.Facts) *contentCache {
	return &contentCache{facts: facts, data: map[string]entry{}}
}

// Content implements rank.Source.
func (c *contentCache) Content(f analyze.FileID) ([]byte, error) {
	return c.ByPath(c.facts.Files[f].Path)
}

// errChanged is what a pinned cache reads for a file whose content as
// the facts describe it could not be had: it changed or vanished before
// it could be read.
var errChanged = fmt.Errorf("the file changed after it was analysed")

// ByPath reads a repository-relative path.
func (c *contentCache) ByPath(p string) ([]byte, error) { return c.read(p, true) }

// Peek is ByPath for a reader whose answer no one sees (priming): a file
// whose text could not be had reads as an error without marking the
// session stale, which would make the next query load again for a file
// it may never read.
func (c *contentCache) Peek(p string) ([]byte, error) { return c.read(p, false) }

func (c *contentCache) read(p string, mark bool) ([]byte, error) {
	c.mu.Lock()
	e, ok := c.data[p]
	c.mu.Unlock()
	if ok {
		if e.changed {
			if mark {
				c.stale.CompareAndSwap(nil, &p)
			}
			return nil, errChanged
		}
		return e.b, e.err
	}
	b, err := analyze.ReadSource(c.facts.Root, p, 0)
	c.mu.Lock()
	if prev, ok := c.data[p]; ok {
		// Read at once by another query (or pinned meanwhile): one
		// answer for every reader.
		c.mu.Unlock()
		return prev.b, prev.err
	}
	c.data[p] = entry{b: b, err: err}
	c.mu.Unlock()
	return b, err
}

// pin makes c a resident session's cache (see contentCache): it takes
// the text of every file of the facts that has a content hash from src
// (what the load read), from prev (the previous session of the chain,
// for a file with the same hash), or else from the disk, checked.
func (c *contentCache) pin(src *sourceSet, prev *contentCache) {
	c.pinned = true
	missing := c.pinKnown(src, prev)
	if len(missing) == 0 {
		return
	}
	mapper := iter.Mapper[int, entry]{MaxGoroutines: runtime.GOMAXPROCS(0)}
	read := mapper.Map(missing, func(ip *int) entry {
		f := &c.facts.Files[*ip]
		b, err := analyze.ReadSource(c.facts.Root, f.Path, 0)
		if err != nil || hashOf(b) != f.Hash {
			return entry{hash: f.Hash, changed: true}
		}
		return entry{b: b, hash: f.Hash}
	})
	c.mu.Lock()
	for j, i := range missing {
		c.data[c.facts.Files[i].Path] = read[j]
		c.torn = c.torn || read[j].changed
	}
	c.mu.Unlock()
}

// pinKnown pins the files whose text src or prev holds, and returns the
// others (indexes into the facts' files).
func (c *contentCache) pinKnown(src *sourceSet, prev *contentCache) []int {
	var before map[string]entry
	if prev != nil && prev.pinned {
		prev.mu.Lock() // queries on prev may still add to it
		defer prev.mu.Unlock()
		before = prev.data
	}
	var missing []int
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, f := range c.facts.Files {
		if f.Hash == "" {
			continue
		}
		if b, ok := src.get(f.Hash); ok {
			c.data[f.Path] = pinnedEntry(f.Path, f.Hash, b)
			continue
		}
		if e, ok := before[f.Path]; ok && e.hash == f.Hash && !e.changed {
			c.data[f.Path] = e
			continue
		}
		missing = append(missing, i)
	}
	return missing
}

// pinnedEntry is the entry of a file the facts hold with hash, whose text
// b was read earlier: it reads as ReadSource would have read b.
func pinnedEntry(rel, hash string, b []byte) entry {
	if err := analyze.CheckSource(rel, b, 0); err != nil {
		return entry{err: err, hash: hash}
	}
	return entry{b: b, hash: hash}
}

// changed is the first file found to differ from the facts, or "".
func (c *contentCache) changed() string {
	if p := c.stale.Load(); p != nil {
		return *p
	}
	return ""
}

// hashOf is a content hash as the facts record it (hex SHA-256).
func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// sourceSet is the text of the files a resident load read, by content
// hash: what the loaders extracted their facts from (their OnSource
// options) and what the reload after an edit read to hash the changed
// files (residentIndex.update). Whatever the disk holds by the time a
// query runs, the session shows these bytes (contentCache.pin). A nil
// set keeps nothing.
type sourceSet struct {
	mu sync.Mutex
	by map[string][]byte
}

func newSourceSet() *sourceSet { return &sourceSet{by: map[string][]byte{}} }

// keep records src, the text of rel with the content hash hash.
func (s *sourceSet) keep(rel, hash string, src []byte) {
	if s == nil || rel == "" || hash == "" {
		return
	}
	s.mu.Lock()
	if _, ok := s.by[hash]; !ok {
		s.by[hash] = src
	}
	s.mu.Unlock()
}

// hook is keep as a loader's OnSource option; nil for a nil set.
func (s *sourceSet) hook() func(rel, hash string, src []byte) {
	if s == nil {
		return nil
	}
	return s.keep
}

// get returns the text with the content hash hash, if the load read it.
func (s *sourceSet) get(hash string) ([]byte, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.by[hash]
	return b, ok
}
