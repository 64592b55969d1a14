package rank

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index/wire"
	"github.com/ctxexpand/ctxexpand/query"
)

// memStore is an IndexStore in memory that counts what it was asked.
type memStore struct {
	Source
	mu        sync.Mutex
	whole     []byte
	files     map[[32]byte][]byte
	fileHits  int
	fileMiss  int
	wholeHits int
}

func (m *memStore) LoadLexicalIndex() ([]byte, bool) {
	if m.whole == nil {
		return nil, false
	}
	m.wholeHits++
	return m.whole, true
}
func (m *memStore) StoreLexicalIndex(encode func() []byte) { m.whole = encode() }
func (m *memStore) LoadFileTerms(k [32]byte) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.files[k]
	if ok {
		m.fileHits++
	} else {
		m.fileMiss++
	}
	return d, ok
}
func (m *memStore) StoreFileTerms(k [32]byte, d []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[k] = d
}

// scores renders every query's lexical evidence exactly.
func scores(ix *Index) string {
	var out string
	for _, q := range []string{"find user by email", "session token expires", "issue sign", "service"} {
		lx := ix.Score(query.Analyze(q).Terms)
		out += fmt.Sprintf("%s: %v %v %v %v %v\n", q, lx.Sym, lx.File, lx.Path, lx.Matched, ix.ScorePlain(q))
	}
	return out
}

func TestIndexStore(t *testing.T) {
	ctx := context.Background()
	facts, src := sample(t)
	for i := range facts.Files {
		facts.Files[i].Hash = fmt.Sprintf("hash-%d", i)
	}
	plain, err := BuildIndex(ctx, facts, src)
	if err != nil {
		t.Fatal(err)
	}
	want := scores(plain)

	st := &memStore{Source: src, files: map[[32]byte][]byte{}}
	first, err := BuildIndex(ctx, facts, st)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, scores(first)); diff != "" {
		t.Errorf("built with a store (-want +got):\n%s", diff)
	}
	if st.fileMiss != len(facts.Files) || st.whole == nil {
		t.Fatalf("first build: %d misses, whole index stored %v", st.fileMiss, st.whole != nil)
	}

	// The whole index, decoded.
	second, err := BuildIndex(ctx, facts, st)
	if err != nil {
		t.Fatal(err)
	}
	if st.wholeHits != 1 {
		t.Errorf("whole index not reused")
	}
	if diff := cmp.Diff(want, scores(second)); diff != "" {
		t.Errorf("decoded index (-want +got):\n%s", diff)
	}

	// Per-file statistics, merged again (the whole index is for other facts).
	st.whole = nil
	third, err := BuildIndex(ctx, facts, st)
	if err != nil {
		t.Fatal(err)
	}
	if st.fileHits != len(facts.Files) {
		t.Errorf("file hits = %d, want %d", st.fileHits, len(facts.Files))
	}
	if diff := cmp.Diff(want, scores(third)); diff != "" {
		t.Errorf("merged from stored statistics (-want +got):\n%s", diff)
	}

	// A file whose content changed misses; the others hit.
	facts.Files[0].Hash = "edited"
	st.whole, st.fileHits, st.fileMiss = nil, 0, 0
	if _, err := BuildIndex(ctx, facts, st); err != nil {
		t.Fatal(err)
	}
	if st.fileMiss != 1 || st.fileHits != len(facts.Files)-1 {
		t.Errorf("after an edit: %d hits, %d misses", st.fileHits, st.fileMiss)
	}
}

func TestDecodeIndexRejectsOtherFacts(t *testing.T) {
	facts, src := sample(t)
	ix, err := BuildIndex(context.Background(), facts, src)
	if err != nil {
		t.Fatal(err)
	}
	data := encodeIndex(ix)
	other := *facts
	other.Files = other.Files[:1]
	if _, err := decodeIndex(data, &other); err == nil {
		t.Error("an index of other facts was accepted")
	}
	for n := 0; n < len(data); n += 7 {
		if _, err := decodeIndex(data[:n], facts); err == nil {
			t.Fatalf("a truncated index (%d of %d bytes) was accepted", n, len(data))
		}
	}
}

// FuzzDecodeFileTokens checks that damaged records never panic.
func FuzzDecodeFileTokens(f *testing.F) {
	ft := &fileTokens{flen: 5, ord: &orderedTokens{
		file: []termWeight{{"find", 2, -1}}, path: []termWeight{{"service", 2, -1}},
		syms: []symTerms{{sym: 0, slen: 3, terms: []termWeight{{"find", 3, -1}}}},
	}}
	f.Add(encodeFileTokens(ft, []analyze.SymID{0}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeFileTokens(data, []analyze.SymID{0, 1}, wire.Interner{})
	})
}
