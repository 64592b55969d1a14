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
// (githistory.Stats.CoChanged) and, for the few tests that spell the
// changed lines' words best, their share of the best one's score
// (spelled, by file index, from testsSpelling); nil when nothing does.
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

// Tests by the change's words (testsSpelling).
const (
	// spellingTests is how many tests the words may name: the tests of a
	// change that no name or history ties to it are usually one or two
	// files that exercise the changed behaviour.
	spellingTests = 3
	// spellingShare is how close to the best test's lexical score another
	// must come to be named too.
	spellingShare = 0.5
	// spellingWords is how many of the words a reason lists.
	spellingWords = 4
)

// testsSpelling scores the test files whose text holds the words of a
// change's added and removed lines (rank.CodeTerms, scored on the
// lexical index's whole-file documents): the best fully, as much as a
// test named after a changed file, and up to spellingTests-1 more within
// spellingShare of it in proportion. An integration test that
// drives a program through its input and output (a command-line tool's
// tests, a server's requests) shares no symbol with the code it
// exercises; it shares the words: the option, the error message, the
// field. Files under review are not scored. It returns the scores and
// reasons by file index; nil without lines or matches.
func (s *Session) testsSpelling(changed, lines []string) (map[int]float64, map[int]string) {
	if len(lines) == 0 || s.Engine == nil || s.Engine.Index == nil {
		return nil, nil
	}
	terms, spelled := rank.CodeTerms(lines)
	if len(terms) == 0 {
		return nil, nil
	}
	lx := s.Engine.Index.Score(terms)
	file := lx.File
	type cand struct {
		i int
		v float64
	}
	var cands []cand
	for i, f := range s.Facts.Files {
		if f.Category != analyze.CatTest || file[i] <= 0 || slices.Contains(changed, f.Path) {
			continue
		}
		cands = append(cands, cand{i, file[i]})
	}
	if len(cands) == 0 {
		return nil, nil
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(b.v, a.v); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	best := cands[0].v
	weight := make(map[string]float64, len(terms))
	for _, t := range terms {
		weight[t.Text] = t.Weight
	}
	score := map[int]float64{}
	why := map[int]string{}
	for _, c := range cands[:min(len(cands), spellingTests)] {
		if c.v < spellingShare*best {
			break
		}
		score[c.i] = c.v / best
		var words []string
		for _, w := range s.telling(lx.Matched[c.i], weight) {
			if !slices.Contains(words, spelled[w]) {
				words = append(words, spelled[w])
			}
		}
		why[c.i] = "spells the change's words: " + strings.Join(words, ", ")
	}
	return score, why
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
