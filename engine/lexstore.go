package engine

import (
	"sync"

	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/rank"
)

// lexSource is the file content source of the lexical index, with the
// on-disk index behind it (rank.IndexStore): the whole lexical index is
// stored under the facts snapshot's key, per-file term statistics in the
// root's "lexfile" pack.
type lexSource struct {
	*contentCache
	st    *index.Store
	root  string
	key   index.Key // zero after a resident session's load from memory
	pack  recordPack
	state *indexedState
	// resident: the whole index is kept for Persist, not stored; its
	// encoding is left to Persist too (the index never changes once
	// built), off the path of the reload after an edit.
	resident bool
	encode   func() []byte
	// memo keeps a resident chain's per-file statistics decoded between
	// its sessions (rank.TermsMemo).
	memo *rank.TermsMemo
}

// TermsMemo implements rank.MemoStore: a torn session keeps nothing.
func (s *lexSource) TermsMemo() *rank.TermsMemo {
	if s.torn {
		return nil
	}
	return s.memo
}

func (s *lexSource) lexKey() index.Key { return lexicalKey(s.key) }

// LoadLexicalIndex implements rank.IndexStore.
func (s *lexSource) LoadLexicalIndex() ([]byte, bool) {
	if s.key.IsZero() {
		return nil, false
	}
	return s.st.GetSnapshot(s.root, "lexical", s.lexKey())
}

// StoreLexicalIndex implements rank.IndexStore. The index is encoded on
// the saving goroutine; a resident session encodes it in Persist.
func (s *lexSource) StoreLexicalIndex(encode func() []byte) {
	if s.resident {
		s.encode = encode
		return
	}
	s.state.save(func() { s.st.PutSnapshot(s.root, "lexical", s.lexKey(), encode()) })
}

// LoadFileTerms implements rank.IndexStore.
func (s *lexSource) LoadFileTerms(key [32]byte) ([]byte, bool) { return s.pack.Get(index.Key(key)) }

// StoreFileTerms implements rank.IndexStore. A torn resident session
// (source.go) stores none: a file it could not read would be kept under
// its facts' key as if it had no text.
func (s *lexSource) StoreFileTerms(key [32]byte, data []byte) {
	if s.torn {
		return
	}
	s.pack.Put(index.Key(key), data)
}

// indexedSource returns the source for the lexical index of a session:
// the content cache, backed by the index when the facts came through one.
// done must be called once the engine is built; it saves the per-file
// statistics unless the build failed.
func indexedSource(cache *contentCache, opt LoadOptions, root string, state *indexedState) (rank.Source, func(ok bool)) {
	if opt.resident != nil && state != nil {
		src := &lexSource{contentCache: cache, st: opt.Index, root: root, key: state.key, pack: opt.resident.pack("lexfile"), state: state, resident: true, memo: opt.resident.terms}
		return src, func(bool) {}
	}
	if opt.Index == nil || state == nil || state.key.IsZero() {
		return cache, func(bool) {}
	}
	src := &lexSource{contentCache: cache, st: opt.Index, root: root, key: state.key, pack: opt.Index.Pack(root, "lexfile"), state: state}
	return src, func(ok bool) {
		if ok {
			state.save(src.pack.Flush)
		}
	}
}

// indexedState carries what loadIndexed learned to the session builder.
type indexedState struct {
	key   index.Key // the facts snapshot key; zero when the load was partial
	saves sync.WaitGroup
	// hashes are the input hashes a resident session was loaded from
	// (for Persist).
	hashes map[string]string
}

// save writes to the index on a goroutine of its own when there is a
// session to wait for it (Session.Close), and at once otherwise: writing
// a large repository's records takes a while, and the query that follows
// does not need them.
func (s *indexedState) save(f func()) {
	if s == nil {
		f()
		return
	}
	s.saves.Go(f)
}

// wait returns once every save is done.
func (s *indexedState) wait() {
	if s != nil {
		s.saves.Wait()
	}
}
