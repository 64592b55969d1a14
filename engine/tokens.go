package engine

import (
	"encoding/binary"
	"sync"

	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// Token counts across runs.
//
// Counting tokens with an exact encoding is the costliest part of a warm
// run: the bundle counts every candidate file, span and skeleton, about
// 170 ms of a 250 ms run on clap. The in-process cache of package tokenize
// dies with the process; this one keeps the counts of longer texts in the
// root's "tokens" pack, keyed by the counter's name and the text, so that
// a query repeated or refined counts only what it has not shown before.
// Unlike the other packs it keeps counts a run did not use (up to
// maxTokenRecords), since each query shows other files.

const (
	// minPersistedText is the shortest text whose count is stored: below
	// it, counting costs less than hashing and looking up.
	minPersistedText = 256
	maxTokenRecords  = 50000
)

// persistentCounter is a counter whose counts of longer texts live in the
// index.
type persistentCounter struct {
	inner tokenize.Counter
	pack  *index.Pack
	salt  string
}

func (c *persistentCounter) Name() string { return c.inner.Name() }

// AddsUp says the counts add up as the inner counter's do: the bundle
// then counts a file's text apart from the header of its section
// (tokenize.CountAround), and the pack keeps that count for the next run
// to find under any header.
func (c *persistentCounter) AddsUp() bool { return tokenize.Additive(c.inner) }

func (c *persistentCounter) Count(s string) int {
	if len(s) < minPersistedText {
		return c.inner.Count(s)
	}
	k := index.NewHasher("tokens").String(c.salt).String(c.inner.Name()).String(s).Sum()
	if data, ok := c.pack.Get(k); ok {
		if n, w := binary.Uvarint(data); w > 0 && w == len(data) {
			return int(n)
		}
	}
	n := c.inner.Count(s)
	c.pack.Put(k, binary.AppendUvarint(nil, uint64(n)))
	return n
}

// tokenStore is a session's pack of token counts. Queries of one session
// may run at once.
type tokenStore struct {
	mu   sync.Mutex
	pack *index.Pack
	salt string
}

func newTokenStore(opt LoadOptions, root string) *tokenStore {
	if opt.Index == nil {
		return nil
	}
	return &tokenStore{pack: opt.Index.Pack(root, "tokens").Keep(maxTokenRecords), salt: opt.Index.ExecutableID()}
}

// counter wraps c when the session has an index.
func (t *tokenStore) counter(c tokenize.Counter) tokenize.Counter {
	if t == nil {
		return c
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return &persistentCounter{inner: c, pack: t.pack, salt: t.salt}
}

// flush saves the counts; a pack flushes once, so a new one is opened for
// the session's next query.
func (t *tokenStore) flush(opt *index.Store, root string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pack.Flush()
	t.pack = opt.Pack(root, "tokens").Keep(maxTokenRecords)
}
