package rank

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Contrib is one named addition to a file's score.
type Contrib struct {
	What   string  `json:"what"`
	Value  float64 `json:"value"`
	Detail string  `json:"detail,omitempty"`
}

// EvidenceKind says where a piece of evidence came from.
type EvidenceKind uint8

const (
	// EvSeed: the query named this symbol or file (entity, path, stack frame).
	EvSeed EvidenceKind = iota + 1
	// EvExplicit: an @reference pointed here.
	EvExplicit
	// EvGraph: expansion reached it from a seed.
	EvGraph
)

// Evidence is one reason, found outside this package (by expansion), to
// rank a file: a seed in it, or a node of it reached by the graph walk.
type Evidence struct {
	File  analyze.FileID
	Sym   analyze.SymID // the symbol concerned, or analyze.NoSym
	Kind  EvidenceKind
	Score float64 // 0..1
	// Reason is said in the file's reasons when this evidence is the
	// strongest of its kind for the file: "seed UserService.FindByEmail
	// (exact)", "called by Login (handlers.go)". It may be empty for
	// evidence that cannot be (expansion gives a reason to the strongest
	// graph visit of each file only).
	Reason string
	// Order ranks explicit evidence among itself: the position of the
	// @reference in the query (lower first). Explicit files keep the order
	// the user wrote them in.
	Order int
}

// Weights of the evidence in the final score. The zero value means
// DefaultWeights.
type Weights struct {
	Seed, Explicit, Graph, Lexical, SymLexical, Path float64
	// Category factors multiply the final score.
	Test, Generated, Vendored, Example float64
	// Commits weighs the votes of past commits whose messages resemble the
	// query, for the files they changed (CombineOptions.Similar).
	Commits float64
	// CoChange weighs, in a review, how often past commits that touched
	// a changed file also touched this one (CombineOptions.CoChange): as
	// strong as a graph relation, since it is one history recorded.
	CoChange float64
	// History scales the version-control prior: a file's score is
	// multiplied by 1 + History × prior, where prior (0..1) is its share of
	// recent change (see CombineOptions.Prior).
	History float64
}

// DefaultWeights are the weights used unless a strategy or configuration
// says otherwise. Named evidence (seeds) dominates; lexical evidence orders
// what the graph does not reach; tests and generated code are demoted.
var DefaultWeights = Weights{
	Seed: 1.0, Explicit: 2.0, Graph: 0.8, Lexical: 0.35, SymLexical: 0.35, Path: 0.25,
	Test: 0.45, Generated: 0.3, Vendored: 0.2, Example: 0.5,
	History: 0.2, Commits: 0.2, CoChange: 0.8,
}

// SymHit is a symbol of a ranked file that carries evidence, for choosing
// the spans a bundle shows.
type SymHit struct {
	Sym    analyze.SymID
	Score  float64
	Reason string // the evidence's reason, if it carried one
}

// FileRank is a file in the ranking.
type FileRank struct {
	File     analyze.FileID
	Path     string
	Score    float64
	Explicit bool
	// ExplicitOrder is the position of the first @reference that named
	// the file (meaningful when Explicit).
	ExplicitOrder int
	Contribs      []Contrib
	Reasons       []string // human-readable, strongest first
	Symbols       []SymHit // best first
}

// CombineOptions configures Combine.
type CombineOptions struct {
	Weights      Weights
	IncludeTests bool // do not demote tests (the task is about tests)
	// Display, when set, turns a matched index term (a stem such as
	// "servic") into the word the user wrote ("service") for reasons;
	// returning "" hides the term.
	Display func(term string) string
	// Similar, when set, holds per file (by FileID) the votes of similar
	// past commits, 0..1, and SimilarDetail the subject of the most similar
	// commit that changed the file.
	Similar       []float64
	SimilarDetail []string
	// CoChange, when set (a review), holds per file (by FileID) the share
	// of past commits touching a changed file that touched this file too,
	// 0..1, and CoChangeDetail says it in words.
	CoChange       []float64
	CoChangeDetail []string
	// CoChangeHits, in a review, are symbols of the co-changed files
	// that spell the change's words: they are shown as the files' spans
	// (FileRank.Symbols) and add nothing to the scores. A hit of a file
	// without a co-change tie is ignored.
	CoChangeHits []SymHit
	// Prior, when set, holds per file (by FileID) how much of the recent
	// change in the repository touched it, 0..1; PriorDetail says it in
	// words for reasons ("changed in 7 of the last 500 commits").
	Prior       []float64
	PriorDetail func(analyze.FileID) string
	// Fusion chooses how the evidence combines: FusionSum adds the
	// normalised values, FusionRRF adds reciprocal ranks.
	Fusion Fusion
	// SymHitMin is the least lexical share (of the best symbol score in the
	// repository) for a symbol to count as a lexical hit of its file.
	SymHitMin float64
}

