package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// contentCache reads each file of the facts once and keeps it for the
// lexical index and the bundle. Files that cannot be read (binary, too
// large, gone) read as errors every time without retrying the disk.
//
// A resident session (LoadOptions.Resident) outlives the files it read:
// a file saved after the load would otherwise show its new text under its
// old symbols. Its cache checks every file it reads from disk against
// the content hash the facts hold; a file that differs reads as an error
// and marks the session stale (Session.Stale), so that its owner can
// load the new state and ask again.
type contentCache struct {
	facts  *analyze.Facts
	verify bool
	hashes map[string]string // path → the facts' content hash, when verifying
	mu     sync.Mutex
	data   map[string]entry
	stale  atomic.Pointer[string] // the first path found changed
}

type entry struct {
	b   []byte
	err error
	// hash is the facts' content hash the bytes were checked against
	// ("" when not checked).
	hash string
}

func newContentCache(facts *analyze.Facts, verify bool) *contentCache {
	c := &contentCache{facts: facts, verify: verify, data: map[string]entry{}}
	if verify {
		c.hashes = make(map[string]string, len(facts.Files))
		for _, f := range facts.Files {
			if f.Hash != "" {
				c.hashes[f.Path] = f.Hash
			}
		}
	}
	return c
}

// Content implements rank.Source.
func (c *contentCache) Content(f analyze.FileID) ([]byte, error) {
	return c.ByPath(c.facts.Files[f].Path)
}

// errChanged is what a verifying cache reads for a file whose content is
// no longer the one its facts were made from.
var errChanged = fmt.Errorf("the file changed after it was analysed")

// ByPath reads a repository-relative path.
func (c *contentCache) ByPath(p string) ([]byte, error) {
	c.mu.Lock()
	e, ok := c.data[p]
	c.mu.Unlock()
	if ok {
		return e.b, e.err
	}
	b, err := analyze.ReadSource(c.facts.Root, p, 0)
	e = entry{b: b, err: err}
	if c.verify && err == nil {
		if h := c.hashes[p]; h != "" {
			sum := sha256.Sum256(b)
			e.hash = h
			if hex.EncodeToString(sum[:]) != h {
				c.stale.CompareAndSwap(nil, &p)
				return nil, errChanged // not kept: the next session reads it again
			}
		}
	}
	c.mu.Lock()
	c.data[p] = e
	c.mu.Unlock()
	return b, err
}

// inherit takes over the checked contents of prev whose hash is the one
// the new facts hold for the same path, so that a session opened after
// an edit reads only what changed.
func (c *contentCache) inherit(prev *contentCache) {
	if prev == nil || !c.verify || !prev.verify {
		return
	}
	prev.mu.Lock()
	defer prev.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, e := range prev.data {
		if e.hash == "" || e.err != nil {
			continue
		}
		if c.hashes[p] == e.hash {
			c.data[p] = e
		}
	}
}

// changed is the first file found to differ from the facts, or "".
func (c *contentCache) changed() string {
	if p := c.stale.Load(); p != nil {
		return *p
	}
	return ""
}
