package bundle

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Skeletons are a pure function of a file's text, and a process that
// answers many queries (ctxexpand serve) builds the same ones again and
// again: parsing the Go files of a bundle's candidates cost about a tenth
// of a query's CPU on hugo. So are a Go file's import lines, which every
// spans option of the file shows (spansView), parsed once more each
// time: another 3 ms of a query there. So is a text's escaping as a JSON
// string, which the sections of a JSON bundle repeat under other headers.
// Each memo keeps the most recent results, keyed by the text's hash and
// length (a false hit needs both 64-bit hashes and the length to collide).

const textMemoSize = 4096

type skeletonEntry struct {
	skel  string
	names []string
	ok    bool
}

type textKey struct {
	h1, h2 uint64
	n      int
}

var textSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func keyOfText(src string) textKey {
	return textKey{maphash.String(textSeeds[0], src), maphash.String(textSeeds[1], src), len(src)}
}

// textMemo is a bounded map from texts to what is made of them: at most
// textMemoSize entries and, when weigh is set, maxBytes of their weights;
// when full it forgets everything (queries refill what they use). Its
// values are shared: callers must not change them.
type textMemo[V any] struct {
	mu           sync.Mutex
	m            map[textKey]V
	bytes        int
	maxBytes     int
	weigh        func(V) int
	hits, misses atomic.Uint64
}

var (
	skeletons textMemo[skeletonEntry]
	goImports textMemo[[]lineRange]
	// escaped holds texts as JSON strings (jsonString): the sections of
	// a JSON bundle show the same files' code query after query.
	escaped = textMemo[string]{maxBytes: 48 << 20, weigh: func(s string) int { return len(s) }}
)

// get looks k up; counted says whether the lookup counts in the memo's
// figures (Prime's do not).
func (c *textMemo[V]) get(k textKey, counted bool) (V, bool) {
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	switch {
	case !counted:
	case ok:
		c.hits.Add(1)
	default:
		c.misses.Add(1)
	}
	return e, ok
}

// of returns what is kept under k, or makes it with build and keeps it;
// counted is as for get.
func (c *textMemo[V]) of(k textKey, counted bool, build func() V) V {
	if e, ok := c.get(k, counted); ok {
		return e
	}
	e := build()
	c.put(k, e)
	return e
}

func (c *textMemo[V]) put(k textKey, e V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := 0
	if c.weigh != nil {
		w = c.weigh(e)
	}
	if c.m == nil || len(c.m) >= textMemoSize || c.bytes+w > c.maxBytes && c.weigh != nil {
		c.m = make(map[textKey]V)
		c.bytes = 0
	}
	if _, ok := c.m[k]; !ok {
		c.bytes += w
	}
	c.m[k] = e
}

// SkeletonStats are the figures of the process's memo of Go skeletons
// (the skeleton rung of a file, rendered from its syntax tree): lookups
// that found the skeleton, lookups that built it, and skeletons held.
type SkeletonStats struct {
	Hits, Misses uint64
	Entries      int
}

// SkeletonMemoStats returns the figures of the memo of Go skeletons,
// which the bundles of every query of the process share.
func SkeletonMemoStats() SkeletonStats {
	skeletons.mu.Lock()
	n := len(skeletons.m)
	skeletons.mu.Unlock()
	return SkeletonStats{Hits: skeletons.hits.Load(), Misses: skeletons.misses.Load(), Entries: n}
}
