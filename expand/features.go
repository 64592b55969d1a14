package expand

import (
	"cmp"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/graph"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Features of a candidate file for the learned ranker.
//
// Every value is computed by the pipeline anyway: the seeds a file holds
// (by where they came from), how the graph walk reached it (score, depth,
// and the kind of the last step), its lexical scores at symbol and file
// level, the benchmark baseline's plain BM25, its path, the version-control
// signals, the hand-weighted combination, and what kind of file it is.
// Scores that have no natural scale are divided by their maximum over the
// repository for the query; ranks are given as reciprocal ranks (1 for the
// best, 0 when absent), which stay bounded and monotone for a linear model.
//
// The order of FeatureNames is the order of a feature vector. A model file
// names the features it was trained on; rank/learn binds them by name, so
// adding a feature at the end does not break a shipped model, and a model
// that needs a feature this build lacks is refused.

// Feature indexes.
const (
	fQEntities = iota
	fQTerms
	fQFrames
	fQPaths
	fQLen
	fQFiles

	fSeedEntity
	fSeedFrame
	fSeedPath
	fSeedArea
	fSeedExplicit
	fSeedEntry
	fSeedLexical

	fGraph
	fGraphDepth
	fGraphSyms
	fGraphCallee
	fGraphCaller
	fGraphUses
	fGraphUsedBy
	fGraphMember
	fGraphImpl
	fGraphTests
	fGraphImports
	fGraphMacro

	fLexFile
	fLexFileRR
	fLexSym
	fLexSymRR
	fLexSyms
	fLexCover
	fPath
	fPlain
	fPlainRR
	fLexIdent
	fNameInQuery
	fSameDirSeed

	fCommits
	fPrior
	fRecent

	fHand
	fHandRR

	fCatTest
	fCatGenerated
	fCatVendored
	fCatExample
	fSize
	fSyms
	fMain
	fModRoot
	fDirDepth
	fFanIn

	numFeatures
)

// FeatureNames name the features, in vector order. Names never change
// meaning: a feature computed differently gets a new name.
var FeatureNames = [numFeatures]string{
	fQEntities: "q_entities", // log(1+symbols the query's names resolved to)
	fQTerms:    "q_terms",    // log(1+query terms)
	fQFrames:   "q_frames",   // log(1+stack frames in the query)
	fQPaths:    "q_paths",    // log(1+paths and areas named)
	fQLen:      "q_len",      // log(1+bytes of the query)
	fQFiles:    "q_files",    // log(1+files in the repository)

	fSeedEntity:   "seed_entity",   // strongest seed from a symbol the query names
	fSeedFrame:    "seed_frame",    // from a stack frame
	fSeedPath:     "seed_path",     // the file or its directory is named
	fSeedArea:     "seed_area",     // in the directory an area prefix names
	fSeedExplicit: "seed_explicit", // an @reference points here
	fSeedEntry:    "seed_entry",    // holds an entry point the strategy seeds
	fSeedLexical:  "seed_lexical",  // holds one of the best lexical matches (seeding the walk)

	fGraph:        "graph",         // best walk score of a symbol of the file
	fGraphDepth:   "graph_depth",   // 1/(fewest steps from a seed); 0 when not reached
	fGraphSyms:    "graph_syms",    // log(1+symbols of the file reached)
	fGraphCallee:  "graph_callee",  // best score reached by a call, forward (seed calls it)
	fGraphCaller:  "graph_caller",  // ... by a call, backward (it calls the seed)
	fGraphUses:    "graph_uses",    // ... by a reference, forward (a type the seed uses)
	fGraphUsedBy:  "graph_used_by", // ... by a reference, backward
	fGraphMember:  "graph_member",  // ... by method-of, field, embeds or contains
	fGraphImpl:    "graph_impl",    // ... by implements, either way
	fGraphTests:   "graph_tests",   // ... by a tests edge, either way
	fGraphImports: "graph_imports", // ... by an import
	fGraphMacro:   "graph_macro",   // ... by a macro invocation

	fLexFile:   "lex_file",    // BM25 of the whole file (stemmed terms), / max
	fLexFileRR: "lex_file_rr", // reciprocal rank by it
	fLexSym:    "lex_sym",     // best symbol's BM25F, / max
	fLexSymRR:  "lex_sym_rr",  // reciprocal rank of the file by it
	fLexSyms:   "lex_syms",    // log(1+symbols scoring at least a quarter of the best)
	fLexCover:  "lex_cover",   // share of the query's term weight the file holds
	fPath:      "path",        // share of the query's weight its path matches
	fPlain:     "bm25",        // the benchmark baseline's BM25 of the file, / max
	fPlainRR:   "bm25_rr",     // reciprocal rank by it

	fLexIdent:    "lex_ident",     // share of the query's code-style identifiers the file holds
	fNameInQuery: "name_in_query", // the file's base name is a word of the query
	fSameDirSeed: "same_dir_seed", // in the directory of a file a named symbol or path seeds

	fCommits: "commits", // votes of past commits with similar messages
	fPrior:   "prior",   // share of recent change
	fRecent:  "recent",  // 1/(1+n/10), n commits newer than the last that changed it

	fHand:   "hand",    // the hand-weighted score, / max
	fHandRR: "hand_rr", // reciprocal rank by it

	fCatTest:      "cat_test",
	fCatGenerated: "cat_generated",
	fCatVendored:  "cat_vendored",
	fCatExample:   "cat_example",
	fSize:         "size",      // log(1+bytes)
	fSyms:         "syms",      // log(1+symbols declared)
	fMain:         "main",      // declares a program's main function
	fModRoot:      "mod_root",  // lib.rs, main.rs, mod.rs or a Go package's doc.go
	fDirDepth:     "dir_depth", // directories above the file
	fFanIn:        "fan_in",    // log(1+symbols of other files calling or using its own)
}

// Seed sources, for the seed features.
var seedFeature = map[string]int{
	"entity":     fSeedEntity,
	"frame":      fSeedFrame,
	"path":       fSeedPath,
	"area":       fSeedArea,
	"explicit":   fSeedExplicit,
	"entrypoint": fSeedEntry,
	"lexical":    fSeedLexical,
}

// Candidate is a file the learned ranker scores, with its features.
type Candidate struct {
	File     analyze.FileID
	Features [numFeatures]float64
}

// Candidate sources: how many files each signal contributes to the
// candidate set at most. The plain BM25 list is long enough that what the
// benchmark baseline finds in its top ten is always a candidate.
const (
	candHand    = 120
	candPlain   = 30
	candLexFile = 20
	candLexSym  = 20
	candGraph   = 30
	candCommits = 10
)

// featureInput is what one expansion computed, for the features.
type featureInput struct {
	plan    *query.Plan
	lex     *rank.Lexical
	plain   []float64
	seeds   map[analyze.FileID]*[numFeatures]float64 // seed features only
	visits  []graph.Visit
	ranked  []rank.FileRank
	similar []float64
	// resolved counts the seeds the query's own words made (entities,
	// frames, paths, explicit references).
	resolved int
}

// candidates picks the files to score and computes their features,
// ordered by file.
func (e *Engine) candidates(in featureInput) []Candidate {
	facts := e.Facts
	n := len(facts.Files)
	pick := map[analyze.FileID]bool{}
	for i, fr := range in.ranked {
		if i < candHand || fr.Explicit {
			pick[fr.File] = true
		}
	}
	for f := range in.seeds {
		pick[f] = true
	}
	topOf := func(vals []float64, k int) {
		for _, f := range topFiles(vals, k) {
			pick[f] = true
		}
	}
	topOf(in.plain, candPlain)
	topOf(in.lex.File, candLexFile)
	symBest := bestSymPerFile(facts, in.lex.Sym)
	topOf(symBest, candLexSym)
	graphBest := make([]float64, n)
	for _, v := range in.visits {
		if v.Depth == 0 || e.Graph.IsPackage(v.Node) {
			continue
		}
		f := e.Graph.FileOf(v.Node)
		graphBest[f] = math.Max(graphBest[f], v.Score)
	}
	topOf(graphBest, candGraph)
	if in.similar != nil {
		topOf(in.similar, candCommits)
	}

	files := make([]analyze.FileID, 0, len(pick))
	for f := range pick {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i] < files[j] })

	// Per-query scalings and ranks.
	lexFileRR := reciprocalRanks(in.lex.File)
	lexSymRR := reciprocalRanks(symBest)
	plainRR := reciprocalRanks(in.plain)
	maxFile, maxSym, maxPlain := maxOf(in.lex.File), maxOf(symBest), maxOf(in.plain)
	handScore := make(map[analyze.FileID]float64, len(in.ranked))
	handRR := make(map[analyze.FileID]float64, len(in.ranked))
	var maxHand float64
	for i, fr := range in.ranked {
		handScore[fr.File] = fr.Score
		handRR[fr.File] = 1 / float64(i+1)
		maxHand = math.Max(maxHand, fr.Score)
	}
	var symCut float64
	if m := maxOf(in.lex.Sym); m > 0 {
		symCut = 0.25 * m
	}
	lexSyms := map[analyze.FileID]int{}
	for s, v := range in.lex.Sym {
		if v > 0 && v >= symCut {
			lexSyms[facts.Symbols[s].File]++
		}
	}
	termWeight := map[string]float64{}
	var totalWeight float64
	idents := map[string]bool{}
	for _, t := range in.plan.Terms {
		if t.Weight > 0 {
			termWeight[t.Text] += t.Weight
			totalWeight += t.Weight
		}
		if t.Kind == query.TermIdent {
			idents[t.Text] = true
		}
	}
	words := queryWords(in.plan.Text)
	seedDirs := map[string]bool{}
	for f, s := range in.seeds {
		if s[fSeedEntity] > 0 || s[fSeedFrame] > 0 || s[fSeedPath] > 0 || s[fSeedExplicit] > 0 {
			seedDirs[path.Dir(facts.Files[f].Path)] = true
		}
	}
	type graphAcc struct {
		depth int
		syms  int
	}
	gacc := map[analyze.FileID]*graphAcc{}
	graphKinds := map[analyze.FileID]*[numFeatures]float64{}
	for _, v := range in.visits {
		if v.Depth == 0 || e.Graph.IsPackage(v.Node) {
			continue
		}
		f := e.Graph.FileOf(v.Node)
		if !pick[f] {
			continue
		}
		a := gacc[f]
		if a == nil {
			a = &graphAcc{depth: v.Depth}
			gacc[f] = a
			graphKinds[f] = &[numFeatures]float64{}
		}
		a.depth = min(a.depth, v.Depth)
		if e.Graph.IsSym(v.Node) {
			a.syms++
		}
		k := viaFeature(v.Via, v.Dir)
		graphKinds[f][k] = math.Max(graphKinds[f][k], v.Score)
	}
	fanIn := e.fanIn()

	q := [numFeatures]float64{}
	q[fQEntities] = math.Log1p(float64(in.resolved))
	q[fQTerms] = math.Log1p(float64(len(in.plan.Terms)))
	q[fQFrames] = math.Log1p(float64(len(in.plan.Frames)))
	q[fQPaths] = math.Log1p(float64(len(in.plan.Paths) + len(in.plan.Areas)))
	q[fQLen] = math.Log1p(float64(len(in.plan.Text)))
	q[fQFiles] = math.Log1p(float64(n))

	out := make([]Candidate, len(files))
	for i, f := range files {
		c := &out[i]
		c.File = f
		x := &c.Features
		*x = q
		if s := in.seeds[f]; s != nil {
			for j := fSeedEntity; j <= fSeedLexical; j++ {
				x[j] = s[j]
			}
		}
		x[fGraph] = graphBest[f]
		if a := gacc[f]; a != nil {
			x[fGraphDepth] = 1 / float64(a.depth)
			x[fGraphSyms] = math.Log1p(float64(a.syms))
			for j := fGraphCallee; j <= fGraphMacro; j++ {
				x[j] = graphKinds[f][j]
			}
		}
		x[fLexFile] = ratio(in.lex.File[f], maxFile)
		x[fLexFileRR] = lexFileRR[f]
		x[fLexSym] = ratio(symBest[f], maxSym)
		x[fLexSymRR] = lexSymRR[f]
		x[fLexSyms] = math.Log1p(float64(lexSyms[f]))
		if totalWeight > 0 {
			var w float64
			nid := 0
			for _, t := range dedupeStrings(in.lex.Matched[f]) {
				w += termWeight[t]
				if idents[t] {
					nid++
				}
			}
			x[fLexCover] = math.Min(1, w/totalWeight)
			if len(idents) > 0 {
				x[fLexIdent] = float64(nid) / float64(len(idents))
			}
		}
		x[fPath] = in.lex.Path[f]
		x[fPlain] = ratio(in.plain[f], maxPlain)
		x[fPlainRR] = plainRR[f]
		if in.similar != nil {
			x[fCommits] = in.similar[f]
		}
		if e.Prior != nil {
			x[fPrior] = e.Prior[f]
		}
		if e.Recency != nil {
			x[fRecent] = e.Recency[f]
		}
		x[fHand] = ratio(handScore[f], maxHand)
		x[fHandRR] = handRR[f]
		file := &facts.Files[f]
		switch file.Category {
		case analyze.CatTest:
			x[fCatTest] = 1
		case analyze.CatGenerated:
			x[fCatGenerated] = 1
		case analyze.CatVendored:
			x[fCatVendored] = 1
		case analyze.CatExample:
			x[fCatExample] = 1
		}
		x[fSize] = math.Log1p(float64(file.Size))
		x[fSyms] = math.Log1p(float64(len(facts.SymbolsIn(f))))
		if e.declaresMain(f) {
			x[fMain] = 1
		}
		switch path.Base(file.Path) {
		case "lib.rs", "main.rs", "mod.rs", "doc.go":
			x[fModRoot] = 1
		}
		x[fDirDepth] = float64(strings.Count(file.Path, "/"))
		base := strings.TrimSuffix(path.Base(file.Path), path.Ext(file.Path))
		if words[strings.ToLower(base)] {
			x[fNameInQuery] = 1
		}
		if seedDirs[path.Dir(file.Path)] {
			x[fSameDirSeed] = 1
		}
		x[fFanIn] = math.Log1p(float64(fanIn[f]))
	}
	return out
}

