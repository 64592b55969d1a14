package engine

import (
	"sort"

	"github.com/ctxexpand/ctxexpand/eval"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// The rankers ctxexpand bench compares, by name. Each function returns
// what one mode of the benchmark runs; the command picks among them by
// its flags.

// Rankers are the rankers of a quality run by name, and the names run by
// default in order: bm25 (the baseline), names (the review baseline),
// ctxexpand (the default ranker, loading each checkout cold),
// ctxexpand-learned and ctxexpand-hand, and ctxexpand-STRATEGY for each
// strategy forced. All but ctxexpand share loaded sessions, up to
// sessions of them.
func Rankers(noHistory bool, sessions int) (all map[string]eval.Ranker, order []string) {
	shared := NewSessionCache(sessions)
	shared.NoHistory = noHistory
	all = map[string]eval.Ranker{
		"bm25":              eval.NewBM25(),
		"names":             eval.NewNames(),
		"ctxexpand":         &Ranker{Label: "ctxexpand", Strategy: "auto", NoHistory: noHistory},
		"ctxexpand-hand":    &Ranker{Label: "ctxexpand-hand", Strategy: "auto", Ranker: expand.RankerHand, Sessions: shared},
		"ctxexpand-learned": &Ranker{Label: "ctxexpand-learned", Strategy: "auto", Ranker: expand.RankerLearned, Sessions: shared},
	}
	order = []string{"bm25", "ctxexpand", "ctxexpand-learned", "ctxexpand-hand"}
	for _, n := range expand.Names() {
		name := "ctxexpand-" + n
		all[name] = &Ranker{Label: name, Strategy: n, Sessions: shared}
		order = append(order, name)
	}
	return all, order
}

// TextWeightRankers compare named sets of query.TextWeights: bm25 and the
// pipeline once per set (ctxexpand-tw-NAME, in name order), all sharing
// one session per commit loaded through st.
func TextWeightRankers(st *index.Store, noHistory bool, sets map[string]query.TextWeights) []eval.Ranker {
	shared := NewSessionCache(2)
	shared.NoHistory = noHistory
	shared.Index = st
	out := []eval.Ranker{eval.NewBM25()}
	names := make([]string, 0, len(sets))
	for name := range sets {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, &Ranker{Label: "ctxexpand-tw-" + name, Strategy: "auto", Sessions: shared, TextWeights: sets[name]})
	}
	return out
}

// DumpRanker is the ranker of a feature dump: the pipeline with the
// hand-weighted ranker (the features do not depend on the model), loading
// through st so that each commit of a repository costs only what changed
// since the one before.
func DumpRanker(st *index.Store, noHistory bool) eval.Ranker {
	return &Ranker{Label: "ctxexpand-hand", Strategy: "auto", Ranker: expand.RankerHand, Features: true, Index: st, NoHistory: noHistory}
}

// ReplayRankers re-rank feature dumps offline, by name, and the names run
// by default in order: bm25 and hand order the candidates by their
// features, learned by the model for the query's kind (question for
// questions when not nil, else model), learned-margin by its margin
// alone, and ctxexpand as the default ranker does.
func ReplayRankers(model, question *learn.Model) (all map[string]eval.ReplayRanker, order []string) {
	all = map[string]eval.ReplayRanker{
		"bm25":           eval.FeatureOrder{Label: "bm25", Feature: "bm25"},
		"hand":           eval.FeatureOrder{Label: "hand", Feature: "hand"},
		"learned":        &ModelReplay{Label: "learned", Model: model, Question: question, Mode: ReplayLearned},
		"learned-margin": &ModelReplay{Label: "learned-margin", Model: model, Question: question, Mode: ReplayMargin},
		"ctxexpand":      &ModelReplay{Label: "ctxexpand", Model: model, Question: question, Mode: ReplayAuto},
	}
	return all, []string{"bm25", "ctxexpand", "learned", "learned-margin", "hand"}
}
