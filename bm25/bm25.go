// Package bm25 owns the plain lexical model of the benchmark's published
// baseline: how text becomes terms (identifiers lower-cased, plus their
// camelCase and snake_case parts, minus a short stop-word list), the
// baseline's parameters, and Okapi BM25's scoring ([IDF], [Params.TermScore],
// [Params.Score]). It is the one copy of that formula: the benchmark's BM25
// ranker and its function-level baseline (package eval) and the plain
// whole-file score of package rank (Index.ScorePlain) all call it, so
// the baseline that ctxexpand is measured against is also a candidate source
// and a feature of its ranking, term for term. Package eval keeps only what a
// benchmark ranker adds: listing and reading the checkout's files, ordering,
// reasons, and packing whole files into budgets.
//
// Nothing here stems, weighs fields or knows about symbols: that is package
// rank's own lexical index (BM25F over symbol names and file bodies, which
// takes its IDF from here but weighs its fields itself).
package bm25

import (
	"math"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// The baseline's parameters.
const (
	K1 = 1.2
	B  = 0.75
	// PathWeight is how many times a path's terms count in a file's
	// document.
	PathWeight = 3
)

// stopWords are dropped from queries and documents: English function
// words, and the verbs and nouns of commit messages ("fix", "add",
// "support", "issue") that say what was done, not where. The list is the
// one that reproduces the benchmark README's published baseline figures.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a all also an and are as at be but by can do does for from has have i if in
		into is it its more no not now of on or our should so some than that the
		then there they this to was we were when which will with you
		add added adds allow bug fix fixed fixes issue make remove removed
		support update updated use used`) {
		m[w] = true
	}
	return m
}()

// IsStopWord reports whether the lower-cased term w is dropped.
func IsStopWord(w string) bool { return stopWords[w] }

// Terms calls fn for each term of text: every identifier (a run of
// letters, digits and underscores not starting with a digit) lower-cased,
// then, when it splits at camelCase or snake_case boundaries, each part.
// Stop words are left out.
func Terms(text []byte, fn func(term string)) {
	analyze.Identifiers(text, func(tok []byte) { IdentTerms(string(tok), fn) })
}

// IdentTerms calls fn for the terms of one identifier, as Terms does for
// each identifier of a text.
func IdentTerms(ident string, fn func(term string)) {
	whole := strings.ToLower(ident)
	if !stopWords[whole] {
		fn(whole)
	}
	parts := analyze.SplitIdent(ident)
	if len(parts) < 2 {
		return
	}
	for _, p := range parts {
		if !stopWords[p] {
			fn(p)
		}
	}
}

// QueryTerms returns the distinct terms of a query in first-seen order and
// how often each occurs. A term's contribution counts once per occurrence,
// as when scoring sums over the query's tokens.
func QueryTerms(q string) (terms []string, counts []int) {
	idx := map[string]int{}
	Terms([]byte(q), func(t string) {
		i, ok := idx[t]
		if !ok {
			i = len(terms)
			idx[t] = i
			terms = append(terms, t)
			counts = append(counts, 0)
		}
		counts[i]++
	})
	return terms, counts
}

// IDF is the baseline's inverse document frequency of a term held by df
// of n documents: ln(1 + (n−df+0.5)/(df+0.5)).
func IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Params are Okapi BM25's two parameters: k1, how soon a term's
// frequency saturates, and b, how much a document's length normalises it.
type Params struct{ K1, B float64 }

// Baseline is the benchmark's published parameters, [K1] and [B].
var Baseline = Params{K1: K1, B: B}

// TermScore is one occurrence of a query term's contribution to a
// document of length dl (average avgLen) holding it tf times, before the
// IDF: tf·(k1+1) / (tf + k1·(1−b+b·dl/avgLen)).
func (p Params) TermScore(tf, dl, avgLen float64) float64 {
	return tf * (p.K1 + 1) / (tf + p.K1*(1-p.B+p.B*dl/avgLen))
}

// Score is a query term's whole contribution to a document: count, the
// term's occurrences in the query, times its idf (see [IDF]) times
// [Params.TermScore]. A document's BM25 is the sum of Score over the
// query's distinct terms ([QueryTerms]).
func (p Params) Score(count int, idf, tf, dl, avgLen float64) float64 {
	return float64(count) * idf * p.TermScore(tf, dl, avgLen)
}

// TermScore is [Params.TermScore] with the [Baseline] parameters.
func TermScore(tf, dl, avgLen float64) float64 { return Baseline.TermScore(tf, dl, avgLen) }

// Score is [Params.Score] with the [Baseline] parameters.
func Score(count int, idf, tf, dl, avgLen float64) float64 {
	return Baseline.Score(count, idf, tf, dl, avgLen)
}
