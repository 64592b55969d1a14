package tokenize

import (
	"container/heap"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
	"github.com/tiktoken-go/tokenizer/codec"
)

// native counts tokens of an exact encoding without tiktoken-go's
// regular-expression engine: the pieces come from pretoken.go, and each
// piece not in the vocabulary is merged byte pair by byte pair, the pair
// of lowest rank first (leftmost among equals), as tiktoken does. The
// ranks are the codec's own, read once through Decode. Counts equal the
// codec's on any input (FuzzNativeCount); a count costs a tenth of the
// codec's on source code or less (BenchmarkNativeCount).
type native struct {
	ranks map[string]int32
	next  func(s string, i int) int
	// merged remembers the counts of pieces that had to be merged:
	// identifiers and escapes recur, and a lookup costs less than the
	// merge's lookups of every pair.
	merged *cache
	// hot holds the counts of short pieces (see shortCount).
	hot *[1 << hotBits]atomic.Uint64
}

// Short pieces, of hotMax bytes or fewer, are most of the pieces of source
// code (" return", "err", "\t\t", " :="). Their counts are kept in hot, a
// direct-mapped table small enough to stay in the processor's cache, where
// the vocabulary's map of 200,000 strings costs a cache miss or two per
// lookup: that map was two fifths of a native count (pprof on hugo's
// resident queries). An entry packs the piece's bytes, its length and its
// count in one word, so it is read and written without a lock; two
// pieces that share a slot only replace each other.
const (
	hotBits = 14
	hotMax  = 7
	// hotKeyBits are the bits of an entry that hold the piece and its
	// length; the count is above them.
	hotKeyBits = 59
)

// shortCount returns the count of a piece of 1 to hotMax bytes.
func (n *native) shortCount(p string) int {
	var k uint64
	for j := 0; j < len(p); j++ {
		k |= uint64(p[j]) << (8 * j)
	}
	k |= uint64(len(p)) << 56
	slot := &n.hot[(k*0x9E3779B97F4A7C15)>>(64-hotBits)]
	if v := slot.Load(); v&(1<<hotKeyBits-1) == k {
		return int(v >> hotKeyBits)
	}
	c := n.pieceCount(p)
	slot.Store(k | uint64(c)<<hotKeyBits)
	return c
}

// pieceCount returns the count of one piece: 1 if it is in the
// vocabulary, else what the merge makes of it, remembered in merged.
func (n *native) pieceCount(piece string) int {
	if _, ok := n.ranks[piece]; ok {
		return 1
	}
	k := n.merged.key(piece)
	m, ok := n.merged.get(k)
	if !ok {
		m = n.merge(piece)
		n.merged.put(k, m)
	}
	return m
}

var (
	nativeMu    sync.Mutex
	nativeCache = map[tokenizer.Encoding]*native{}
	// ready holds the built counters for lock-free reads.
	ready atomic.Pointer[map[tokenizer.Encoding]*native]
)

// readyNative is the native counter of enc if its tables are built.
func readyNative(enc tokenizer.Encoding) *native {
	if m := ready.Load(); m != nil {
		return (*m)[enc]
	}
	return nil
}

// Preload builds the native tables of the exact counters named (o200k,
// cl100k, claude; others are ignored) now, so that counting never waits
// for them; a long-running process calls it at start. Counters build them
// by themselves once they have counted enough.
func Preload(names ...string) {
	for _, name := range names {
		key := strings.ToLower(strings.TrimSpace(name))
		for _, p := range profiles {
			for _, n := range p.names {
				if n == key && p.base != "" {
					nativeFor(tokenizer.Encoding(p.base))
				}
			}
		}
	}
}

// nativeFor returns the native counter of enc, building it on first use.
func nativeFor(enc tokenizer.Encoding) (*native, error) {
	nativeMu.Lock()
	defer nativeMu.Unlock()
	if n, ok := nativeCache[enc]; ok {
		return n, nil
	}
	var c *codec.Codec
	n := &native{merged: newCache(1 << 16), hot: new([1 << hotBits]atomic.Uint64)}
	switch enc {
	case tokenizer.O200kBase:
		c, n.next = codec.NewO200kBase(), o200kNext
	case tokenizer.Cl100kBase:
		c, n.next = codec.NewCl100kBase(), cl100kNext
	default:
		return nil, fmt.Errorf("no native counter for %s", enc)
	}
	// The vocabulary, rank by token: every ID the codec decodes. Special
	// tokens are never pieces and do not matter.
	n.ranks = make(map[string]int32, 200_100)
	for id, misses := 0, 0; misses < 4096; id++ {
		tok, err := c.Decode([]uint{uint(id)})
		if err != nil || tok == "" {
			misses++
			continue
		}
		misses = 0
		if _, dup := n.ranks[tok]; !dup {
			n.ranks[tok] = int32(id)
		}
	}
	if len(n.ranks) < 50_000 {
		return nil, fmt.Errorf("%s: only %d tokens decoded", enc, len(n.ranks))
	}
	nativeCache[enc] = n
	m := make(map[tokenizer.Encoding]*native, len(nativeCache))
	for k, v := range nativeCache {
		m[k] = v
	}
	ready.Store(&m)
	return n, nil
}

