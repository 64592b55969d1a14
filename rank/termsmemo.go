package rank

import (
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Keeping the files' statistics decoded between builds.
//
// A process that rebuilds the index after every edit (a resident server)
// finds nearly every file's statistics in its IndexStore, but decoding
// them all again costs more than the edit itself: on hugo, about a sixth
// of the CPU of an update. A TermsMemo keeps them decoded, under the same
// keys as the store (fileTermsKey), with symbols numbered within their
// file so that they survive the renumbering an edit elsewhere causes, and
// terms numbered by the memo's atoms (a number per distinct term the memo
// has seen). A build takes a memoised file's term lists as they are; the
// merge maps atoms to its own term ids in a table of its own (merge.go)
// and writes nothing into them. Builds that share a memo still run one
// after another, as a resident server's generations do. Each build gets
// its own copy of the symbol list.
//
// A memo holds the entries the last build used, and those this build has
// used so far: what the tree no longer holds is dropped a build later.

// TermsMemo keeps decoded per-file term statistics between index builds
// in one process. The zero value is not usable; see NewTermsMemo. Builds
// that share a memo must run one after another.
type TermsMemo struct {
	mu   sync.Mutex
	last map[[32]byte]*fileTokens // used by the last finished build
	cur  map[[32]byte]*fileTokens // used by the build under way
	hits int
	// atoms numbers every term the memo has seen: a memoised term's id
	// is its atom, so that the merge finds the term's id in the index
	// with a slice lookup rather than by hashing the string (merge.go),
	// which was four fifths of the lexical index's time in an edit.
	// Atoms are never dropped: a long-lived server keeps every term it
	// has met, words since deleted included, for the memo's life.
	atoms map[string]int32
}

// NewTermsMemo returns an empty memo.
func NewTermsMemo() *TermsMemo {
	return &TermsMemo{last: map[[32]byte]*fileTokens{}, cur: map[[32]byte]*fileTokens{}, atoms: map[string]int32{}}
}

// MemoStore is an IndexStore that also keeps decoded statistics in
// memory. TermsMemo may return nil: nothing is memoised then (a session
// missing some file's text must not leave its statistics for others).
type MemoStore interface {
	IndexStore
	TermsMemo() *TermsMemo
}

// Len is how many files' statistics the memo holds for the next build.
func (m *TermsMemo) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.last) + len(m.cur)
}

// get returns the statistics stored under key, with syms (the file's
// symbols now) numbered globally, or nil.
func (m *TermsMemo) get(key [32]byte, syms []analyze.SymID) *fileTokens {
	m.mu.Lock()
	local, ok := m.cur[key]
	if !ok {
		if local, ok = m.last[key]; ok {
			m.cur[key] = local
		}
	}
	if ok {
		m.hits++
	}
	m.mu.Unlock()
	if !ok {
		return nil
	}
	return rebind(local, syms)
}

// put keeps a file's statistics, whose symbols are numbered by syms.
func (m *TermsMemo) put(key [32]byte, ft *fileTokens, syms []analyze.SymID) {
	m.mu.Lock()
	defer m.mu.Unlock()
	local := localForm(ft, syms, m.atom)
	if local == nil {
		return
	}
	m.cur[key] = local
}

// size is how many distinct terms the memo has seen: about the size of
// the next build's term table. 0 for a nil memo.
func (m *TermsMemo) size() int {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.atoms)
}

// atom returns the atom of term t, numbering it if new (m.mu held).
func (m *TermsMemo) atom(t string) int32 {
	a, ok := m.atoms[t]
	if !ok {
		a = int32(len(m.atoms))
		m.atoms[t] = a
	}
	return a
}

// finish ends a build: what it did not use is dropped at the next one.
func (m *TermsMemo) finish() {
	m.mu.Lock()
	m.last, m.cur = m.cur, make(map[[32]byte]*fileTokens, len(m.cur))
	m.mu.Unlock()
}

// localForm is a copy of ft's statistics with each symbol numbered by
// its place in syms and each term by its atom, or nil when a symbol is not
// there.
func localForm(ft *fileTokens, syms []analyze.SymID, atom func(string) int32) *fileTokens {
	at := make(map[analyze.SymID]analyze.SymID, len(syms))
	for i, s := range syms {
		at[s] = analyze.SymID(i)
	}
	o := ft.ord
	c := &orderedTokens{file: copyTerms(o.file, atom), path: copyTerms(o.path, atom), plain: copyTerms(o.plain, atom), syms: make([]symTerms, len(o.syms))}
	for i, st := range o.syms {
		li, ok := at[st.sym]
		if !ok {
			return nil
		}
		c.syms[i] = symTerms{sym: li, slen: st.slen, terms: copyTerms(st.terms, atom)}
	}
	return &fileTokens{flen: ft.flen, plen: ft.plen, ord: c, atoms: true}
}

// rebind is a copy of memoised statistics for a build, symbols numbered
// by syms.
func rebind(local *fileTokens, syms []analyze.SymID) *fileTokens {
	o := local.ord
	c := &orderedTokens{file: o.file, path: o.path, plain: o.plain, syms: make([]symTerms, len(o.syms))}
	for i, st := range o.syms {
		if int(st.sym) >= len(syms) {
			return nil
		}
		c.syms[i] = symTerms{sym: syms[st.sym], slen: st.slen, terms: st.terms}
	}
	return &fileTokens{flen: local.flen, plen: local.plen, ord: c, atoms: true}
}

// copyTerms copies terms, each with its atom as its id: they are no
// longer a tokenizer's.
func copyTerms(tws []termWeight, atom func(string) int32) []termWeight {
	out := make([]termWeight, len(tws))
	for i, tw := range tws {
		out[i] = termWeight{term: tw.term, w: tw.w, id: atom(tw.term)}
	}
	return out
}
