package bundle

import (
	"hash/maphash"
	"sync"
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
	mu sync.Mutex
	m  map[skeletonMemoKey]skeletonEntry
}

var skeletons skeletonMemo

func (c *skeletonMemo) get(k skeletonMemoKey) (skeletonEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
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
