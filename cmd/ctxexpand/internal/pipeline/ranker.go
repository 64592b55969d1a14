package pipeline

import (
	"context"
	"sync"

	"github.com/ctxexpand/ctxexpand/eval"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/index"
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
	// Ranker is the request's ranker (expand.RankerLearned or
	// expand.RankerHand; empty means the default).
	Ranker string
	// Features returns each candidate's feature vector (for dumps).
	Features bool
	// Index, when set, loads through the on-disk index: a cold ranker
	// then reuses what earlier commits of the same checkout directory
	// computed (feature dumps over rolling checkouts).
	Index *index.Store
}

// Name implements eval.Ranker.
func (r *Ranker) Name() string { return r.Label }

// Rank implements eval.Ranker.
func (r *Ranker) Rank(ctx context.Context, root string, inst eval.Instance, budgets []int) (eval.Ranking, error) {
	var s *Session
	var err error
	if r.Sessions != nil {
		s, err = r.Sessions.Get(ctx, root, inst.Base)
	} else {
		s, err = Open(ctx, root, LoadOptions{Index: r.Index})
		if err == nil {
			defer s.Close()
		}
	}
	if err != nil {
		return eval.Ranking{}, err
	}
	maxFiles := r.MaxFiles
	if maxFiles <= 0 {
		maxFiles = 50
	}
	req := Request{Root: root, Query: inst.Query, Strategy: r.Strategy, MaxFiles: maxFiles, Format: "json", NoNetwork: true,
		Ranker: r.Ranker, Features: r.Features}
	out, err := s.Query(ctx, req)
	if err != nil {
		return eval.Ranking{}, err
	}
	var rk eval.Ranking
	for _, f := range out.Result.Files {
		rf := eval.RankedFile{Path: f.Path, Score: f.Score, Reasons: f.Reasons}
		if out.Result.Ranker == expand.RankerLearned {
			for _, c := range f.Contribs {
				rf.Contribs = append(rf.Contribs, eval.Contrib{What: c.What, Value: c.Value, Detail: c.Detail})
			}
		}
		rk.Files = append(rk.Files, rf)
	}
	if r.Features {
		rk.FeatureNames = expand.FeatureNames[:]
		for _, c := range out.Result.Candidates {
			rk.Candidates = append(rk.Candidates, eval.Candidate{Path: s.Facts.Files[c.File].Path, Features: c.Features[:]})
		}
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

// Get returns the session of root at commit base, loading it once (a
// rolling checkout has one root for many commits).
func (c *SessionCache) Get(ctx context.Context, root, base string) (*Session, error) {
	key := root + "\x00" + base
	c.mu.Lock()
	e, ok := c.byKey[key]
	if !ok {
		e = &sessionEntry{}
		c.byKey[key] = e
		c.order = append(c.order, key)
		for len(c.order) > c.max {
			delete(c.byKey, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.mu.Unlock()
	e.once.Do(func() { e.s, e.err = Open(ctx, root, LoadOptions{}) })
	return e.s, e.err
}
