package engine

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/diffmode"
	"github.com/ctxexpand/ctxexpand/rank"
)

// What ties a file to a review's change, besides the graph: its name, its
// path, past commits, and the words of the changed lines.

// coChanges is, per file, what ties it to the files a review changed: the
// test files named after one of them (diffmode.NamesTest) fully, the Rust
// integration tests whose path names a module holding one of them
// (diffmode.TestsModule) by half, and otherwise the larger of how often
// past commits that touched one of them touched it too
// (githistory.Stats.CoChanged) and, for the few files that spell the
// changed lines' words best, their tie (spelled, by file index, from
// spelledTies); nil when nothing does.
func (s *Session) coChanges(changed []string, spelled map[int]float64, spelledWhy map[int]string) ([]float64, []string) {
	votes := s.history.CoChanged(changed)
	var score []float64
	var detail []string
	set := func(i int, v float64, why string) {
		if score == nil {
			score = make([]float64, len(s.Facts.Files))
			detail = make([]string, len(s.Facts.Files))
		}
		score[i], detail[i] = v, why
	}
	for i, f := range s.Facts.Files {
		if f.Category == analyze.CatTest {
			if src, ok := namedSource(f.Path, f.Lang.String(), changed); ok {
				set(i, 1, "the tests of "+src+", by name")
				continue
			}
		}
		v, voted := votes[f.Path]
		if f.Category == analyze.CatTest {
			if src, mod, ok := moduleSource(f.Path, f.Lang.String(), changed); ok && (!voted || v.Score < moduleTests) {
				set(i, moduleTests, "the tests of module "+mod+" ("+src+"), by path")
				continue
			}
		}
		switch w, ok := spelled[i]; {
		case ok && (!voted || w > v.Score):
			set(i, w, spelledWhy[i])
		case voted:
			set(i, v.Score, v.Detail())
		}
	}
	return score, detail
}

// Ties by the change's words (spelledTies).
const (
	// spellingFiles is how many files of each kind (tests, other
	// source) the words may tie: the tests of a change, or the code that
	// changes with it, that nothing else ties are usually one or two files.
	spellingFiles = 3
	// spellingShare is how close to the best file's lexical score another
	// must come to be tied too.
	spellingShare = 0.5
	// spellingSource is the tie of the source file that spells the change
	// best: half a test's, as much as a test that names the changed
	// module. Code that spells the change's words is as often code that
	// reads the same names as code that changes with it.
	spellingSource = 0.5
	// spellingWords is how many of the words a reason lists.
	spellingWords = 4
)

// spelledTies scores the files whose text holds the words of a change's
// added and removed lines (rank.CodeTerms, scored on the lexical index's
// whole-file documents), tests and other source files apart. An
// integration test that drives a program through its input and output (a
// command-line tool's tests, a server's requests) shares no symbol with
// the code it exercises, nor does code that changes with a change (a
// parallel implementation, a table of the same names); both share its
// words: the option, the error message, the field. The best test ties as
// fully as a test named after a changed file, the best other source file
// by spellingSource, and up to spellingFiles-1 more of each within
// spellingShare of their best in proportion. Files under review are not
// scored.
func (s *Session) spelledTies(changed, lines []string) spelling {
	out := spelling{bestTest: -1, underReview: make(map[string]bool, len(changed))}
	for _, p := range changed {
		out.underReview[p] = true
	}
	if len(lines) == 0 || s.Engine == nil || s.Engine.Index == nil {
		return out
	}
	terms, spelled := rank.CodeTerms(lines)
	if len(terms) == 0 {
		return out
	}
	lx := s.Engine.Index.Score(terms)
	out.sym = lx.Sym
	weight := make(map[string]float64, len(terms))
	for _, t := range terms {
		weight[t.Text] = t.Weight
	}
	for _, kind := range []struct {
		cat analyze.Category
		tie float64
	}{{analyze.CatTest, 1}, {analyze.CatSource, spellingSource}} {
		top := s.bestSpelling(lx.File, kind.cat, out.underReview)
		if len(top) == 0 {
			continue
		}
		if out.score == nil {
			out.score, out.why = map[int]float64{}, map[int]string{}
		}
		if kind.cat == analyze.CatTest {
			out.bestTest = top[0]
		}
		best := lx.File[top[0]]
		for _, i := range top {
			out.score[i] = kind.tie * lx.File[i] / best
			var words []string
			for _, w := range s.telling(lx.Matched[i], weight) {
				if !slices.Contains(words, spelled[w]) {
					words = append(words, spelled[w])
				}
			}
			out.why[i] = "spells the change's words: " + strings.Join(words, ", ")
		}
	}
	return out
}

