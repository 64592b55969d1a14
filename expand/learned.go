package expand

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// Rankers.
const (
	// RankerLearned scores candidates with a model trained on real fixes
	// (rank/learn).
	RankerLearned = "learned"
	// RankerHand is rank.Combine's hand-weighted sum.
	RankerHand = "hand"
	// RankerAuto picks one of the two by the kind of query (RankerFor).
	RankerAuto = "auto"
	// DefaultRanker is the ranker of a request that names none.
	DefaultRanker = RankerAuto
)

// RankerFor is the ranker RankerAuto picks for a kind of query, and why.
//
// The model trained on fixes finds the changed files of commits it has
// never seen more often than the hand-weighted sum, and the files of issue
// reports too (benchmarks/ranking.md). Questions are read by the model
// trained on questions mined from doc comments when the build ships one
// (it does better than the hand weights on hand-written questions); the
// model trained on fixes puts X's tests above X there. A bare name is a
// lookup, where the hand weights put the declaration first, and diff
// review keeps the impact walk's order: both are ranked by hand.
func RankerFor(k query.Kind) (ranker, why string) {
	m, err := shipped[ModelQuestions].get()
	return AutoRanker(k, err == nil && m != nil)
}

// AutoRanker is RankerFor for a set of models that holds one for
// questions or not (a replay brings its own).
func AutoRanker(k query.Kind, questionModel bool) (ranker, why string) {
	switch k {
	case query.KindFix, query.KindIssue, "":
		return RankerLearned, "the model trained on fixes, for a " + kindNoun(k)
	case query.KindQuestion:
		if questionModel {
			return RankerLearned, "the model trained on questions mined from doc comments, for a question"
		}
	}
	return RankerHand, "hand weights, for a " + kindNoun(k)
}

func kindNoun(k query.Kind) string {
	switch k {
	case query.KindIssue:
		return "report"
	case query.KindQuestion:
		return "question"
	case query.KindLookup:
		return "lookup"
	case query.KindDiff:
		return "diff review"
	}
	return "fix"
}

// LikelyProbability is the model's probability below which a file is
// unlikely to matter. In a focused fix whose names resolved
// (StructureDecides), the learned ranking orders the likely files by the
// model and the unlikely ones in the hand-weighted order, which keeps the
// structure of the code (what the named symbol calls, its tests, its
// callers, the entry point last): where every candidate but the named
// symbol's file is unlikely — a small service, a query the model cannot
// read — structure decides. Chosen before measuring, as one chance in
// ten; not fitted.
const LikelyProbability = 0.1

// StructureDecides reports whether the unlikely files of a learned
// ranking follow the hand-weighted order: in a focused fix whose named
// symbols resolved, where that order is an engineer's reading order. A
// commit message or a report names no symbol the walk can read around,
// and there the model orders every file (benchmarks/README.md, "Kinds").
func StructureDecides(plan *query.Plan, resolved bool) bool {
	return plan.Kind == query.KindFix && plan.Scope == query.ScopeFocused && resolved
}

// Relevance is what places a candidate in the learned ranking.
type Relevance struct {
	Explicit      bool // an @reference: first, in ExplicitOrder
	ExplicitOrder int
	Margin        float64 // the model's margin
	// Likely is false for a file the hand-weighted order places: less
	// than LikelyProbability where StructureDecides.
	Likely bool
	// HandPos is the file's position in the hand-weighted ranking, from
	// 0; -1 when that ranking does not hold it.
	HandPos int
	Path    string
}

// CompareRelevance orders two candidates of the learned ranking:
// explicit files first, in their order; then the likely files by margin;
// then the rest in the hand-weighted order, and those it did not rank by
// margin; ties by path.
func CompareRelevance(a, b Relevance) int {
	if a.Explicit != b.Explicit {
		if a.Explicit {
			return -1
		}
		return 1
	}
	if a.Explicit && a.ExplicitOrder != b.ExplicitOrder {
		return cmp.Compare(a.ExplicitOrder, b.ExplicitOrder)
	}
	la, lb := a.Likely, b.Likely
	if la != lb {
		if la {
			return -1
		}
		return 1
	}
	if !la {
		ha, hb := a.HandPos >= 0, b.HandPos >= 0
		switch {
		case ha && hb && a.HandPos != b.HandPos:
			return cmp.Compare(a.HandPos, b.HandPos)
		case ha != hb:
			if ha {
				return -1
			}
			return 1
		}
	}
	if a.Margin != b.Margin {
		return cmp.Compare(b.Margin, a.Margin)
	}
	return strings.Compare(a.Path, b.Path)
}

