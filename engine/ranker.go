package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/diffmode"
	"github.com/ctxexpand/ctxexpand/eval"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/query"
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
	// TextWeights are the query analysis's weights for issue-shaped text
	// (zero: the defaults); set to fit them (bench --text-weights).
	TextWeights query.TextWeights
	// NoHistory loads without version-control history, as a tarball, a
	// depth-1 clone or a fresh repository would be (bench --no-history).
	NoHistory bool

	mu   sync.Mutex
	last *Session // the session of the last answer, for Decls
}

// Name implements eval.Ranker.
func (r *Ranker) Name() string { return r.Label }

// Rank implements eval.Ranker.
func (r *Ranker) Rank(ctx context.Context, root string, inst eval.Instance, budgets []int) (eval.Ranking, error) {
	var s *Session
	var err error
	key := inst.Base
	if inst.Kind == eval.KindDiff {
		// The tree holds the change under review: no other instance of
		// the same base may share its session.
		key += "+" + inst.ID
	}
	if r.Sessions != nil {
		s, err = r.Sessions.Get(ctx, root, key)
	} else {
		s, err = Open(ctx, root, LoadOptions{Index: r.Index, NoHistory: r.NoHistory})
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
		Ranker: r.Ranker, Features: r.Features, TextWeights: r.TextWeights}
	// reqAt is the request whose bundle is measured at a budget: a
	// review's diff takes its share of each budget.
	reqAt := func(b int) Request { return req }
	if inst.Kind == eval.KindDiff {
		rv, err := reviewOfWorkTree(ctx, s, root, inst.Query, inst.DiffFiles)
		if err != nil {
			return eval.Ranking{}, err
		}
		if req.Strategy == "" || req.Strategy == "auto" {
			req.Strategy = expand.Impact.Name // the diff command's default
		}
		req.Features = false // the model's features describe task text, not reviews
		req.Budget = slices.Max(append([]int{reviewBudget}, budgets...))
		base := req
		req = ReviewRequest(base, rv)
		reqAt = func(b int) Request {
			base.Budget = b
			return ReviewRequest(base, rv)
		}
	}
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
	rk.Functions = []eval.RankedFunc{}
	for _, f := range out.Result.Functions {
		rk.Functions = append(rk.Functions, eval.RankedFunc{Decl: declOf(s, f.Sym), Score: f.Score})
	}
	rk.Bundles = map[int][]string{}
	rk.Shown = map[int]map[string][]eval.LineRange{}
	for _, b := range budgets {
		inc, lines, err := s.IncludedAt(ctx, out, reqAt(b), b)
		if err != nil {
			return eval.Ranking{}, err
		}
		rk.Bundles[b] = inc
		rk.Shown[b] = map[string][]eval.LineRange{}
		for p, rs := range lines {
			for _, r := range rs {
				rk.Shown[b][p] = append(rk.Shown[b][p], eval.LineRange{Start: r.Start, End: r.End})
			}
		}
	}
	r.mu.Lock()
	r.last = s
	r.mu.Unlock()
	return rk, nil
}

// reviewBudget is the budget a review's ranking is made with when no
// larger one is measured: the command line's default.
const reviewBudget = 16000

// reviewOfWorkTree is the review of the uncommitted change to paths in
// root's work tree against HEAD, as ctxexpand diff -- PATHS sees it
// (limited to them: a mirror may lack the blobs of files the checkout
// could not write, which git diff would otherwise try to read). Its title
// names no commit and it carries no notes, as the benchmark's reviews
// always have.
func reviewOfWorkTree(ctx context.Context, s *Session, root, words string, paths []string) (Review, error) {
	ch, err := diffmode.ReadChange(ctx, root, diffmode.ChangeSpec{Paths: paths})
	if err != nil {
		return Review{}, err
	}
	defer ch.Close()
	rv, err := s.ReviewChange(ctx, ch, words)
	if err != nil {
		return Review{}, fmt.Errorf("mapping the diff to symbols: %w", err)
	}
	rv.What, rv.Subjects, rv.Notes = "the working tree against HEAD", nil, nil
	return rv, nil
}

// declOf describes a symbol for function-level scoring.
func declOf(s *Session, sym analyze.SymID) eval.Decl {
	d := &s.Facts.Symbols[sym]
	f := &s.Facts.Files[d.File]
	return eval.Decl{Path: f.Path, Name: d.QualName(f.Lang), Line: d.DeclLine, End: d.End}
}

// Decls implements eval.DeclSource with the facts of the session the
// ranker last used for the same checkout and commit, or of a new one.
func (r *Ranker) Decls(ctx context.Context, root string, inst eval.Instance, paths []string) ([]eval.Decl, error) {
	r.mu.Lock()
	s := r.last
	r.mu.Unlock()
	if s == nil || s.Root != root || s.Commit() != inst.Base {
		var err error
		if r.Sessions != nil {
			s, err = r.Sessions.Get(ctx, root, inst.Base)
		} else {
			s, err = Open(ctx, root, LoadOptions{Index: r.Index, NoHistory: true})
			if err == nil {
				defer s.Close()
			}
		}
		if err != nil {
			return nil, err
		}
	}
	var out []eval.Decl
	for _, p := range paths {
		fid, ok := s.Facts.FileByPath(p)
		if !ok {
			continue
		}
		for _, sid := range s.Facts.SymbolsIn(fid) {
			if s.Facts.Symbols[sid].Kind.IsCallable() {
				out = append(out, declOf(s, sid))
			}
		}
	}
	return out, nil
}

// SessionCache keeps the most recently loaded sessions by root.
type SessionCache struct {
	// Index, when set, is the on-disk index sessions load through.
	Index *index.Store
	// NoHistory loads sessions without version-control history.
	NoHistory bool

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
	e.once.Do(func() { e.s, e.err = Open(ctx, root, LoadOptions{Index: c.Index, NoHistory: c.NoHistory}) })
	return e.s, e.err
}
