package tokenize

import (
	"hash/maphash"
	"sync"
)

// cacheShards spreads the cache over independent locks so that concurrent
// counters rarely wait on each other.
const cacheShards = 32

// cacheKey identifies content by two independent 64-bit hashes and its
// length; a false match needs all three to collide.
type cacheKey struct {
	h1, h2 uint64
	n      int
}

// cache maps content to its token count. It is bounded: each shard keeps at
// most its share of the entries and, when full, forgets the oldest (FIFO,
// which costs nothing on a hit). Safe for concurrent use.
type cache struct {
	seed1, seed2 maphash.Seed
	shards       [cacheShards]shard
}

type shard struct {
	mu    sync.Mutex
	m     map[cacheKey]int32
	order []cacheKey // ring of keys in insertion order
	next  int        // next slot of order to overwrite once full
	limit int
}

func newCache(size int) *cache {
	c := &cache{seed1: maphash.MakeSeed(), seed2: maphash.MakeSeed()}
	per := max(size/cacheShards, 1)
	for i := range c.shards {
		c.shards[i].limit = per
	}
	return c
}

func (c *cache) key(s string) cacheKey {
	return cacheKey{h1: maphash.String(c.seed1, s), h2: maphash.String(c.seed2, s), n: len(s)}
}

func (c *cache) shard(k cacheKey) *shard { return &c.shards[k.h1%cacheShards] }

func (c *cache) get(k cacheKey) (int, bool) {
	sh := c.shard(k)
	sh.mu.Lock()
	n, ok := sh.m[k]
	sh.mu.Unlock()
	return int(n), ok
}

func (c *cache) put(k cacheKey, n int) {
	if n > 1<<31-1 {
		return
	}
	sh := c.shard(k)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.m == nil {
		sh.m = make(map[cacheKey]int32)
	}
	if _, ok := sh.m[k]; ok {
		return
	}
	if len(sh.order) < sh.limit {
		sh.order = append(sh.order, k)
	} else {
		delete(sh.m, sh.order[sh.next])
		sh.order[sh.next] = k
		sh.next = (sh.next + 1) % sh.limit
	}
	sh.m[k] = int32(n)
}

// len returns the number of cached entries.
func (c *cache) len() int {
	total := 0
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		total += len(sh.m)
		sh.mu.Unlock()
	}
	return total
}
