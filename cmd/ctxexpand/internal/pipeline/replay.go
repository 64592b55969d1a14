package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/ctxexpand/ctxexpand/eval"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// Replay modes of a ModelReplay.
const (
	// ReplayLearned orders as the learned ranker does
	// (expand.CompareRelevance: likely files by the model, the rest in the
	// hand-weighted order).
	ReplayLearned = "learned"
	// ReplayMargin orders by the model's margin alone.
	ReplayMargin = "margin"
	// ReplayAuto orders as the default ranker does: by the query's kind,
	// learned or hand (expand.RankerFor).
	ReplayAuto = "auto"
)

// ModelReplay is a ranking model replayed on feature dumps
// (eval.Replay): the same ordering the pipeline applies, from the
// dumped features alone.
type ModelReplay struct {
	Label string
	Model *learn.Model
	Mode  string

	mu    sync.Mutex
	bound map[string]*learn.Bound // by the dump's feature list
}

// Name implements eval.ReplayRanker.
func (m *ModelReplay) Name() string { return m.Label }

func (m *ModelReplay) bind(names []string) (*learn.Bound, error) {
	key := strings.Join(names, "\x00")
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := m.bound[key]; ok {
		return b, nil
	}
	b, err := m.Model.Bind(names)
	if err != nil {
		return nil, fmt.Errorf("the model needs features the dump lacks: %w", err)
	}
	if m.bound == nil {
		m.bound = map[string]*learn.Bound{}
	}
	m.bound[key] = b
	return b, nil
}

// Order implements eval.ReplayRanker.
func (m *ModelReplay) Order(rec *eval.DumpRecord, x [][]float64) ([]int, error) {
	if m.Mode == ReplayAuto {
		if r, _ := expand.RankerFor(query.Analyze(rec.Query).Kind); r == expand.RankerHand {
			return eval.FeatureOrder{Label: m.Label, Feature: "hand"}.Order(rec, x)
		}
	}
	b, err := m.bind(rec.Features)
	if err != nil {
		return nil, err
	}
	handRR := slices.Index(rec.Features, "hand_rr")
	if handRR < 0 {
		return nil, fmt.Errorf("the dump has no feature hand_rr")
	}
	var scratch learn.Scratch
	rel := make([]expand.Relevance, len(x))
	for i, row := range x {
		margin := b.Margin(row, &scratch)
		r := expand.Relevance{Margin: margin, Prob: b.Model().Probability(margin), HandPos: -1, Path: rec.Candidates[i].Path}
		if rr := row[handRR]; rr > 0 {
			r.HandPos = int(math.Round(1/rr)) - 1
		}
		if m.Mode == ReplayMargin {
			r.Prob = 1
		}
		rel[i] = r
	}
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return expand.CompareRelevance(rel[a], rel[b]) })
	return idx, nil
}