// Combine ranks the files that have any evidence. Scores:
//
//	score = category × (Seed·seed + Explicit·explicit + Graph·graph
//	                    + Lexical·file_bm25 + SymLexical·best_symbol_bm25 + Path·path)
//
// where each lexical figure is divided by its maximum over the repository,
// seed, explicit and graph are the strongest evidence of that kind in the
// file (max, not sum), and path is the share of the query's weight that
// the file's path matches. The git signals come on top: Commits·similar is
// added and the score is multiplied by 1 + History·prior, each only when
// it takes more than one value over the candidates (a signal equal for
// every file cannot order them, and adds neither score nor reason).
func Combine(facts *analyze.Facts, lex *Lexical, ev []Evidence, opt CombineOptions) []FileRank {
	w := opt.Weights
	if w == (Weights{}) {
		w = DefaultWeights
	}
	if opt.SymHitMin == 0 {
		opt.SymHitMin = 0.25
	}
	n := len(facts.Files)
	type acc struct {
		seed, explicit, graph float64
		seedWhy, explicitWhy  string
		order                 int
		graphWhy              string
		hits                  map[analyze.SymID]SymHit
		reasons               []string
		touched               bool
	}
	accs := make([]acc, n)
	addHit := func(a *acc, h SymHit) {
		if h.Sym == analyze.NoSym {
			return
		}
		if a.hits == nil {
			a.hits = map[analyze.SymID]SymHit{}
		}
		if old, ok := a.hits[h.Sym]; !ok || h.Score > old.Score {
			a.hits[h.Sym] = h
		}
	}
	for _, e := range ev {
		if e.File < 0 || int(e.File) >= n {
			continue
		}
		a := &accs[e.File]
		a.touched = true
		switch e.Kind {
		case EvSeed:
			if e.Score > a.seed {
				a.seed, a.seedWhy = e.Score, e.Reason
			}
		case EvExplicit:
			if a.explicit == 0 || e.Order < a.order {
				a.order, a.explicitWhy = e.Order, e.Reason
			}
			if e.Score > a.explicit {
				a.explicit = e.Score
			}
		case EvGraph:
			if e.Score > a.graph {
				a.graph, a.graphWhy = e.Score, e.Reason
			}
		}
		addHit(a, SymHit{Sym: e.Sym, Score: e.Score, Reason: e.Reason})
	}

	var maxFile, maxSym float64
	bestSym := make([]analyze.SymID, n)
	bestSymScore := make([]float64, n)
	for i := range bestSym {
		bestSym[i] = analyze.NoSym
	}
	if lex != nil {
		for _, v := range lex.File {
			maxFile = math.Max(maxFile, v)
		}
		for s, v := range lex.Sym {
			if v <= 0 {
				continue
			}
			maxSym = math.Max(maxSym, v)
			f := facts.Symbols[s].File
			if v > bestSymScore[f] {
				bestSymScore[f], bestSym[f] = v, analyze.SymID(s)
			}
		}
		for s, v := range lex.Sym {
			if v > 0 && maxSym > 0 && v/maxSym >= opt.SymHitMin {
				f := facts.Symbols[s].File
				accs[f].touched = true
				addHit(&accs[f], SymHit{Sym: analyze.SymID(s), Score: 0.5 * v / maxSym, Reason: "matches the query's words"})
			}
		}
	}
	for _, h := range opt.CoChangeHits {
		if h.Sym < 0 || int(h.Sym) >= len(facts.Symbols) {
			continue
		}
		if f := facts.Symbols[h.Sym].File; opt.CoChange != nil && opt.CoChange[f] > 0 {
			addHit(&accs[f], h)
		}
	}

	// Raw evidence per file.
	raw := make([][numSignals]float64, n)
	for i := range facts.Files {
		a := &accs[i]
		raw[i][sigSeed] = a.seed
		raw[i][sigGraph] = a.graph
		if lex != nil {
			if maxFile > 0 {
				raw[i][sigLex] = lex.File[i] / maxFile
			}
			if maxSym > 0 {
				raw[i][sigSymLex] = bestSymScore[i] / maxSym
			}
			raw[i][sigPath] = lex.Path[i]
		}
	}
	val := raw
	if opt.Fusion == FusionRRF {
		val = reciprocalRanks(facts, raw)
	}

	// Candidates: files with any evidence. Git signals (past commits like
	// the query, the change prior) count only where they tell candidates
	// apart: a signal that gives every candidate the same value (one
	// commit that touched the whole tree, a repository of one commit)
	// would add the same to all and a reason line to each, saying nothing.
	var cands []int
	for i := range facts.Files {
		a := &accs[i]
		if a.touched || raw[i][sigLex] > 0 || raw[i][sigPath] > 0 || (opt.Similar != nil && opt.Similar[i] > 0) ||
			(opt.CoChange != nil && opt.CoChange[i] > 0) {
			cands = append(cands, i)
		}
	}
	useSimilar := opt.Similar != nil && discriminates(opt.Similar, cands)

	out := make([]FileRank, 0, len(cands))
	for _, i := range cands {
		a := &accs[i]
		fr := FileRank{File: analyze.FileID(i), Path: facts.Files[i].Path, Explicit: a.explicit > 0, ExplicitOrder: a.order}
		add := func(what string, weight, v float64, detail string) {
			if v <= 0 || weight <= 0 {
				return
			}
			fr.Contribs = append(fr.Contribs, Contrib{What: what, Value: round4(weight * v), Detail: detail})
			fr.Score += weight * v
		}
		add("explicit", w.Explicit, a.explicit, a.explicitWhy)
		add("seed", w.Seed, val[i][sigSeed], a.seedWhy)
		add("graph", w.Graph, val[i][sigGraph], a.graphWhy)
		var matched string
		if lex != nil && len(lex.Matched[i]) > 0 {
			words := lex.Matched[i]
			if opt.Display != nil {
				words = nil
				for _, t := range lex.Matched[i] {
					words = append(words, opt.Display(t))
				}
			}
			matched = strings.Join(dedupe(words), ", ")
		}
		add("lexical", w.Lexical, val[i][sigLex], matched)
		if bestSym[i] != analyze.NoSym {
			s := &facts.Symbols[bestSym[i]]
			add("symbol_lexical", w.SymLexical, val[i][sigSymLex], s.QualName(facts.Files[i].Lang))
		}
		add("path", w.Path, val[i][sigPath], facts.Files[i].Path)
		if useSimilar && opt.Similar[i] > 0 {
			detail := ""
			if opt.SimilarDetail != nil {
				detail = opt.SimilarDetail[i]
			}
			add("commits", w.Commits, opt.Similar[i], detail)
		}
		if opt.CoChange != nil && opt.CoChange[i] > 0 {
			detail := ""
			if opt.CoChangeDetail != nil {
				detail = opt.CoChangeDetail[i]
			}
			add("cochange", w.CoChange, opt.CoChange[i], detail)
		}
		if fr.Score > 0 {
			out = append(out, fr)
		}
	}

	// The prior scales what the evidence says; it is judged on the files
	// the evidence kept.
	usePrior := false
	if opt.Prior != nil && w.History > 0 {
		kept := make([]int, len(out))
		for j := range out {
			kept[j] = int(out[j].File)
		}
		usePrior = discriminates(opt.Prior, kept)
	}
	final := out[:0]
	for _, fr := range out {
		i := int(fr.File)
		a := &accs[i]
		if usePrior && opt.Prior[i] > 0 {
			f := 1 + w.History*opt.Prior[i]
			detail := ""
			if opt.PriorDetail != nil {
				detail = opt.PriorDetail(fr.File)
			}
			fr.Contribs = append(fr.Contribs, Contrib{What: "history", Value: round4(f), Detail: detail})
			fr.Score *= f
		}
		factor := 1.0
		switch facts.Files[i].Category {
		case analyze.CatTest:
			if !opt.IncludeTests {
				factor = w.Test
			} else {
				factor = math.Max(w.Test, 0.8)
			}
		case analyze.CatGenerated:
			factor = w.Generated
		case analyze.CatVendored:
			factor = w.Vendored
		case analyze.CatExample:
			factor = w.Example
		}
		if factor != 1 && !fr.Explicit {
			fr.Contribs = append(fr.Contribs, Contrib{What: "category", Value: round4(factor), Detail: facts.Files[i].Category.String() + " (factor)"})
			fr.Score *= factor
		}
		if fr.Score <= 0 {
			continue
		}
		fr.Score = round4(fr.Score)
		for _, h := range a.hits {
			fr.Symbols = append(fr.Symbols, h)
		}
		sort.Slice(fr.Symbols, func(x, y int) bool {
			if fr.Symbols[x].Score != fr.Symbols[y].Score {
				return fr.Symbols[x].Score > fr.Symbols[y].Score
			}
			return fr.Symbols[x].Sym < fr.Symbols[y].Sym
		})
		fr.Reasons = reasonsOf(fr)
		final = append(final, fr)
	}
	out = final
	sort.SliceStable(out, func(x, y int) bool {
		if out[x].Explicit != out[y].Explicit {
			return out[x].Explicit
		}
		if out[x].Explicit && out[x].ExplicitOrder != out[y].ExplicitOrder {
			return out[x].ExplicitOrder < out[y].ExplicitOrder
		}
		if out[x].Score != out[y].Score {
			return out[x].Score > out[y].Score
		}
		return out[x].Path < out[y].Path
	})
	return out
}