// spelling is what the words of a change's lines tie (spelledTies).
type spelling struct {
	// score and why are the ties and their reasons by file index; nil
	// without lines or matches.
	score map[int]float64
	why   map[int]string
	// bestTest is the index of the test that spells the change best, -1
	// when none does.
	bestTest int
	// sym is the lexical score of each symbol's document for the words
	// (rank.Lexical.Sym); nil without lines.
	sym []float64
	// underReview are the paths of the changed files, which are not
	// scored.
	underReview map[string]bool
}

// spellHit is the span score of the symbol of a co-changed file that
// spells the change's words best; the file's other symbols score in
// proportion. It is the weight of a lexical hit of the query (see
// rank.Combine), so a symbol the walk reached strongly still leads.
const spellHit = 0.5

// hits are the symbols of the co-changed files (tie, by file index)
// whose documents spell the change's words, for their spans: in a test
// tied to a change, the test functions that use its names and messages;
// in code that changes with it, the functions that share them. Each
// file's best symbol scores spellHit and the others in proportion. Files
// under review are left out: their spans are the change.
func (sp spelling) hits(facts *analyze.Facts, tie []float64) []rank.SymHit {
	if sp.sym == nil || tie == nil {
		return nil
	}
	var out []rank.SymHit
	for i := range facts.Files {
		if tie[i] <= 0 || sp.underReview[facts.Files[i].Path] {
			continue
		}
		syms := facts.SymbolsIn(analyze.FileID(i))
		best := 0.0
		for _, id := range syms {
			best = max(best, sp.sym[id])
		}
		if best <= 0 {
			continue
		}
		for _, id := range syms {
			if v := sp.sym[id]; v > 0 {
				out = append(out, rank.SymHit{Sym: id, Score: spellHit * v / best, Reason: "spells the change's words"})
			}
		}
	}
	return out
}

// bestSpelling are the files of category cat, not under review, with the
// spellingFiles highest scores within spellingShare of the best, best
// first (ties in file order).
func (s *Session) bestSpelling(scores []float64, cat analyze.Category, underReview map[string]bool) []int {
	var cands []int
	for i, f := range s.Facts.Files {
		if f.Category == cat && scores[i] > 0 && !underReview[f.Path] {
			cands = append(cands, i)
		}
	}
	slices.SortFunc(cands, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var top []int
	for _, i := range cands[:min(len(cands), spellingFiles)] {
		if scores[i] < spellingShare*scores[cands[0]] {
			break
		}
		top = append(top, i)
	}
	return top
}

// telling are the spellingWords of matched that say most: the most
// repeated in the change, then the rarest in the repository, then by
// text.
func (s *Session) telling(matched []string, weight map[string]float64) []string {
	ws := slices.Clone(matched)
	df := make(map[string]int, len(ws))
	for _, w := range ws {
		df[w] = s.Engine.Index.DocFreq(w)
	}
	slices.SortFunc(ws, func(a, b string) int {
		if c := cmp.Compare(weight[b], weight[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(df[a], df[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return ws[:min(len(ws), spellingWords)]
}

// moduleTests is the co-change score of a test file whose path names a
// module that holds a changed file (diffmode.TestsModule): half of a test
// file named after the changed file itself, since the other tests of the
// module's directory are named after it as well.
const moduleTests = 0.5

// moduleSource is the first of changed whose module, or a module that
// encloses it, test's path names, and that module.
func moduleSource(test, lang string, changed []string) (string, string, bool) {
	for _, c := range changed {
		if c == test {
			continue
		}
		if m, ok := diffmode.TestsModule(c, test, lang); ok {
			return c, m, true
		}
	}
	return "", "", false
}

// testsOf reports whether test is named after one of changed, or is a
// Rust integration test whose path names a module holding one of them.
func testsOf(test, lang string, changed []string) bool {
	if _, named := namedSource(test, lang, changed); named {
		return true
	}
	_, _, byModule := moduleSource(test, lang, changed)
	return byModule
}

// namedSource is the first of changed that test is named after.
func namedSource(test, lang string, changed []string) (string, bool) {
	for _, c := range changed {
		if c != test && diffmode.NamesTest(c, test, lang) {
			return c, true
		}
	}
	return "", false
}
