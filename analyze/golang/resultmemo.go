package golang

import (
	"bytes"
	"maps"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
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
	m    map[index.Key]*extract.Result
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

	// Uses records decoded, and the keys of the objects they name
	// (uses.go): on hugo, decoding every package's uses and hashing the
	// objects named again at every load was a fifth of an edit's CPU.
	usesMu    sync.Mutex
	uses      map[string]keptUses     // by package ID
	objKeys   map[objKeyOf]keptObjKey // by user and package used
	usesUsed  map[string]bool
	objKeysIn map[objKeyOf]bool
}

// keptUses is a uses record as read, and decoded.
type keptUses struct {
	raw  []byte
	uses *typecache.Uses
}

// objKeyOf names the objects one package (user, its ID) uses of another
// (path).
type objKeyOf struct{ user, path string }

// keptObjKey is the ObjectsKey of those objects for the uses it was
// computed from and the other package's export data (by hash).
type keptObjKey struct {
	uses *typecache.Uses
	data string
	key  index.Key
}

// decodeUses returns the uses a record holds, reusing the ones decoded
// from the same bytes for the package before.
func (rm *ResultMemo) decodeUses(id string, raw []byte) (*typecache.Uses, error) {
	if rm != nil {
		rm.usesMu.Lock()
		k, ok := rm.uses[id]
		if ok && bytes.Equal(k.raw, raw) {
			rm.usesUsed[id] = true
			rm.usesMu.Unlock()
			return k.uses, nil
		}
		rm.usesMu.Unlock()
	}
	u, err := typecache.DecodeUses(raw)
	if err != nil {
		return nil, err
	}
	if rm != nil {
		rm.usesMu.Lock()
		if rm.uses == nil {
			rm.uses, rm.usesUsed = map[string]keptUses{}, map[string]bool{}
		}
		rm.uses[id], rm.usesUsed[id] = keptUses{raw: raw, uses: &u}, true
		rm.usesMu.Unlock()
	}
	return &u, nil
}

// objectsKey returns typecache.ObjectsKey of the names u holds for path,
// in x's export data, reusing the one computed for the same uses and
// data before.
func (rm *ResultMemo) objectsKey(user string, u *typecache.Uses, path string, x *node) index.Key {
	of := objKeyOf{user, path}
	data := string(x.exp.Hash)
	if rm != nil {
		rm.usesMu.Lock()
		k, ok := rm.objKeys[of]
		if ok && k.uses == u && k.data == data {
			rm.objKeysIn[of] = true
			rm.usesMu.Unlock()
			return k.key
		}
		rm.usesMu.Unlock()
	}
	key := typecache.ObjectsKey(x.pkg.Name, x.exp, u.Names[path])
	if rm != nil {
		rm.usesMu.Lock()
		if rm.objKeys == nil {
			rm.objKeys, rm.objKeysIn = map[objKeyOf]keptObjKey{}, map[objKeyOf]bool{}
		}
		rm.objKeys[of], rm.objKeysIn[of] = keptObjKey{uses: u, data: data, key: key}, true
		rm.usesMu.Unlock()
	}
	return key
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
	return &ResultMemo{m: map[index.Key]*extract.Result{}, used: map[index.Key]bool{}}
}

// decode returns the result recorded under key, as decodeResultRecord
// reads data, reusing the one decoded earlier under the same key.
func (rm *ResultMemo) decode(key index.Key, data []byte) (*extract.Result, error) {
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
	return res.ForLoad(), nil
}

// sweep drops the results no load used since the last sweep.
func (rm *ResultMemo) sweep() {
	if rm == nil {
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	keepUsed(rm.m, rm.used)
	rm.skelMu.Lock()
	keepUsed(rm.skels, rm.skelUsed)
	rm.skelMu.Unlock()
	rm.usesMu.Lock()
	keepUsed(rm.uses, rm.usesUsed)
	keepUsed(rm.objKeys, rm.objKeysIn)
	rm.usesMu.Unlock()
}

// keepUsed drops from m the entries used does not mark, then clears used
// for the next round.
func keepUsed[K comparable, V any](m map[K]V, used map[K]bool) {
	maps.DeleteFunc(m, func(k K, _ V) bool { return !used[k] })
	clear(used)
}
