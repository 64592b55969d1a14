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
	return githistory.LoadCached(ctx, root, githistory.Options{}, historyCache{opt.Index, root})
}

// historyCache keeps git logs as "git-log" snapshots of the root.
type historyCache struct {
	st   *index.Store
	root string
}

func (c historyCache) Get(k [32]byte) ([]byte, bool) {
	return c.st.GetSnapshot(c.root, "git-log", index.Key(k))
}

func (c historyCache) Put(k [32]byte, d []byte) { c.st.PutSnapshot(c.root, "git-log", index.Key(k), d) }