// count counts s as the codec does with ErrorModeReplace.
func (n *native) count(s string) int {
	s = replaceInvalid(s)
	total := 0
	for i := 0; i < len(s); {
		e := n.next(s, i)
		if e < 0 { // matched by nothing, skipped as the codec's search does
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			continue
		}
		if e <= i { // cannot happen; never loop
			e = i + 1
		}
		if piece := s[i:e]; len(piece) <= hotMax {
			total += n.shortCount(piece)
		} else {
			total += n.pieceCount(piece)
		}
		i = e
	}
	return total
}

// merge returns how many tokens byte-pair encoding makes of piece.
func (n *native) merge(piece string) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if len(piece) < 64 {
		return n.mergeScan(piece)
	}
	return n.mergeHeap(piece)
}

const noRank = int32(1<<31 - 1)

// mergeScan is the quadratic merge for short pieces, without allocating.
func (n *native) mergeScan(piece string) int {
	var buf [65]int
	bounds := buf[:len(piece)+1]
	for i := range bounds {
		bounds[i] = i
	}
	var rbuf [64]int32
	ranks := rbuf[:len(piece)-1]
	rank := func(i int) int32 {
		if i+2 >= len(bounds) {
			return noRank
		}
		if r, ok := n.ranks[piece[bounds[i]:bounds[i+2]]]; ok {
			return r
		}
		return noRank
	}
	for i := range ranks {
		ranks[i] = rank(i)
	}
	for len(bounds) > 2 {
		best, at := noRank, -1
		for i, r := range ranks {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		// Merge parts at and at+1: drop boundary at+1.
		bounds = append(bounds[:at+1], bounds[at+2:]...)
		ranks = append(ranks[:at], ranks[at+1:]...)
		if at < len(ranks) {
			ranks[at] = rank(at)
		}
		if at > 0 {
			ranks[at-1] = rank(at - 1)
		}
	}
	return len(bounds) - 1
}

// mergeHeap is the same merge in O(n log n) for long pieces: parts in a
// linked list, candidate pairs in a heap ordered by rank then position,
// stale candidates skipped.
func (n *native) mergeHeap(piece string) int {
	size := len(piece)
	next := make([]int32, size+1)
	prev := make([]int32, size+1)
	rankAt := make([]int32, size+1) // rank of the pair starting at this boundary
	for i := range next {
		next[i], prev[i], rankAt[i] = int32(i+1), int32(i-1), noRank
	}
	next[size] = -1
	pairRank := func(i int32) int32 {
		j := next[i]
		if j < 0 {
			return noRank
		}
		k := next[j]
		if k < 0 {
			return noRank
		}
		if r, ok := n.ranks[piece[i:k]]; ok {
			return r
		}
		return noRank
	}
	h := make(pairHeap, 0, size)
	for i := int32(0); i+2 <= int32(size); i++ {
		if r := pairRank(i); r != noRank {
			rankAt[i] = r
			h = append(h, pair{r, i})
		}
	}
	heap.Init(&h)
	parts := size
	for h.Len() > 0 {
		top := heap.Pop(&h).(pair)
		i := top.at
		if rankAt[i] != top.rank || next[i] < 0 {
			continue // stale
		}
		j := next[i]
		// Merge the parts at i and j: drop boundary j.
		k := next[j]
		next[i] = k
		if k >= 0 {
			prev[k] = i
		}
		next[j], rankAt[j] = -1, noRank
		parts--
		if r := pairRank(i); r != noRank {
			rankAt[i] = r
			heap.Push(&h, pair{r, i})
		} else {
			rankAt[i] = noRank
		}
		if p := prev[i]; p >= 0 {
			if r := pairRank(p); r != noRank {
				rankAt[p] = r
				heap.Push(&h, pair{r, p})
			} else {
				rankAt[p] = noRank
			}
		}
	}
	return parts
}

type pair struct {
	rank int32
	at   int32
}

type pairHeap []pair

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].at < h[b].at
}
func (h pairHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *pairHeap) Push(x any)   { *h = append(*h, x.(pair)) }
func (h *pairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// replaceInvalid replaces each maximal ill-formed subsequence of s with
// U+FFFD (the Unicode standard's "maximal subpart" practice, which the
// codec's ErrorModeReplace follows); valid text is returned as it is.
func replaceInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += maximalSubpart(s[i:])
	}
	return b.String()
}

// maximalSubpart is the length of the ill-formed prefix of s that one
// U+FFFD replaces: a lead byte followed by as many valid continuation
// bytes as the sequence it starts may have, stopping at the first that
// cannot continue it; one byte for anything else.
func maximalSubpart(s string) int {
	c := s[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	i := 1
	for ; i <= need && i < len(s); i++ {
		b := s[i]
		if i == 1 {
			if b < lo || b > hi {
				break
			}
		} else if b < 0x80 || b > 0xBF {
			break
		}
	}
	return i
}
