package rank

import (
	"slices"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
)

// codeTermRepeat caps how much a term's repetition in the text weighs: a
// name spelled on every changed line is what the change is about, but
// not ten times more than a name spelled on one.
const codeTermRepeat = 3

// CodeTerms are the lexical query of a piece of code (a change's added
// and removed lines): the ranking terms of its identifiers and words, as
// the index makes them from a file's text (less the identifiers that are
// stop words as a whole), each weighted by how many
// times the text holds it, up to codeTermRepeat. They are in the order
// of the terms' text. Spelled maps each term to the first identifier of
// the text that gave it, for showing the term as the code writes it.
func CodeTerms(lines []string) (terms []query.Term, spelled map[string]string) {
	count := map[string]int{}
	spelled = map[string]string{}
	for _, l := range lines {
		analyze.Identifiers([]byte(l), func(tok []byte) {
			if query.IsStopWord(strings.ToLower(string(tok))) {
				return // prose's "from", "to": the index keeps them as names, a query need not
			}
			for _, t := range identTermStrings(string(tok)) {
				if count[t] == 0 {
					spelled[t] = string(tok)
				}
				count[t]++
			}
		})
	}
	out := make([]query.Term, 0, len(count))
	for t, n := range count {
		out = append(out, query.Term{Text: t, Weight: float64(min(n, codeTermRepeat)), Kind: query.TermIdentPart})
	}
	slices.SortFunc(out, func(a, b query.Term) int { return strings.Compare(a.Text, b.Text) })
	return out, spelled
}
