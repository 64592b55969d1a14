package golang

import (
	"slices"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
	"github.com/ctxexpand/ctxexpand/index"
)

// Decoded results kept from one load to the next.
//
// A resident session loads the repository again after every edit, and
// every package whose result is still valid is read from its record
// again: on hugo, decoding them was about a fifth of an edit's CPU. A
// record's key hashes everything the record was made from, so the result
// under a key never changes, and a ResultMemo keeps the decoded results
// of a load for the next one. A load changes only two things in a result
// it was given (remapForeign: the edges to other packages' symbols, and
// the table that resolves them), so each load gets its own copy of those
// and shares the rest, which no load writes.

// ResultMemo keeps the package results decoded by the loads that share
// it, and go list's answers (typecache.ListingMemo). Results not used by
// a load are dropped at its end. The zero value
// is not usable; a nil *ResultMemo decodes every record. It is safe for
// concurrent use, and the loads sharing it may overlap.
type ResultMemo struct {
	mu   sync.Mutex
	m    map[index.Key]*pkgResult
	used map[index.Key]bool
	hits int // results reused, since the memo was made (tests)

	listings typecache.ListingMemo

	// The skeletons of the units' graphs, by the first root of the
	// listing they were made from: a listing shared through listings
	// gives the same packages, and so the same skeleton. Those no load
	// used since the last sweep are dropped with the results.
	skelMu   sync.Mutex
	skels    map[*packages.Package]*skeleton
	skelUsed map[*packages.Package]bool
	skelHits int // skeletons reused, since the memo was made (tests)
}

// skeleton returns the skeleton kept for the listing roots, or nil.
func (rm *ResultMemo) skeleton(roots []*packages.Package) *skeleton {
	if rm == nil || len(roots) == 0 {
		return nil
	}
	rm.skelMu.Lock()
	defer rm.skelMu.Unlock()
	sk := rm.skels[roots[0]]
	if sk != nil {
		rm.skelUsed[roots[0]] = true
		rm.skelHits++
	}
	return sk
}

// keepSkeleton keeps the skeleton made from the listing roots.
func (rm *ResultMemo) keepSkeleton(roots []*packages.Package, sk *skeleton) {
	if rm == nil || len(roots) == 0 {
		return
	}
	rm.skelMu.Lock()
	defer rm.skelMu.Unlock()
	if rm.skels == nil {
		rm.skels, rm.skelUsed = map[*packages.Package]*skeleton{}, map[*packages.Package]bool{}
	}
	rm.skels[roots[0]], rm.skelUsed[roots[0]] = sk, true
}

// listingMemo is where the loads sharing rm keep go list's answers
// decoded, or nil.
func (rm *ResultMemo) listingMemo() *typecache.ListingMemo {
	if rm == nil {
		return nil
	}
	return &rm.listings
}

// NewResultMemo returns an empty memo.
func NewResultMemo() *ResultMemo {
	return &ResultMemo{m: map[index.Key]*pkgResult{}, used: map[index.Key]bool{}}
}

// decode returns the result recorded under key, as decodeResultRecord
// reads data, reusing the one decoded earlier under the same key.
func (rm *ResultMemo) decode(key index.Key, data []byte) (*pkgResult, error) {
	if rm == nil {
		return decodeResultRecord(data)
	}
	rm.mu.Lock()
	res, ok := rm.m[key]
	if ok {
		rm.used[key] = true
		rm.hits++
	}
	rm.mu.Unlock()
	if !ok {
		var err error
		if res, err = decodeResultRecord(data); err != nil {
			return nil, err
		}
		rm.mu.Lock()
		rm.m[key], rm.used[key] = res, true
		rm.mu.Unlock()
	}
	return res.forLoad(), nil
}

// forLoad is a copy of a kept result that a load may change as
// remapForeign does.
func (r *pkgResult) forLoad() *pkgResult {
	c := *r
	c.edges = slices.Clone(r.edges)
	return &c
}

// sweep drops the results no load used since the last sweep.
func (rm *ResultMemo) sweep() {
	if rm == nil {
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	for k := range rm.m {
		if !rm.used[k] {
			delete(rm.m, k)
		}
	}
	clear(rm.used)
	rm.skelMu.Lock()
	for p := range rm.skels {
		if !rm.skelUsed[p] {
			delete(rm.skels, p)
		}
	}
	clear(rm.skelUsed)
	rm.skelMu.Unlock()
}
