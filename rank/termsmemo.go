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
// file so that they survive the renumbering an edit elsewhere causes. A
// build takes a memoised file's term lists as they are, and the merge
// writes its own term ids into them (ids of statistics without a
// tokenizer are always assigned again, merge.go): builds that share a
// memo must therefore run one after another, as a resident server's
// generations do. Each build gets its own copy of the symbol list.
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
}

// NewTermsMemo returns an empty memo.
func NewTermsMemo() *TermsMemo {
	return &TermsMemo{last: map[[32]byte]*fileTokens{}, cur: map[[32]byte]*fileTokens{}}
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
	local := localForm(ft, syms)
	if local == nil {
		return
	}
	m.mu.Lock()
	m.cur[key] = local
	m.mu.Unlock()
}

// finish ends a build: what it did not use is dropped at the next one.
func (m *TermsMemo) finish() {
	m.mu.Lock()
	m.last, m.cur = m.cur, make(map[[32]byte]*fileTokens, len(m.cur))
	m.mu.Unlock()
}

// localForm is a copy of ft's statistics with each symbol numbered by
// its place in syms, or nil when one is not there.
func localForm(ft *fileTokens, syms []analyze.SymID) *fileTokens {
	at := make(map[analyze.SymID]analyze.SymID, len(syms))
	for i, s := range syms {
		at[s] = analyze.SymID(i)
	}
	o := ft.ord
	c := &orderedTokens{file: copyTerms(o.file), path: copyTerms(o.path), plain: copyTerms(o.plain), syms: make([]symTerms, len(o.syms))}
	for i, st := range o.syms {
		li, ok := at[st.sym]
		if !ok {
			return nil
		}
		c.syms[i] = symTerms{sym: li, slen: st.slen, terms: copyTerms(st.terms)}
	}
	return &fileTokens{flen: ft.flen, plen: ft.plen, ord: c}
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
	return &fileTokens{flen: local.flen, plen: local.plen, ord: c}
}

// copyTerms copies terms, their ids unset: they are no longer a
// tokenizer's, and a build interns them again.
func copyTerms(tws []termWeight) []termWeight {
	out := make([]termWeight, len(tws))
	for i, tw := range tws {
		out[i] = termWeight{term: tw.term, w: tw.w, id: -1}
	}
	return out
}