// discriminates reports whether vals (by FileID) takes at least two
// different values over the files in idx: only then can the signal change
// their order.
func discriminates(vals []float64, idx []int) bool {
	for _, i := range idx[min(1, len(idx)):] {
		if vals[i] != vals[idx[0]] {
			return true
		}
	}
	return false
}

// reasonsOf turns contributions into sentences, strongest first.
func reasonsOf(fr FileRank) []string {
	cs := append([]Contrib(nil), fr.Contribs...)
	sort.SliceStable(cs, func(i, j int) bool {
		if last(cs[i].What) != last(cs[j].What) {
			return last(cs[j].What) // factors are said last
		}
		return cs[i].Value > cs[j].Value
	})
	var out []string
	for _, c := range cs {
		if t := Sentence(c); t != "" {
			out = append(out, t)
		}
	}
	return dedupe(out)
}

// last reports whether a contribution is a factor, said after the
// evidence.
func last(what string) bool { return what == "category" || what == "history" }

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if x == "" || seen[x] {
			continue
		}
		seen[x] = true
		out = append(out, x)
	}
	return out
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }

// String renders a contribution for --explain.
func (c Contrib) String() string {
	if c.Detail == "" {
		return fmt.Sprintf("%s %+.3f", c.What, c.Value)
	}
	return fmt.Sprintf("%s %+.3f (%s)", c.What, c.Value, c.Detail)
}

