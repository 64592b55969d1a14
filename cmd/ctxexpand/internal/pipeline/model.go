package pipeline

import (
	"fmt"
	"sync"

	"github.com/ctxexpand/ctxexpand/expand"
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

// rankingModel is the model a request's ranker asks for: nil for the
// hand-weighted ranker (or when no model ships). An empty ranker is
// expand.DefaultRanker.
func rankingModel(ranker string) (*learn.Bound, error) {
	if ranker == "" {
		ranker = expand.DefaultRanker
	}
	switch ranker {
	case expand.RankerLearned:
		m, err := ShippedModel()
		if err != nil {
			return nil, fmt.Errorf("the shipped ranking model cannot be used (rebuild ctxexpand, or pass --ranker hand): %w", err)
		}
		return m, nil
	case expand.RankerHand:
		return nil, nil
	}
	return nil, fmt.Errorf("unknown ranker %q: use %s or %s", ranker, expand.RankerLearned, expand.RankerHand)
}
