package pipeline

import (
	"context"
	"sync"

	"github.com/ctxexpand/ctxexpand/eval"
)

// Ranker is ctxexpand as an eval.Ranker: the whole pipeline, in process,
// for one strategy spec. Cold rankers load every checkout afresh (their
// time is what a user waits for); warm ones share loaded sessions through
// a SessionCache, so that comparing strategies does not multiply the
// load time of a run.
type Ranker struct {
	Label    string
	Strategy string
	MaxFiles int
	// Sessions, when set, is shared with other rankers; nil means cold.
	Sessions *SessionCache
}

// Name implements eval.Ranker.
func (r *Ranker) Name() string { return r.Label }

// Rank implements eval.Ranker.
func (r *Ranker) Rank(ctx context.Context, root string, inst eval.Instance, budgets []int) (eval.Ranking, error) {
	var s *Session
	var err error
	if r.Sessions != nil {
		s, err = r.Sessions.Get(ctx, root)
	} else {
		s, err = Open(ctx, root, LoadOptions{})
	}
	if err != nil {
		return eval.Ranking{}, err
	}
	maxFiles := r.MaxFiles
	if maxFiles <= 0 {
		maxFiles = 50
	}
	req := Request{Root: root, Query: inst.Query, Strategy: r.Strategy, MaxFiles: maxFiles, Format: "json", NoNetwork: true}
	out, err := s.Query(ctx, req)
	if err != nil {
		return eval.Ranking{}, err
	}
	var rk eval.Ranking
	for _, f := range out.Result.Files {
		rk.Files = append(rk.Files, eval.RankedFile{Path: f.Path, Score: f.Score, Reasons: f.Reasons})
	}
	rk.Bundles = map[int][]string{}
	for _, b := range budgets {
		inc, err := s.IncludedAt(ctx, out, req, b)
		if err != nil {
			return eval.Ranking{}, err
		}
		rk.Bundles[b] = inc
	}
	return rk, nil
}

// SessionCache keeps the most recently loaded sessions by root.
type SessionCache struct {
	mu    sync.Mutex
	max   int
	order []string
	byKey map[string]*sessionEntry
}

type sessionEntry struct {
	once sync.Once
	s    *Session
	err  error
}

// NewSessionCache keeps up to max sessions.
func NewSessionCache(max int) *SessionCache {
	if max < 1 {
		max = 1
	}
	return &SessionCache{max: max, byKey: map[string]*sessionEntry{}}
}

// Get returns the session of root, loading it once.
func (c *SessionCache) Get(ctx context.Context, root string) (*Session, error) {
	c.mu.Lock()
	e, ok := c.byKey[root]
	if !ok {
		e = &sessionEntry{}
		c.byKey[root] = e
		c.order = append(c.order, root)
		for len(c.order) > c.max {
			delete(c.byKey, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.mu.Unlock()
	e.once.Do(func() { e.s, e.err = Open(ctx, root, LoadOptions{}) })
	return e.s, e.err
}
