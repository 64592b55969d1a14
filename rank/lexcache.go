package rank

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Reusing the lexical index across runs.
//
// Building the index reads and tokenises every file: on a repository of
// 200k lines that is most of what a run costs once its facts come from
// the on-disk index. A Source that also implements IndexStore lets
// BuildIndex skip the work: the whole index, when one was stored for the
// same facts, is decoded instead of built; otherwise each file's term
// statistics are looked up by the file's content hash, path and symbols
// (the only inputs they depend on), so after an edit only the edited
// files are read and tokenised again, and the merge is redone.

// IndexStore keeps lexical index data between runs. Keys are opaque; the
// whole index is stored for the Source's current facts. The per-file
// methods are called from several goroutines at once.
//
// StoreLexicalIndex is given the encoding rather than the bytes: encoding
// a large index takes a while, and a store that writes on a goroutine of
// its own can encode there too, while the caller goes on with the index
// (which never changes once built).
type IndexStore interface {
	LoadLexicalIndex() ([]byte, bool)
	StoreLexicalIndex(encode func() []byte)
	LoadFileTerms(key [32]byte) ([]byte, bool)
	StoreFileTerms(key [32]byte, data []byte)
}

// lexCodecVersion changes whenever tokenisation, weights or the encoding
// below change, so that stored data of another version is never used.
const lexCodecVersion = 3

