package engine

import (
	"context"

	"github.com/ctxexpand/ctxexpand/analyze"

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

// recency is, per file, 1/(1 + n/10) where n is how many commits of the
// prior's window are newer than the last one that changed the file (0
// for the newest commit), and 0 for files the window does not touch.
func recency(st *githistory.Stats, facts *analyze.Facts) []float64 {
	newest := map[string]int{}
	for i, c := range st.Commits[:st.NumPrior()] {
		for _, f := range c.Files {
			if _, ok := newest[f]; !ok {
				newest[f] = i
			}
		}
	}
	out := make([]float64, len(facts.Files))
	for i, f := range facts.Files {
		if n, ok := newest[f.Path]; ok {
			out[i] = 1 / (1 + float64(n)/10)
		}
	}
	return out
}