// minContrib is the least contribution (in margin units) a feature needs
// to be listed among a file's contributions.
const minContrib = 0.001

// groupIndex files a feature under the first feature of its evidence
// group (see featureGroup), or under itself.
func groupIndex(f int) int {
	if idx, ok := groupFirst[featureGroup(f)]; ok {
		return idx
	}
	return f
}

// groupOf is the group index of a hand-weighted contribution's name;
// numFeatures stands for none.
func groupOf(what string) int {
	if idx, ok := groupFirst[what]; ok {
		return idx
	}
	return numFeatures
}

// groupFirst maps each evidence group to its first feature.
var groupFirst = func() map[string]int {
	m := map[string]int{}
	for f := numFeatures - 1; f >= 0; f-- {
		if g := featureGroup(f); g != "" {
			m[g] = f
		}
	}
	return m
}()

// featureGroup is the evidence a feature belongs to, named as the
// hand-weighted ranker names its contributions, so that a file's reasons
// can be ordered by what the model made of each kind of evidence.
func featureGroup(f int) string {
	switch {
	case f == fSeedExplicit:
		return "explicit"
	case f >= fSeedEntity && f <= fSeedLexical:
		return "seed"
	case f >= fGraph && f <= fGraphMacro:
		return "graph"
	case f == fLexFile || f == fLexFileRR || f == fLexCover || f == fPlain || f == fPlainRR:
		return "lexical"
	case f == fLexSym || f == fLexSymRR || f == fLexSyms:
		return "symbol_lexical"
	case f == fPath:
		return "path"
	case f == fCommits:
		return "commits"
	case f == fPrior:
		return "history"
	case f >= fCatTest && f <= fCatExample:
		return "category"
	}
	return ""
}

// dropZeroCategories leaves out the candidates whose category the
// weights give a factor of 0 (configured weights such as generated = 0),
// as rank.Combine does for the hand-weighted ranker; explicit files stay.
func (e *Engine) dropZeroCategories(cands []Candidate, hand []rank.FileRank, w rank.Weights, includeTests bool) []Candidate {
	if w == (rank.Weights{}) {
		w = rank.DefaultWeights
	}
	zero := func(c analyze.Category) bool {
		switch c {
		case analyze.CatTest:
			return w.Test == 0 && !includeTests
		case analyze.CatGenerated:
			return w.Generated == 0
		case analyze.CatVendored:
			return w.Vendored == 0
		case analyze.CatExample:
			return w.Example == 0
		}
		return false
	}
	explicit := map[analyze.FileID]bool{}
	for _, fr := range hand {
		if fr.Explicit {
			explicit[fr.File] = true
		}
	}
	var out []Candidate // a new slice: cands may be the result's too
	for i := range cands {
		keep := !zero(e.Facts.Files[cands[i].File].Category) || explicit[cands[i].File]
		switch {
		case out != nil && keep:
			out = append(out, cands[i])
		case out == nil && !keep:
			out = append(make([]Candidate, 0, len(cands)-1), cands[:i]...)
		}
	}
	if out == nil {
		return cands
	}
	return out
}