// viaFeature is the graph feature of a step along an edge of kind k in
// direction d.
func viaFeature(k graph.Kind, d graph.Dir) int {
	switch k {
	case graph.Calls:
		if d == graph.Forward {
			return fGraphCallee
		}
		return fGraphCaller
	case graph.References:
		if d == graph.Forward {
			return fGraphUses
		}
		return fGraphUsedBy
	case graph.MethodOf, graph.Field, graph.Embeds, graph.Contains:
		return fGraphMember
	case graph.Implements:
		return fGraphImpl
	case graph.Tests:
		return fGraphTests
	case graph.Imports:
		return fGraphImports
	case graph.Macro:
		return fGraphMacro
	}
	return fGraphMember
}

// declaresMain reports whether file f declares a program's main function.
func (e *Engine) declaresMain(f analyze.FileID) bool {
	file := &e.Facts.Files[f]
	for _, s := range e.Facts.SymbolsIn(f) {
		sym := &e.Facts.Symbols[s]
		if sym.Kind != analyze.KindFunc || sym.Name != "main" || sym.Container != "" {
			continue
		}
		if file.Lang == analyze.LangGo && file.PkgName != "main" {
			continue
		}
		return true
	}
	return false
}

// fanIn counts, per file, the symbols of other files that call or
// reference one of its symbols; computed once per engine.
func (e *Engine) fanIn() []int {
	e.fanInOnce.Do(func() {
		facts := e.Facts
		counts := make([]int, len(facts.Files))
		for s := range facts.Symbols {
			f := facts.Symbols[s].File
			for _, h := range e.Graph.In(e.Graph.SymNode(analyze.SymID(s))) {
				if (h.Kind == graph.Calls || h.Kind == graph.References) && e.Graph.IsSym(h.To) &&
					facts.Symbols[e.Graph.Sym(h.To)].File != f {
					counts[f]++
				}
			}
		}
		e.fanInCounts = counts
	})
	return e.fanInCounts
}