// fileTermsKey is what a file's statistics depend on: its path, its
// content and the spans, kinds and names of its symbols.
func fileTermsKey(facts *analyze.Facts, fid analyze.FileID, syms []analyze.SymID) [32]byte {
	f := &facts.Files[fid]
	h := sha256.New()
	var tmp [binary.MaxVarintLen64]byte
	num := func(v int) { h.Write(tmp[:binary.PutVarint(tmp[:], int64(v))]) }
	str := func(s string) { num(len(s)); h.Write([]byte(s)) }
	num(lexCodecVersion)
	str(f.Path)
	str(f.Hash)
	num(len(syms))
	for _, s := range syms {
		sym := &facts.Symbols[s]
		num(int(sym.Kind))
		str(sym.Name)
		str(sym.Container)
		num(sym.Start)
		num(sym.End)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// cachedFile returns a file's statistics from the store, or computes them
// and sets them to be stored once finished. Files without a content hash
// are always computed.
// With a memo (termsmemo.go), statistics decoded or computed are kept
// decoded for the next build, and taken from there first.
func (tk *tokenizer) cachedFile(facts *analyze.Facts, fid analyze.FileID, src Source, st IndexStore, memo *TermsMemo) *fileTokens {
	if facts.Files[fid].Hash == "" {
		return tk.file(facts, fid, src)
	}
	syms := facts.SymbolsIn(fid)
	key := fileTermsKey(facts, fid, syms)
	if memo != nil {
		if ft := memo.get(key, syms); ft != nil {
			return ft
		}
	}
	if data, ok := st.LoadFileTerms(key); ok {
		if ft, err := decodeFileTokens(data, syms, tk.names); err == nil {
			if memo != nil {
				memo.put(key, ft, syms)
			}
			return ft
		}
	}
	ft := tk.file(facts, fid, src)
	ft.store = func(ft *fileTokens) {
		st.StoreFileTerms(key, encodeFileTokens(ft, syms))
		if memo != nil {
			memo.put(key, ft, syms)
		}
	}
	return ft
}

// encodeFileTokens writes a file's statistics with symbols numbered by
// their position in the file (syms), so they survive renumbering.
func encodeFileTokens(ft *fileTokens, syms []analyze.SymID) []byte {
	local := make(map[analyze.SymID]int, len(syms))
	for i, s := range syms {
		local[s] = i
	}
	o := ft.ord
	w := wire.NewWriter(256)
	terms := func(tws []termWeight) {
		w.Uint(uint64(len(tws)))
		for _, tw := range tws {
			w.String(tw.term)
			w.Float32(tw.w)
		}
	}
	w.Float32(ft.flen)
	terms(o.path)
	terms(o.file)
	w.Float32(ft.plen)
	terms(o.plain)
	w.Uint(uint64(len(o.syms)))
	for _, st := range o.syms {
		w.Uint(uint64(local[st.sym]))
		w.Float32(st.slen)
		terms(st.terms)
	}
	return w.Bytes()
}

func decodeFileTokens(data []byte, syms []analyze.SymID, in wire.Interner) (*fileTokens, error) {
	r := wire.NewReader(data)
	ft := &fileTokens{ord: &orderedTokens{}}
	o := ft.ord
	ft.flen = r.Float32()
	n := r.Len(5)
	o.path = make([]termWeight, 0, n)
	for i := 0; i < n; i++ {
		t := in.String(r)
		o.path = append(o.path, termWeight{t, r.Float32(), -1})
	}
	n = r.Len(5)
	o.file = make([]termWeight, 0, n)
	for i := 0; i < n; i++ {
		t := in.String(r)
		o.file = append(o.file, termWeight{t, r.Float32(), -1})
	}
	ft.plen = r.Float32()
	n = r.Len(5)
	o.plain = make([]termWeight, 0, n)
	for i := 0; i < n; i++ {
		t := in.String(r)
		o.plain = append(o.plain, termWeight{t, r.Float32(), -1})
	}
	n = r.Len(6)
	prev := -1
	for i := 0; i < n && r.Err() == nil; i++ {
		li := r.Uint()
		if li >= uint64(len(syms)) || int(li) <= prev {
			return nil, fmt.Errorf("lexical record: symbol %d of %d out of order", li, len(syms))
		}
		prev = int(li)
		st := symTerms{sym: syms[li], slen: r.Float32()}
		nt := r.Len(5)
		st.terms = make([]termWeight, 0, nt)
		for j := 0; j < nt; j++ {
			t := in.String(r)
			st.terms = append(st.terms, termWeight{t, r.Float32(), -1})
		}
		o.syms = append(o.syms, st)
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	return ft, nil
}

// encodeIndex writes a whole index.
func encodeIndex(ix *Index) []byte {
	terms := make([]string, len(ix.terms))
	for t, id := range ix.terms {
		terms[id] = t
	}
	w := wire.NewWriter(1 << 16)
	w.Uint(lexCodecVersion)
	w.Uint(uint64(len(ix.facts.Files)))
	w.Uint(uint64(len(ix.facts.Symbols)))
	w.Strings(terms)
	for _, posts := range [4][][]posting{ix.symPost, ix.filePost, ix.pathPost, ix.plainPost} {
		for _, ps := range posts {
			w.Uint(uint64(len(ps)))
			prev := int32(0)
			for _, p := range ps {
				w.Int(int64(p.doc - prev)) // documents ascend within a list
				prev = p.doc
				w.Float32(p.tf)
			}
		}
	}
	for _, l := range ix.symLen {
		w.Float32(l)
	}
	for _, l := range ix.fileLen {
		w.Float32(l)
	}
	for _, l := range ix.plainLen {
		w.Float32(l)
	}
	w.Uint(uint64(ix.nPlainDocs))
	w.Uint(math.Float64bits(ix.avgPlainLen))
	w.Uint(uint64(ix.nSymDocs))
	w.Uint(uint64(ix.nFileDocs))
	// The averages as computed, bit for bit: summing in another order
	// could change the last bits and with them a tie in the ranking.
	w.Uint(math.Float64bits(ix.avgSymLen))
	w.Uint(math.Float64bits(ix.avgFileLen))
	return w.Bytes()
}

// decodeIndex reads an index written by encodeIndex for the same facts.
func decodeIndex(data []byte, facts *analyze.Facts) (*Index, error) {
	r := wire.NewReader(data)
	if v := r.Uint(); v != lexCodecVersion {
		return nil, fmt.Errorf("lexical index of version %d", v)
	}
	if nf, ns := r.Uint(), r.Uint(); nf != uint64(len(facts.Files)) || ns != uint64(len(facts.Symbols)) {
		return nil, fmt.Errorf("lexical index of other facts")
	}
	terms := r.Strings()
	ix := &Index{facts: facts, terms: make(map[string]int32, len(terms))}
	for i, t := range terms {
		ix.terms[t] = int32(i)
	}
	limits := [4]int{len(facts.Symbols), len(facts.Files), len(facts.Files), len(facts.Files)}
	var lists [4][][]posting
	for k := range lists {
		lists[k] = make([][]posting, len(terms))
		for i := range lists[k] {
			n := r.Len(5)
			if n == 0 {
				continue
			}
			ps := make([]posting, n)
			doc := int64(0)
			for j := range ps {
				doc += r.Int()
				if doc < 0 || doc >= int64(limits[k]) {
					return nil, fmt.Errorf("lexical index: document %d out of range", doc)
				}
				ps[j] = posting{doc: int32(doc), tf: r.Float32()}
			}
			lists[k][i] = ps
		}
	}
	ix.symPost, ix.filePost, ix.pathPost, ix.plainPost = lists[0], lists[1], lists[2], lists[3]
	ix.symLen = make([]float32, len(facts.Symbols))
	for i := range ix.symLen {
		ix.symLen[i] = r.Float32()
	}
	ix.fileLen = make([]float32, len(facts.Files))
	for i := range ix.fileLen {
		ix.fileLen[i] = r.Float32()
	}
	ix.plainLen = make([]float32, len(facts.Files))
	for i := range ix.plainLen {
		ix.plainLen[i] = r.Float32()
	}
	ix.nPlainDocs, ix.avgPlainLen = int(r.Uint()), math.Float64frombits(r.Uint())
	ix.nSymDocs, ix.nFileDocs = int(r.Uint()), int(r.Uint())
	ix.avgSymLen, ix.avgFileLen = math.Float64frombits(r.Uint()), math.Float64frombits(r.Uint())
	if err := r.Done(); err != nil {
		return nil, err
	}
	return ix, nil
}

// orderedTokens is a file's contribution in the order the index merges it
// (and stores it): terms sorted, symbols ascending.
type orderedTokens struct {
	file  []termWeight
	path  []termWeight
	plain []termWeight
	syms  []symTerms
}

type termWeight struct {
	term string
	w    float32
	id   int32 // the term's id in its fileTokens' tokenizer; -1 when decoded
}

type symTerms struct {
	sym   analyze.SymID
	slen  float32
	terms []termWeight
}
