package expand

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/graph"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// Engine holds what is built once per repository.
type Engine struct {
	Facts *analyze.Facts
	Graph *graph.Graph
	Index *rank.Index
	Names *rank.Names
	// Prior is the per-file version-control prior (by FileID, 0..1) and
	// PriorDetail its wording; both optional (see rank.CombineOptions).
	Prior       []float64
	PriorDetail func(analyze.FileID) string
	// Recency is, per file, how recently a commit changed it (1 for the
	// newest commit, decaying; 0 when not recently); optional, a feature
	// of the learned ranker.
	Recency []float64

	fanInOnce   sync.Once
	fanInCounts []int // features.go
}

// NewEngine builds the graph, the lexical index and the name index over
// normalised facts. src gives file contents for the lexical index.
func NewEngine(ctx context.Context, facts *analyze.Facts, src rank.Source) (*Engine, error) {
	// The graph and the name table only read the facts: they are built
	// while the lexical index is.
	var g *graph.Graph
	var names *rank.Names
	var wg sync.WaitGroup
	wg.Go(func() {
		g = graph.Build(facts)
		names = rank.NewNames(facts)
	})
	ix, err := rank.BuildIndex(ctx, facts, src)
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("indexing: %w", err)
	}
	return &Engine{Facts: facts, Graph: g, Index: ix, Names: names}, nil
}

// Options configures one expansion. The zero value means: the plan's
// strategy and depth, 30 files, tests kept.
type Options struct {
	Strategy string // "auto", a name, or names joined with "+"
	Depth    int    // 0: the larger of the strategy's and the plan's depth
	MaxFiles int    // length of the ranked list; 0 means 30
	NoTests  bool   // drop test files (explicit references stay)
	Weights  rank.Weights
	// Similar and SimilarDetail are the votes of past commits with
	// messages like the query, per file (see rank.CombineOptions).
	Similar       []float64
	SimilarDetail []string
	// CoChange and CoChangeDetail are, in a review, how often past commits
	// touching a changed file touched each file (see rank.CombineOptions).
	CoChange       []float64
	CoChangeDetail []string
	// CoChangeHits are the co-changed files' symbols that spell the
	// change's words, shown as their spans (see rank.CombineOptions).
	CoChangeHits []rank.SymHit
	// MaxSpans caps the relevant spans reported per file (default 6).
	MaxSpans int
	// MaxVisits caps the symbols one strategy's walk reaches, which bounds
	// its memory on huge graphs; 0 means DefaultMaxVisits. Reaching it
	// adds a warning.
	MaxVisits int
	// Model, when set, ranks the candidate files (learned.go); nil means
	// the hand-weighted combination of rank.Combine.
	Model *learn.Bound
	// Features asks for the candidates' feature vectors in
	// Result.Candidates (for training a model).
	Features bool
}

// DefaultMaxVisits is the default of Options.MaxVisits.
const DefaultMaxVisits = 200_000

// Explicit is a place an @reference resolved to: a file, optionally a line
// range in it.
type Explicit struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line,omitempty"` // 0: the whole file
	EndLine   int    `json:"end_line,omitempty"`
	Reason    string `json:"reason,omitempty"` // "@internal/auth/token.go#L10-20", "@grep:\"ErrExpired\" match"
}

// Span is a line range of a file worth showing, with the symbol it covers.
type Span struct {
	Start, End int
	Symbol     string
	// Rank is the span's place in relevance order, from 0: the explicit
	// ranges all first, then the symbols by score, those of equal score
	// sharing a rank. Spans are listed by line.
	Rank int
}

// File is a ranked file with everything the bundle and --explain need.
type File struct {
	rank.FileRank
	Lang     analyze.Lang
	Category analyze.Category
	Spans    []Span
	// ReadAt is the file's place in the reading order, from 1, when that
	// differs from the ranking (reading.go); 0 otherwise.
	ReadAt int
}

// Seed is a starting point of the expansion, for --explain.
type Seed struct {
	Label  string // symbol or file
	Path   string
	Line   int
	Score  float64
	Source string // "entity", "frame", "path", "area", "explicit", "entrypoint", "lexical"
}

// Result is an expansion's outcome.
type Result struct {
	Plan        *query.Plan
	Strategies  []string
	Depth       int
	Resolutions []rank.Resolution
	// SpentTerms are, for a fix, the query's terms that only spell names
	// that resolved confidently; they count only in the files defining
	// those names (names.go).
	SpentTerms []string
	Seeds      []Seed
	Files      []File
	// Considered is the number of files with any evidence before the
	// list was cut to MaxFiles.
	Considered int
	Warnings   []string
	// Ranker is RankerLearned or RankerHand, and RankerWhy, when the
	// caller chose it by the query's kind, says so.
	Ranker    string
	RankerWhy string
	// Candidates are the files the learned ranker scores, with their
	// features (FeatureNames), when Options.Features asked for them.
	Candidates []Candidate
	// Functions are the functions and methods of the best files, best
	// first (functions.go).
	Functions []Function
}

