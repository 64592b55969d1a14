package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/query/ollama"
)

// Output is the result of one query.
type Output struct {
	Plan    *query.Plan
	Result  *expand.Result
	Facts   *analyze.Facts
	Bundle  []byte
	Partial bool
	Notes   []string
	// Extras are the explicit non-file contents (@url, @grep, failed
	// references) that lead the bundle.
	Extras []Extra
	// RefSummary says which @references loaded and which failed.
	RefSummary string
	// BundleResult says what each file got in the bundle.
	BundleResult *bundle.Result

	// spelledBest is, in a review, the test that best spells the changed
	// lines' words (Session.spelledTies), planned with the change when
	// the tests named after it leave room; "" when none.
	spelledBest string
}

// Run loads the repository and answers one query.
func Run(ctx context.Context, req Request) (*Output, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	load := req.Load
	if req.Backend != "" {
		load.Backend = req.Backend
	}
	if req.LSPCmd != "" {
		load.LSPCmd = req.LSPCmd
	}
	s, err := Open(ctx, req.Root, load)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Query(ctx, req)
}

// Query answers one query against the loaded repository; a request that
// fails [Request.Validate] is refused.
//
// When ctx ends (a time limit), the stages still running finish within a
// short grace period, or fall back to a bounded form of their work, and
// the output is marked Partial (deadline.go): a limited run always has a
// bundle.
func (s *Session) Query(ctx context.Context, req Request) (*Output, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	fctx, cancel := finishContext(ctx)
	defer cancel()
	plan, err := s.plan(fctx, req)
	if err != nil {
		return nil, err
	}
	rr := s.resolveRefs(fctx, plan, req)
	explicit := append(append([]expand.Explicit(nil), req.Explicit...), rr.explicit...)
	expandStart := time.Now()
	similar, similarDetail := s.similarCommits(plan)
	if req.Kind != "" {
		plan.Kind, _ = query.ParseKind(string(req.Kind)) // Validate checked it
	}
	model, ranker, rankerWhy, err := expand.RankingModel(req.Ranker, plan.Kind)
	if err != nil {
		return nil, err
	}
	opts := expand.Options{
		Model:         model,
		Features:      req.Features,
		Strategy:      req.Strategy,
		Depth:         req.Depth,
		MaxFiles:      req.MaxFiles,
		NoTests:       req.NoTests,
		Weights:       req.Weights,
		Similar:       similar,
		SimilarDetail: similarDetail,
	}
	var spelledBest string
	if len(req.Changed) > 0 {
		sp := s.spelledTies(req.Changed, req.ChangedLines)
		if sp.bestTest >= 0 {
			spelledBest = s.Facts.Files[sp.bestTest].Path
		}
		opts.CoChange, opts.CoChangeDetail = s.coChanges(req.Changed, sp.score, sp.why)
		opts.CoChangeHits = sp.hits(s.Facts, opts.CoChange)
	}
	res, err := s.Engine.Expand(fctx, plan, explicit, opts)
	cut := false
	if err != nil && fctx.Err() != nil {
		// One step from the seeds is a bounded amount of work.
		opts.Depth = 1
		res, err = s.Engine.Expand(context.WithoutCancel(ctx), plan, explicit, opts)
		cut = true
	}
	if err != nil {
		return nil, err
	}
	if res.Ranker == ranker {
		res.RankerWhy = rankerWhy
	}
	logPhase(ctx, s.log, "expand", expandStart, "strategies", strings.Join(res.Strategies, "+"), "depth", res.Depth, "seeds", len(res.Seeds), "considered", res.Considered, "ranked", len(res.Files))
	out := &Output{Plan: plan, Result: res, Facts: s.Facts, Partial: s.Facts.Partial || cut || fctx.Err() != nil, Extras: append(append([]Extra(nil), req.Extras...), rr.extras...), RefSummary: rr.summary, spelledBest: spelledBest}
	out.Notes = append(out.Notes, req.Notes...)
	out.Notes = append(out.Notes, plan.Warnings...)
	out.Notes = append(out.Notes, res.Warnings...)
	if req.Budget > 0 {
		bundleStart := time.Now()
		b, err := s.assemble(fctx, out, req)
		if err != nil && fctx.Err() != nil {
			// Assembling is bounded by the ranked list and the budget.
			out.Partial = true
			b, err = s.assemble(context.WithoutCancel(ctx), out, req)
		}
		if err != nil {
			return nil, err
		}
		logPhase(ctx, s.log, "bundle", bundleStart, "format", req.Format, "tokens", b.TotalTokens, "budget", b.Budget, "files", len(b.Files))
		out.Bundle = b.Output
		out.BundleResult = b
	}
	return out, nil
}

// plan analyses the query with the requested planner.
func (s *Session) plan(ctx context.Context, req Request) (*query.Plan, error) {
	switch req.Planner {
	case "", "heuristic":
		return query.AnalyzeWith(req.Query, req.TextWeights), nil
	case "ollama":
		p := ollama.New(ollama.Options{Host: req.OllamaHost, Model: req.OllamaModel})
		return p.Plan(ctx, req.Query)
	}
	return nil, fmt.Errorf("unknown planner %q: use heuristic or ollama", req.Planner)
}

// similarCommits is, per file, what past commits with messages like the
// query say (see githistory.Stats.Similar); nil without history.
func (s *Session) similarCommits(plan *query.Plan) ([]float64, []string) {
	votes := s.history.Similar(plan.Terms)
	if len(votes) == 0 {
		return nil, nil
	}
	score := make([]float64, len(s.Facts.Files))
	detail := make([]string, len(s.Facts.Files))
	for i, f := range s.Facts.Files {
		if v, ok := votes[f.Path]; ok {
			score[i], detail[i] = v.Score, v.Best
		}
	}
	return score, detail
}
