package pipeline

import (
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// contentCache reads each file of the facts once and keeps it for the
// lexical index and the bundle. Files that cannot be read (binary, too
// large, gone) read as errors every time without retrying the disk.
type contentCache struct {
	facts *analyze.Facts
	mu    sync.Mutex
	data  map[string]entry
}

type entry struct {
	b   []byte
	err error
}

func newContentCache(facts *analyze.Facts) *contentCache {
	return &contentCache{facts: facts, data: map[string]entry{}}
}

// Content implements rank.Source.
func (c *contentCache) Content(f analyze.FileID) ([]byte, error) {
	return c.ByPath(c.facts.Files[f].Path)
}

// ByPath reads a repository-relative path.
func (c *contentCache) ByPath(p string) ([]byte, error) {
	c.mu.Lock()
	e, ok := c.data[p]
	c.mu.Unlock()
	if ok {
		return e.b, e.err
	}
	b, err := analyze.ReadSource(c.facts.Root, p, 0)
	c.mu.Lock()
	c.data[p] = entry{b, err}
	c.mu.Unlock()
	return b, err
}