// Expand runs the pipeline for one plan.
func (e *Engine) Expand(ctx context.Context, plan *query.Plan, explicit []Explicit, opt Options) (*Result, error) {
	strategies, err := Lookup(opt.Strategy, plan.Strategy)
	if err != nil {
		return nil, err
	}
	if opt.MaxFiles <= 0 {
		opt.MaxFiles = 30
	}
	if opt.MaxSpans <= 0 {
		opt.MaxSpans = 6
	}
	if opt.MaxVisits <= 0 {
		opt.MaxVisits = DefaultMaxVisits
	}
	res := &Result{Plan: plan}
	for _, s := range strategies {
		res.Strategies = append(res.Strategies, s.Name)
	}

	sb := seedBuilder{e: e, testsWanted: plan.Action == query.ActionTest}
	sb.entities(plan, res)
	lex := e.Index.Score(plan.Terms)
	// For a fix, the words of names that resolved count in the files the
	// walk reaches only where the names are defined (names.go); lexical
	// seeds are chosen without them, so that the callers that spell the
	// names do not seed the walk.
	spent := e.spendNames(plan, res.Resolutions)
	sb.lex = lex
	if spent != nil {
		res.SpentTerms = spent.terms
		sb.lex = spent.apply(e.Facts, lex.Clone(), func(analyze.FileID) bool { return true })
	}
	sb.frames(plan)
	sb.paths(plan)
	sb.areas(plan)
	sb.explicit(explicit)
	namedSeeds := len(sb.seeds)

	var evidence []rank.Evidence
	evidence = append(evidence, sb.evidence...)
	var allVisits []graph.Visit
	for _, st := range strategies {
		depth := opt.Depth
		if depth <= 0 {
			depth = max(st.Depth, min(plan.Depth, st.Depth+1))
		}
		res.Depth = max(res.Depth, depth)
		seeds := sb.walkSeeds(st)
		visits, err := e.Graph.Walk(ctx, seeds, graph.WalkOptions{
			MaxDepth:      depth,
			Weights:       st.weightsFor(plan),
			FanoutDamping: true,
			MaxVisits:     opt.MaxVisits,
		})
		if err != nil {
			return nil, err
		}
		if len(visits) >= opt.MaxVisits {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the %s walk stopped at its limit of %d symbols; code farther from the seeds was not considered", st.Name, opt.MaxVisits))
		}
		evidence = append(evidence, e.graphEvidence(visits)...)
		if opt.Model != nil || opt.Features {
			allVisits = append(allVisits, visits...)
		}
	}
	res.Seeds = sb.report()
	if spent != nil {
		reached := make([]bool, len(e.Facts.Files))
		for _, ev := range evidence {
			reached[ev.File] = true
		}
		lex = spent.apply(e.Facts, lex, func(f analyze.FileID) bool { return reached[f] })
	}

	// A review wants the tests that exercise the change as much as the
	// code: they are not demoted.
	includeTests := plan.IncludeTests && (plan.Action == query.ActionTest || plan.Action == query.ActionDebug) ||
		plan.Kind == query.KindDiff
	ranked := rank.Combine(e.Facts, lex, evidence, rank.CombineOptions{
		Weights:        opt.Weights,
		IncludeTests:   includeTests,
		Display:        plan.TermWords().Display,
		Prior:          e.Prior,
		Similar:        opt.Similar,
		SimilarDetail:  opt.SimilarDetail,
		CoChange:       opt.CoChange,
		CoChangeDetail: opt.CoChangeDetail,
		CoChangeHits:   opt.CoChangeHits,
		PriorDetail:    e.PriorDetail,
	})
	res.Considered = len(ranked)
	res.Ranker = RankerHand
	var handPos map[analyze.FileID]int // places in the hand-weighted order, when the model ranks
	structural := focusedFix(plan, res)
	if opt.Model != nil || opt.Features {
		cands := e.candidates(featureInput{
			plan:     plan,
			lex:      lex,
			plain:    e.Index.ScorePlain(plan.Text),
			seeds:    sb.bySource,
			visits:   allVisits,
			ranked:   ranked,
			similar:  opt.Similar,
			resolved: namedSeeds,
		})
		if opt.Features {
			res.Candidates = cands
		}
		if opt.Model != nil {
			cands = e.dropZeroCategories(cands, ranked, opt.Weights, includeTests)
			handPos = positions(ranked)
			ranked = e.learnedRank(cands, ranked, handPos, opt.Model, opt.MaxFiles, structural)
			res.Ranker = RankerLearned
		}
	}
	for _, fr := range ranked {
		f := &e.Facts.Files[fr.File]
		if opt.NoTests && f.Category == analyze.CatTest && !fr.Explicit {
			continue
		}
		if len(res.Files) >= opt.MaxFiles && !fr.Explicit {
			continue
		}
		res.Files = append(res.Files, File{
			FileRank: fr,
			Lang:     f.Lang,
			Category: f.Category,
			Spans:    e.spans(fr, sb.explicitSpans[fr.File], opt.MaxSpans),
		})
	}
	if handPos != nil && structural {
		setReadingOrder(res.Files, handPos)
	}
	res.Functions = e.rankFunctions(res.Files, lex)
	return res, nil
}

