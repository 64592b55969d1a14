package expand

import (
	"math"
	"sort"
	"strconv"

	"github.com/ctxexpand/ctxexpand/analyze"
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
)

// minContrib is the least contribution (in margin units) a feature needs
// to be listed among a file's contributions.
const minContrib = 0.001

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

// learnedRank scores the candidates with the model and returns them as a
// ranking: explicit files first in their order, then by margin (ties by
// path). Each file's score is the model's calibrated probability. The
// first explain files (the ones shown) also get their contributions (the
// features' shares of the margin) and reasons (the hand-weighted ranker's,
// ordered by what the model made of each kind of evidence); the rest are
// only scored.
func (e *Engine) learnedRank(cands []Candidate, hand []rank.FileRank, model *learn.Bound, explain int) []rank.FileRank {
	byFile := make(map[analyze.FileID]*rank.FileRank, len(hand))
	for i := range hand {
		byFile[hand[i].File] = &hand[i]
	}
	type scored struct {
		fr     rank.FileRank
		cand   *Candidate
		margin float64
	}
	out := make([]scored, len(cands))
	var scratch learn.Scratch
	for i := range cands {
		c := &cands[i]
		var fr rank.FileRank
		if h := byFile[c.File]; h != nil {
			fr = *h
		} else {
			fr = rank.FileRank{File: c.File, Path: e.Facts.Files[c.File].Path}
		}
		m := model.Margin(c.Features[:], &scratch)
		fr.Score = math.Max(round4(model.Model().Probability(m)), 0.0001)
		out[i] = scored{fr, c, m}
	}
	sort.SliceStable(out, func(x, y int) bool {
		a, b := &out[x].fr, &out[y].fr
		if a.Explicit != b.Explicit {
			return a.Explicit
		}
		if a.Explicit && a.ExplicitOrder != b.ExplicitOrder {
			return a.ExplicitOrder < b.ExplicitOrder
		}
		if out[x].margin != out[y].margin {
			return out[x].margin > out[y].margin
		}
		return a.Path < b.Path
	})
	contrib := make([]float64, numFeatures)
	ranked := make([]rank.FileRank, len(out))
	for i := range out {
		fr := out[i].fr
		if i < explain || fr.Explicit {
			model.Contributions(out[i].cand.Features[:], contrib, &scratch)
			groups := map[string]float64{}
			var cs []rank.Contrib
			for f, v := range contrib {
				if g := featureGroup(f); g != "" {
					groups[g] += v
				}
				if math.Abs(v) >= minContrib {
					cs = append(cs, rank.Contrib{What: FeatureNames[f], Value: round4(v), Detail: featureDetail(out[i].cand.Features[f])})
				}
			}
			sort.SliceStable(cs, func(a, b int) bool {
				if math.Abs(cs[a].Value) != math.Abs(cs[b].Value) {
					return math.Abs(cs[a].Value) > math.Abs(cs[b].Value)
				}
				return cs[a].What < cs[b].What
			})
			fr.Reasons = learnedReasons(fr.Contribs, groups)
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
func learnedReasons(hand []rank.Contrib, groups map[string]float64) []string {
	cs := append([]rank.Contrib(nil), hand...)
	sort.SliceStable(cs, func(i, j int) bool {
		return groups[cs[i].What] > groups[cs[j].What]
	})
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		if c.What == "category" && groups["category"] >= 0 {
			continue // the model did not hold the category against it
		}
		if t := rank.Sentence(c); t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// featureDetail says a feature's value for --explain and the JSON.
func featureDetail(v float64) string {
	return "value " + strconv.FormatFloat(round4(v), 'g', -1, 64)
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
