package expand

import (
	"fmt"
	"sync"

	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// The shipped ranking model, bound to the features this package computes,
// once per process.
var shipped struct {
	once  sync.Once
	model *learn.Bound
	err   error
}

// ShippedModel is the learned ranking model this build ships
// ([learn.Default]), bound to [FeatureNames]; nil when the build has none.
func ShippedModel() (*learn.Bound, error) {
	shipped.once.Do(func() {
		m, err := learn.Default()
		if err != nil || m == nil {
			shipped.err = err
			return
		}
		shipped.model, shipped.err = m.Bind(FeatureNames[:])
	})
	return shipped.model, shipped.err
}

// RankingModel is the model a request's ranker asks for, with the ranker
// it comes to and why: nil for the hand-weighted ranker (or when no model
// ships). An empty ranker is [DefaultRanker]; [RankerAuto] picks by the
// plan's kind ([RankerFor]).
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
		m, err := ShippedModel()
		if err != nil {
			return nil, "", "", fmt.Errorf("the shipped ranking model cannot be used (rebuild ctxexpand, or pass --ranker hand): %w", err)
		}
		return m, ranker, why, nil
	case RankerHand:
		return nil, ranker, why, nil
	}
	return nil, "", "", fmt.Errorf("unknown ranker %q: use %s, %s or %s", ranker, RankerAuto, RankerLearned, RankerHand)
}