// Fusion is how Combine merges the per-signal evidence of a file.
type Fusion uint8

const (
	// FusionSum adds each signal's value (seed and graph strengths in
	// 0..1, lexical scores divided by their maximum) times its weight.
	FusionSum Fusion = iota
	// FusionRRF adds, per signal, weight × (k+1)/(k+rank): reciprocal rank
	// fusion, which needs no calibration between signals and lets no single
	// signal's scale dominate.
	FusionRRF
)

// Signals fused by Combine.
const (
	sigSeed = iota
	sigGraph
	sigLex
	sigSymLex
	sigPath
	numSignals
)

// rrfK is the rank offset of reciprocal rank fusion: how fast a signal's
// vote decays down its ranking.
const rrfK = 10

// reciprocalRanks replaces each signal's values by (k+1)/(k+rank) of the
// file in that signal's ranking (ties share the better rank; files without
// the signal get 0).
func reciprocalRanks(facts *analyze.Facts, raw [][numSignals]float64) [][numSignals]float64 {
	out := make([][numSignals]float64, len(raw))
	idx := make([]int, 0, len(raw))
	for sig := 0; sig < numSignals; sig++ {
		idx = idx[:0]
		for i := range raw {
			if raw[i][sig] > 0 {
				idx = append(idx, i)
			}
		}
		sort.Slice(idx, func(a, b int) bool {
			x, y := raw[idx[a]][sig], raw[idx[b]][sig]
			if x != y {
				return x > y
			}
			return facts.Files[idx[a]].Path < facts.Files[idx[b]].Path
		})
		rank := 0
		for j, i := range idx {
			if j == 0 || raw[i][sig] != raw[idx[j-1]][sig] {
				rank = j + 1
			}
			out[i][sig] = float64(rrfK+1) / float64(rrfK+rank)
		}
	}
	return out
}
