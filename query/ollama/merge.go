package ollama

import (
	"slices"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
)

// Model-suggested terms weigh a little less than the same kinds typed by
// the user: the model guesses.
const modelDiscount = 0.8

// Merge returns base with the model's plan laid over it, as a new plan:
// keywords become word terms, symbols become entities and identifier
// terms, file patterns become Globs; a given strategy and depth replace
// the heuristic ones; include_tests can turn tests off but not back on
// when the user asked for none. planner names the result's Planner.
func Merge(base *query.Plan, mp *ModelPlan, planner string) *query.Plan {
	p := base.Clone()
	p.Planner = planner
	for _, kw := range mp.Keywords {
		for _, t := range query.TermsOf(kw) {
			if len(t) >= 2 && !query.IsStopWord(t) {
				p.AddTerm(query.Term{Text: t, Weight: query.WeightWord * modelDiscount, Kind: query.TermWord})
			}
		}
	}
	for _, s := range mp.Symbols {
		parts := query.SplitSymbol(s)
		p.AddEntity(query.Entity{Raw: s, Kind: query.EntitySymbol, Parts: parts})
		for _, part := range parts {
			if n := analyze.NormName(part); len(n) >= 2 {
				p.AddTerm(query.Term{Text: n, Weight: query.WeightIdent * modelDiscount, Kind: query.TermIdent})
			}
			for _, t := range query.TermsOf(part) {
				if len(t) >= 2 {
					p.AddTerm(query.Term{Text: t, Weight: query.WeightIdentPart * modelDiscount, Kind: query.TermIdentPart})
				}
			}
		}
	}
	for _, g := range mp.FilePatterns {
		if !slices.Contains(p.Globs, g) {
			p.Globs = append(p.Globs, g)
		}
	}
	if mp.Strategy != "" {
		p.Strategy = mp.Strategy
	}
	if mp.Depth != nil {
		p.Depth = *mp.Depth
	}
	if mp.IncludeTests != nil {
		p.IncludeTests = base.IncludeTests && *mp.IncludeTests
	}
	if len(mp.Symbols) > 0 && p.Scope != query.ScopeFocused && !strings.Contains(p.Strategy, "broad") {
		p.Scope = query.ScopeFocused
	}
	return p
}
