package expand

import (
	"fmt"
	"sync"

	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// Models a build may ship, one per kind of query they were trained for.
const (
	// ModelFixes is trained on fix commits (their messages as queries):
	// fixes and issue reports.
	ModelFixes = "fixes"
	// ModelQuestions is trained on questions mined from doc comments.
	ModelQuestions = "questions"
)

// shippedModel is one shipped model, bound to the features this package
// computes, once per process.
type shippedModel struct {
	once  sync.Once
	load  func() (*learn.Model, error)
	model *learn.Bound
	err   error
}

func (s *shippedModel) get() (*learn.Bound, error) {
	s.once.Do(func() {
		m, err := s.load()
		if err != nil || m == nil {
			s.err = err
			return
		}
		s.model, s.err = m.Bind(FeatureNames[:])
	})
	return s.model, s.err
}

var shipped = map[string]*shippedModel{
	ModelFixes:     {load: learn.Default},
	ModelQuestions: {load: learn.Question},
}

// ShippedModel is the learned ranking model this build ships for fixes
// and reports ([learn.Default]), bound to [FeatureNames]; nil when the
// build has none.
func ShippedModel() (*learn.Bound, error) { return shipped[ModelFixes].get() }

// ShippedModelFor is the shipped model that reads a kind of query, bound
// to [FeatureNames], with its name: the one [ModelFor] names, or the model
// for fixes when the build ships none for the kind; nil when it ships
// neither.
func ShippedModelFor(k query.Kind) (name string, model *learn.Bound, err error) {
	name = ModelFor(k)
	model, err = shipped[name].get()
	if err == nil && model == nil && name != ModelFixes {
		name = ModelFixes
		model, err = shipped[name].get()
	}
	return name, model, err
}

// ModelFor names the model that reads a kind of query: the one trained on
// questions for a question, the one trained on fixes for every other
// kind.
func ModelFor(k query.Kind) string {
	if k == query.KindQuestion {
		return ModelQuestions
	}
	return ModelFixes
}

// RankingModel is the model a request's ranker asks for, with the ranker
// it comes to and why: nil for the hand-weighted ranker (or when no model
// ships). An empty ranker is [DefaultRanker]; [RankerAuto] picks by the
// plan's kind ([RankerFor]); [RankerLearned] reads the model trained for
// the kind ([ModelFor]).
func RankingModel(ranker string, kind query.Kind) (model *learn.Bound, chosen, why string, err error) {
	if ranker == "" {
		ranker = DefaultRanker
	}
	if ranker == RankerAuto {
		ranker, why = RankerFor(kind)
		why = "auto: " + why
	}
	switch ranker {
	case RankerLearned:
		_, m, err := ShippedModelFor(kind)
		if err != nil {
			return nil, "", "", fmt.Errorf("the shipped ranking model cannot be used (rebuild ctxexpand, or pass --ranker hand): %w", err)
		}
		return m, ranker, why, nil
	case RankerHand:
		return nil, ranker, why, nil
	}
	return nil, "", "", fmt.Errorf("unknown ranker %q: use %s, %s or %s", ranker, RankerAuto, RankerLearned, RankerHand)
}
