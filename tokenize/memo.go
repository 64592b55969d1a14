package tokenize

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Memo remembers the counts of whole texts, for a process that counts
// the same texts query after query (ctxexpand serve). The counters' own
// cache works a chunk at a time and counts chunks under 48 bytes rather
// than look them up, so a source file split at its line starts is
// mostly counted again on every call; a memo hit costs two hashes of
// the text and one lock, whatever its length.
//
// Entries are keyed by the counter (its Name, which carries the encoding
// and the calibration factor) and the text (two independent 64-bit
// hashes and the length: a false match needs all three to collide). The
// memo holds at most 7/4 of its size in entries, in two
// generations per shard: the young one takes new counts and, when full,
// becomes the old one, replacing it; a count found in the old generation
// moves to the young one. What queries keep asking for therefore stays,
// as in a least-recently-used cache, at the cost of one map write per
// hit in the old generation. A Memo is safe for concurrent use; its
// zero value is not usable: make one with NewMemo.
type Memo struct {
	seed1, seed2 maphash.Seed
	shards       [memoShards]memoShard
	limit        int // entries of one shard's young generation

	mu       sync.Mutex
	counters map[string]*memoCounter // by Counter.Name, for Wrap

	hits, misses atomic.Uint64
}

// DefaultMemoSize is about the number of counts a Memo keeps by default
// (about 6 MiB, both generations full).
const DefaultMemoSize = 1 << 16

// MinMemoText is the length below which Wrap's counters count a text
// without the memo: a short text costs less to count than to look up.
// Such texts are neither hits nor misses.
const MinMemoText = 64

const memoShards = 32

// memoKey is 24 bytes: the two hashes, then the length above the
// wrapped counter's number (below 1<<memoCounterBits).
type memoKey struct {
	h1, h2 uint64
	nc     uint64
}

const memoCounterBits = 16

type memoShard struct {
	mu       sync.Mutex
	young    map[memoKey]int32
	old      map[memoKey]int32
	_padding [40]byte // keeps the shards' locks on separate cache lines
}

// MemoStats are a memo's figures since it was made.
type MemoStats struct {
	Hits, Misses uint64
	Entries      int
}

// HitRate is Hits over Hits+Misses, 0 before any lookup.
func (s MemoStats) HitRate() float64 {
	if s.Hits+s.Misses == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.Hits+s.Misses)
}

// NewMemo makes a memo of about size counts (DefaultMemoSize when size
// is 0 or less).
func NewMemo(size int) *Memo {
	if size <= 0 {
		size = DefaultMemoSize
	}
	// A generation holds 7/8 of its share, which a map of a power of two
	// slots holds without growing to the next.
	per := max(size/memoShards, 1)
	return &Memo{seed1: maphash.MakeSeed(), seed2: maphash.MakeSeed(), limit: max(per-per/8, 1),
		counters: map[string]*memoCounter{}}
}

// Wrap returns a counter that counts like c, through the memo: texts of
// MinMemoText bytes or more are looked up, and counted by c only when
// missing. A nil memo returns c.
func (m *Memo) Wrap(c Counter) Counter {
	if m == nil {
		return c
	}
	name := c.Name()
	m.mu.Lock()
	defer m.mu.Unlock()
	if w, ok := m.counters[name]; ok && w.inner == c {
		return w
	}
	w := &memoCounter{memo: m, inner: c, id: uint32(len(m.counters))}
	if old, ok := m.counters[name]; ok {
		// Another counter of the same name: the same counts, the same
		// entries.
		w.id = old.id
	} else if w.id >= 1<<memoCounterBits {
		return c // more counters than any process makes: count without
	}
	m.counters[name] = w
	return w
}

// WrapUncounted is Wrap for a caller that counts ahead of queries (a
// server priming its caches in idle time): the same entries, but its
// lookups are neither hits nor misses in Stats, which stay the queries'
// own.
func (m *Memo) WrapUncounted(c Counter) Counter {
	w, ok := m.Wrap(c).(*memoCounter)
	if !ok {
		return c
	}
	q := *w
	q.uncounted = true
	return &q
}

// Stats returns the memo's figures.
func (m *Memo) Stats() MemoStats {
	if m == nil {
		return MemoStats{}
	}
	st := MemoStats{Hits: m.hits.Load(), Misses: m.misses.Load()}
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		st.Entries += len(sh.young) + len(sh.old)
		sh.mu.Unlock()
	}
	return st
}

func (m *Memo) get(k memoKey) (int, bool) {
	sh := &m.shards[k.h1%memoShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if n, ok := sh.young[k]; ok {
		return int(n), true
	}
	n, ok := sh.old[k]
	if ok {
		delete(sh.old, k)
		m.putLocked(sh, k, n)
	}
	return int(n), ok
}

func (m *Memo) put(k memoKey, n int) {
	if n > 1<<31-1 {
		return
	}
	sh := &m.shards[k.h1%memoShards]
	sh.mu.Lock()
	m.putLocked(sh, k, int32(n))
	sh.mu.Unlock()
}

func (m *Memo) putLocked(sh *memoShard, k memoKey, n int32) {
	if len(sh.young) >= m.limit {
		sh.old, sh.young = sh.young, nil
	}
	if sh.young == nil {
		sh.young = make(map[memoKey]int32, m.limit)
	}
	sh.young[k] = n
}

// memoCounter is a counter wrapped by a memo.
type memoCounter struct {
	memo      *Memo
	inner     Counter
	id        uint32
	uncounted bool // WrapUncounted's: lookups stay out of Stats
}

func (c *memoCounter) Name() string { return c.inner.Name() }

func (c *memoCounter) Count(s string) int {
	if len(s) < MinMemoText {
		return c.inner.Count(s)
	}
	m := c.memo
	k := memoKey{h1: maphash.String(m.seed1, s), h2: maphash.String(m.seed2, s), nc: uint64(len(s))<<memoCounterBits | uint64(c.id)}
	n, ok := m.get(k)
	switch {
	case c.uncounted:
	case ok:
		m.hits.Add(1)
	default:
		m.misses.Add(1)
	}
	if ok {
		return n
	}
	n = c.inner.Count(s)
	m.put(k, n)
	return n
}