// bestSymPerFile is, per file, the best score of its symbols.
func bestSymPerFile(facts *analyze.Facts, sym []float64) []float64 {
	out := make([]float64, len(facts.Files))
	for s, v := range sym {
		if f := facts.Symbols[s].File; v > out[f] {
			out[f] = v
		}
	}
	return out
}

// topFiles returns the k files with the highest positive values, best
// first, ties by file.
func topFiles(vals []float64, k int) []analyze.FileID {
	var idx []analyze.FileID
	for i, v := range vals {
		if v > 0 {
			idx = append(idx, analyze.FileID(i))
		}
	}
	slices.SortFunc(idx, func(a, b analyze.FileID) int { // a total order: files are unique
		return cmp.Or(cmp.Compare(vals[b], vals[a]), cmp.Compare(a, b))
	})
	if len(idx) > k {
		idx = idx[:k]
	}
	return idx
}

// reciprocalRanks gives each positive value 1/rank among the positive
// values (ties share the better rank), and 0 to the rest.
func reciprocalRanks(vals []float64) []float64 {
	out := make([]float64, len(vals))
	order := topFiles(vals, len(vals))
	rank := 0
	for j, f := range order {
		if j == 0 || vals[f] != vals[order[j-1]] {
			rank = j + 1
		}
		out[f] = 1 / float64(rank)
	}
	return out
}

func maxOf(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

func ratio(v, max float64) float64 {
	if max <= 0 {
		return 0
	}
	return v / max
}

func dedupeStrings(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// queryWords are the query's identifiers, lower-cased, whole and split
// ("FindByEmail" gives findbyemail, find, by, email).
func queryWords(text string) map[string]bool {
	out := map[string]bool{}
	analyze.Identifiers([]byte(text), func(tok []byte) {
		out[strings.ToLower(string(tok))] = true
		for _, p := range analyze.SplitIdent(string(tok)) {
			out[p] = true
		}
	})
	return out
}
