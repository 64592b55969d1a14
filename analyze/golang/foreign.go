package golang

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Cached results that survive moved declarations.
//
// Extraction keys an edge's target by the position of its declaring
// identifier, so the result of a package holds positions in the files of
// the packages it uses. If those positions were part of the result's key
// (through its imports' surfaces), a line added to a function body would
// invalidate the stored result of every package above the edited one:
// on hugo, editing five files re-extracted a hundred packages.
//
// Instead, a package's surface covers its shape (typecache.Encode: its
// declarations without lines and columns), and a stored result carries,
// for each key it holds outside its own files, the identity of the
// symbol there: file, kind, container and name. A load that reuses the
// result maps each such key to the key the symbol has now, before the
// results are merged. A result that refers to a symbol without a unique
// identity in its file (two declarations alike, say) is not stored,
// and neither is one whose problems quote positions; either is extracted
// again when next needed.

// symIdent is a symbol's identity within its file.
func symIdent(r *extract.SymRec) string {
	return r.File + "\x00" + strconv.Itoa(int(r.Sym.Kind)) + "\x00" + r.Sym.Container + "\x00" + r.Sym.Name
}

// identities maps every symbol of the results whose identity is unique to
// that identity, and back. A symbol whose identity is not unique maps to
// "?" in byKey; a key that is no symbol's is not in it.
func identities(results []*extract.Result) (byKey map[extract.Key]string, byIdent map[string]extract.Key) {
	byKey = make(map[extract.Key]string)
	byIdent = make(map[string]extract.Key)
	dup := map[string]bool{}
	for _, r := range results {
		for i := range r.Syms {
			s := &r.Syms[i]
			byKey[s.Key] = "?"
			id := symIdent(s)
			if old, ok := byIdent[id]; ok && old != s.Key || dup[id] {
				dup[id] = true
				delete(byIdent, id)
				continue
			}
			byIdent[id] = s.Key
		}
	}
	for id, k := range byIdent {
		byKey[k] = id
	}
	return byKey, byIdent
}

// ownFiles are the files a result was extracted from.
func ownFiles(r *extract.Result) map[string]bool {
	own := make(map[string]bool, len(r.Files))
	for _, f := range r.Files {
		own[f.File.Path] = true
	}
	return own
}

// foreignTable gives the identity of every key the result holds outside
// its own files, or false when one is a symbol without a unique identity.
// A key that is no symbol's (a field of an unnamed struct type, which
// extraction does not make a symbol) gets the empty identity: merging
// drops edges to it, and so does reuse.
func foreignTable(r *extract.Result, byKey map[extract.Key]string) (map[extract.Key]string, bool) {
	own := ownFiles(r)
	table := map[extract.Key]string{}
	for _, e := range r.Edges {
		if own[e.To.Path] {
			continue
		}
		id := byKey[e.To]
		if id == "?" {
			return nil, false
		}
		table[e.To] = id
	}
	return table, true
}

// storable reports whether a result may be stored at all: its problems
// must not quote positions, which may be in other packages' files.
func storable(r *extract.Result) bool {
	for _, p := range r.Problems {
		if strings.Contains(p.Msg, ".go:") {
			return false
		}
	}
	return true
}

// remapForeign moves the edges of results read from the cache to where
// their targets are now, and drops those whose target no longer exists.
func remapForeign(results []*extract.Result, byIdent map[string]extract.Key) {
	for _, r := range results {
		if r.Foreign == nil {
			continue
		}
		kept := r.Edges[:0]
		for _, e := range r.Edges {
			if id, ok := r.Foreign[e.To]; ok {
				k, ok := byIdent[id]
				if !ok || id == "" {
					continue
				}
				e.To = k
			}
			kept = append(kept, e)
		}
		r.Edges = kept
		r.Foreign = nil
	}
}

// encodeResultRecord stores an encoded result with its foreign table.
func encodeResultRecord(result []byte, table map[extract.Key]string) []byte {
	keys := make([]extract.Key, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	w := resultWriter{wire.NewWriter(len(result) + 16 + 48*len(keys))}
	w.Blob(result)
	w.Uint(uint64(len(keys)))
	for _, k := range keys {
		w.key(k)
		w.String(table[k])
	}
	return w.Bytes()
}

// decodeResultRecord reads what encodeResultRecord wrote.
func decodeResultRecord(data []byte) (*extract.Result, error) {
	r := resultReader{wire.NewReader(data), wire.Interner{}}
	blob := r.Blob()
	n := r.Len(4)
	table := make(map[extract.Key]string, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		k := r.key()
		table[k] = r.str()
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	res, err := decodeResult(blob)
	if err != nil {
		return nil, err
	}
	res.Foreign = table
	return res, nil
}

func keyLess(a, b extract.Key) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}
