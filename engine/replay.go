package engine

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
	// (expand.CompareRelevance: in a focused fix, likely files by the
	// model and the rest in the hand-weighted order; otherwise by the
	// model).
	ReplayLearned = "learned"
	// ReplayMargin orders by the model's margin alone.
	ReplayMargin = "margin"
	// ReplayAuto orders as the default ranker does: by the query's kind,
	// learned or hand (expand.AutoRanker), with the model for the kind.
	ReplayAuto = "auto"
)

// ModelReplay is a ranking model replayed on feature dumps
// (eval.Replay): the same ordering the pipeline applies, from the
// dumped features alone.
type ModelReplay struct {
	Label string
	// Model reads fixes and reports, and Question questions
	// (expand.ModelFor); without Question, questions are read by Model
	// in ReplayLearned and ReplayMargin and by the hand weights in
	// ReplayAuto, as in a build that ships no question model.
	Model    *learn.Model
	Question *learn.Model
	Mode     string

	mu    sync.Mutex
	bound map[*learn.Model]map[string]*learn.Bound // by model and the dump's feature list
}

// Name implements eval.ReplayRanker.
func (m *ModelReplay) Name() string { return m.Label }

func (m *ModelReplay) bind(model *learn.Model, names []string) (*learn.Bound, error) {
	key := strings.Join(names, "\x00")
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := m.bound[model][key]; ok {
		return b, nil
	}
	b, err := model.Bind(names)
	if err != nil {
		return nil, fmt.Errorf("the model needs features the dump lacks: %w", err)
	}
	if m.bound == nil {
		m.bound = map[*learn.Model]map[string]*learn.Bound{}
	}
	if m.bound[model] == nil {
		m.bound[model] = map[string]*learn.Bound{}
	}
	m.bound[model][key] = b
	return b, nil
}

// Order implements eval.ReplayRanker.
func (m *ModelReplay) Order(rec *eval.DumpRecord, x [][]float64) ([]int, error) {
	plan := query.Analyze(rec.Query)
	model := m.Model
	if expand.ModelFor(plan.Kind) == expand.ModelQuestions && m.Question != nil {
		model = m.Question
	}
	if m.Mode == ReplayAuto {
		if r, _ := expand.AutoRanker(plan.Kind, m.Question != nil); r == expand.RankerHand {
			return eval.FeatureOrder{Label: m.Label, Feature: "hand"}.Order(rec, x)
		}
	}
	b, err := m.bind(model, rec.Features)
	if err != nil {
		return nil, err
	}
	handRR := slices.Index(rec.Features, "hand_rr")
	entities := slices.Index(rec.Features, "q_entities")
	if handRR < 0 || entities < 0 {
		return nil, fmt.Errorf("the dump lacks the features hand_rr and q_entities")
	}
	// The query's names resolved when q_entities (log(1+symbols they
	// resolved to)) is positive; it is the same for every candidate.
	structural := m.Mode != ReplayMargin && len(x) > 0 && expand.StructureDecides(plan, x[0][entities] > 0)
	var scratch learn.Scratch
	rel := make([]expand.Relevance, len(x))
	for i, row := range x {
		margin := b.Margin(row, &scratch)
		r := expand.Relevance{Margin: margin, Likely: !structural || b.Model().Probability(margin) >= expand.LikelyProbability, HandPos: -1, Path: rec.Candidates[i].Path}
		if rr := row[handRR]; rr > 0 {
			r.HandPos = int(math.Round(1/rr)) - 1
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
