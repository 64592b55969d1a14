package pipeline

import (
	"context"

	"github.com/ctxexpand/ctxexpand/githistory"
	"github.com/ctxexpand/ctxexpand/index"
)

// loadHistory reads the version-control history that ranking uses as a
// prior, with the git log kept in the on-disk index when there is one
// (githistory.LoadCached: keyed by HEAD, so a warm run asks git only for
// HEAD).
func loadHistory(ctx context.Context, root string, opt LoadOptions) (*githistory.Stats, error) {
	if opt.Index == nil {
		return githistory.Load(ctx, root, githistory.Options{})
	}
	return githistory.LoadCached(ctx, root, githistory.Options{}, historyCache{opt.Index})
}

// historyCache keeps git logs as "git-log" entries of the index.
type historyCache struct{ st *index.Store }

func (c historyCache) Get(k [32]byte) ([]byte, bool) { return c.st.Get("git-log", index.Key(k)) }
func (c historyCache) Put(k [32]byte, d []byte)      { c.st.Put("git-log", index.Key(k), d) }
