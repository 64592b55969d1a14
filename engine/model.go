package engine

import (
	"fmt"
	"sync"

	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// The shipped ranking model, bound to the features expand computes, once
// per process.
var shipped struct {
	once  sync.Once
	model *learn.Bound
	err   error
}

// ShippedModel is the learned ranking model this build ships, bound to
// expand's features; nil when the build has none.
func ShippedModel() (*learn.Bound, error) {
	shipped.once.Do(func() {
		m, err := learn.Default()
		if err != nil || m == nil {
			shipped.err = err
			return
		}
		shipped.model, shipped.err = m.Bind(expand.FeatureNames[:])
	})
	return shipped.model, shipped.err
}

// rankingModel is the model a request's ranker asks for, with the ranker
// it comes to and why: nil for the hand-weighted ranker (or when no model
// ships). An empty ranker is expand.DefaultRanker; expand.RankerAuto
// picks by the plan's kind (expand.RankerFor).
func rankingModel(ranker string, kind query.Kind) (*learn.Bound, string, string, error) {
	why := ""
	if ranker == "" {
		ranker = expand.DefaultRanker
	}
	if ranker == expand.RankerAuto {
		ranker, why = expand.RankerFor(kind)
		why = "auto: " + why
	}
	switch ranker {
	case expand.RankerLearned:
		m, err := ShippedModel()
		if err != nil {
			return nil, "", "", fmt.Errorf("the shipped ranking model cannot be used (rebuild ctxexpand, or pass --ranker hand): %w", err)
		}
		return m, ranker, why, nil
	case expand.RankerHand:
		return nil, ranker, why, nil
	}
	return nil, "", "", fmt.Errorf("unknown ranker %q: use %s, %s or %s", ranker, expand.RankerAuto, expand.RankerLearned, expand.RankerHand)
}