// learnedRank scores the candidates with the model and returns them as a
// ranking in CompareRelevance's order: explicit files first, then by
// margin, the unlikely files in the hand-weighted order where structural
// (StructureDecides). handPos is each file's place in hand, the
// hand-weighted ranking. Each file's score is the model's calibrated
// probability. The first explain files (the ones shown) also get their
// contributions (the features' shares of the margin) and reasons (the
// hand-weighted ranker's, ordered by what the model made of each kind of
// evidence); the rest are only scored.
func (e *Engine) learnedRank(cands []Candidate, hand []rank.FileRank, handPos map[analyze.FileID]int, model *learn.Bound, explain int, structural bool) []rank.FileRank {
	margins := make([]float64, len(cands))
	hands := make([]*rank.FileRank, len(cands))
	rel := make([]Relevance, len(cands))
	var scratch learn.Scratch
	for i := range cands {
		margins[i] = model.Margin(cands[i].Features[:], &scratch)
		r := Relevance{Margin: margins[i], Likely: !structural || model.Model().Probability(margins[i]) >= LikelyProbability, HandPos: -1, Path: e.Facts.Files[cands[i].File].Path}
		if p, ok := handPos[cands[i].File]; ok {
			h := &hand[p]
			hands[i] = h
			r.Explicit, r.ExplicitOrder, r.Path, r.HandPos = h.Explicit, h.ExplicitOrder, h.Path, p
		}
		rel[i] = r
	}
	path := func(i int) string { return rel[i].Path }
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return CompareRelevance(rel[a], rel[b]) })
	contrib := make([]float64, numFeatures)
	shown := make([]int, 0, numFeatures)
	ranked := make([]rank.FileRank, len(order))
	for i, c := range order {
		var fr rank.FileRank
		if h := hands[c]; h != nil {
			fr = *h
		} else {
			fr = rank.FileRank{File: cands[c].File, Path: path(c)}
		}
		fr.Score = math.Max(round4(model.Model().Probability(margins[c])), 0.0001)
		if i < explain || fr.Explicit {
			x := &cands[c].Features
			model.Contributions(x[:], contrib, &scratch)
			var groups [numFeatures + 1]float64 // by group, indexed by the group's first feature
			shown = shown[:0]
			for f, v := range contrib {
				groups[groupIndex(f)] += v
				if math.Abs(v) >= minContrib {
					shown = append(shown, f)
				}
			}
			// Strongest first, ties by name; sorting feature indexes
			// rather than contributions keeps this off the profile.
			slices.SortFunc(shown, func(a, b int) int {
				if c := cmp.Compare(math.Abs(round4(contrib[b])), math.Abs(round4(contrib[a]))); c != 0 {
					return c
				}
				return strings.Compare(FeatureNames[a], FeatureNames[b])
			})
			cs := make([]rank.Contrib, len(shown))
			for k, f := range shown {
				cs[k] = rank.Contrib{What: FeatureNames[f], Value: round4(contrib[f]), Detail: featureDetail(x[f])}
			}
			fr.Reasons = learnedReasons(fr.Contribs, func(what string) float64 { return groups[groupOf(what)] })
			fr.Contribs = cs
		} else {
			fr.Contribs, fr.Reasons = nil, nil
		}
		ranked[i] = fr
	}
	return ranked
}

// learnedReasons orders the hand-weighted ranker's sentences about a file
// by the model's total contribution of each kind of evidence, strongest
// first; evidence the model counted against the file comes last.
func learnedReasons(hand []rank.Contrib, group func(what string) float64) []string {
	cs := append([]rank.Contrib(nil), hand...)
	sort.SliceStable(cs, func(i, j int) bool {
		// The file's own seeds ("seed X (exact match for X)", an
		// @reference) say first why it is there; the rest follow the
		// model's weighing.
		if oi, oj := ownSeed(cs[i]), ownSeed(cs[j]); oi != oj {
			return oi
		}
		return group(cs[i].What) > group(cs[j].What)
	})
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		if c.What == "category" && group("category") >= 0 {
			continue // the model did not hold the category against it
		}
		if t := rank.Sentence(c); t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// ownSeed reports whether a contribution is a seed or an @reference in
// the file itself, not a step of the walk from one elsewhere.
func ownSeed(c rank.Contrib) bool {
	return (c.What == "seed" || c.What == "explicit") && !strings.Contains(c.Detail, "→")
}

// featureDetail says a feature's value for --explain and the JSON.
func featureDetail(v float64) string {
	var buf [24]byte
	return string(strconv.AppendFloat(append(buf[:0], "value "...), round4(v), 'g', -1, 64))
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
