package bundle

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Skeletons are a pure function of a file's text, and a process that
// answers many queries (ctxexpand serve) builds the same ones again and
// again: parsing the Go files of a bundle's candidates cost about a tenth
// of a query's CPU on hugo. The memo keeps the most recent ones, keyed by
// the text's hash and length (a false hit needs both 64-bit hashes and
// the length to collide).

const skeletonMemoSize = 4096

type skeletonEntry struct {
	skel  string
	names []string
	ok    bool
}

type skeletonMemoKey struct {
	h1, h2 uint64
	n      int
}

var skeletonSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func skeletonKey(src string) skeletonMemoKey {
	return skeletonMemoKey{maphash.String(skeletonSeeds[0], src), maphash.String(skeletonSeeds[1], src), len(src)}
}

// skeletonMemo is a bounded map; when full it forgets everything (queries
// refill what they use).
type skeletonMemo struct {
	mu           sync.Mutex
	m            map[skeletonMemoKey]skeletonEntry
	hits, misses atomic.Uint64
}

var skeletons skeletonMemo

func (c *skeletonMemo) get(k skeletonMemoKey) (skeletonEntry, bool) {
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
	return e, ok
}

func (c *skeletonMemo) put(k skeletonMemoKey, e skeletonEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= skeletonMemoSize {
		c.m = make(map[skeletonMemoKey]skeletonEntry)
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