// graphEvidence turns the visits of a walk into evidence. The strongest
// visit of each file has the path of steps from its seed as its reason:
// rank.Combine keeps that one reason for the file, and rendering a path
// for every visit took a tenth of a resident query's CPU. Seeds themselves
// are not graph evidence: their own evidence was recorded when they were
// chosen.
func (e *Engine) graphEvidence(visits []graph.Visit) []rank.Evidence {
	byNode := make(map[graph.NodeID]graph.Visit, len(visits))
	for _, v := range visits {
		byNode[v.Node] = v
	}
	var out []rank.Evidence
	// The strongest visit of each file, the first among equals: the one
	// whose reason rank.Combine keeps. Only it is given its path.
	best := map[analyze.FileID]int{}
	var nodes []graph.NodeID
	for _, v := range visits {
		if v.Depth == 0 || e.Graph.IsPackage(v.Node) {
			continue
		}
		fid := e.Graph.FileOf(v.Node)
		sym := analyze.NoSym
		if e.Graph.IsSym(v.Node) {
			sym = e.Graph.Sym(v.Node)
		}
		if i, ok := best[fid]; !ok || v.Score > out[i].Score {
			best[fid] = len(out)
		}
		out = append(out, rank.Evidence{File: fid, Sym: sym, Kind: rank.EvGraph, Score: v.Score})
		nodes = append(nodes, v.Node)
	}
	for _, i := range best {
		out[i].Reason = e.pathReason(byNode, nodes[i])
	}
	return out
}

// maxReasonSteps is how many steps of a long path a reason shows (the
// last ones); a path grows past the walk depth when a seed was itself
// reached, more strongly, from another seed.
const maxReasonSteps = 3

// pathReason renders the chain of steps from a seed to n:
// "seed UserService.FindByEmail → calls → UserRepository.GetByEmail".
func (e *Engine) pathReason(byNode map[graph.NodeID]graph.Visit, n graph.NodeID) string {
	path := graph.PathTo(byNode, n)
	var b strings.Builder
	for i, v := range path {
		if i == 0 {
			b.WriteString("seed ")
		} else if len(path) > maxReasonSteps+1 && i < len(path)-maxReasonSteps {
			if i == 1 {
				b.WriteString(" → …")
			}
			continue
		} else {
			origin := ""
			if v.Origin == analyze.OriginSCIP {
				origin = " (scip)" // the edge came from a SCIP index, not our own analysis
			}
			fmt.Fprintf(&b, " → %s%s → ", stepWords(v.Via, v.Dir), origin)
		}
		b.WriteString(e.Graph.Label(v.Node))
	}
	return b.String()
}

// spanShare is the least share of a file's best symbol score for another
// symbol of the file to be shown as a relevant span.
const spanShare = 0.4

// spans picks the line ranges of a ranked file worth showing: the explicit
// ranges first, then the symbols with evidence, best first, dropping a
// symbol nested in one already chosen.
func (e *Engine) spans(fr rank.FileRank, explicit []Span, maxSpans int) []Span {
	out := append([]Span(nil), explicit...) // all of rank 0
	rank, last := 0, math.Inf(1)
	if len(out) > 0 {
		rank = 1
	}
	var best float64
	if len(fr.Symbols) > 0 {
		best = fr.Symbols[0].Score
	}
	for _, h := range fr.Symbols {
		if len(out) >= maxSpans || h.Score < spanShare*best {
			break
		}
		s := &e.Facts.Symbols[h.Sym]
		covered := false
		for _, sp := range out {
			if s.Start >= sp.Start && s.End <= sp.End {
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		// Symbols of equal score share a rank: the bundle shows them
		// together or not at all.
		if h.Score < last*(1-1e-9) && last != math.Inf(1) {
			rank++
		}
		last = h.Score
		out = append(out, Span{Start: s.Start, End: s.End, Symbol: s.QualName(e.Facts.Files[s.File].Lang), Rank: rank})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].End > out[j].End
	})
	return out
}
