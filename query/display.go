package query

import (
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// TermWords maps a plan's terms, which are normalised for the index
// (stems such as "servic", names such as "userservice"), back to words a
// person reads. Ranking's reasons and --explain both use it, so that a
// term reads the same everywhere. The zero value maps every term to
// itself.
type TermWords struct {
	// written maps a term to the first word of the query that gives it,
	// as written.
	written map[string]string
	// synonym holds the terms the planner added from the concept table.
	synonym map[string]bool
}

// TermWords returns the mapping of p's terms back to the words of p's
// query.
func (p *Plan) TermWords() TermWords {
	w := TermWords{written: map[string]string{}, synonym: map[string]bool{}}
	add := func(word string) {
		lw := strings.ToLower(word)
		for _, t := range []string{NormTerm(lw), analyze.NormName(lw)} {
			if _, ok := w.written[t]; !ok && t != "" {
				w.written[t] = word
			}
		}
	}
	analyze.Identifiers([]byte(p.Text), func(tok []byte) {
		add(string(tok))
		for _, part := range analyze.SplitIdent(string(tok)) {
			add(part)
		}
	})
	for _, t := range p.Terms {
		if t.Kind == TermSynonym {
			w.synonym[t.Text] = true
		}
	}
	return w
}

// Written returns the word of the query a term came from, as written,
// and whether there is one.
func (w TermWords) Written(term string) (string, bool) {
	s, ok := w.written[term]
	return s, ok
}

// Display is a term as a reason shows it: the word of the query it came
// from, lower-cased; "" for a synonym that no word of the query gives,
// which a reason leaves out (the user did not write it); otherwise the
// term itself.
func (w TermWords) Display(term string) string {
	if s, ok := w.written[term]; ok {
		return strings.ToLower(s)
	}
	if w.synonym[term] {
		return ""
	}
	return term
}

// Word is a term as --explain shows it: the word of the query it came
// from, as written; for a synonym the planner added, its word in the
// concept table ("member" for "memb"); otherwise the term itself, which is
// then all there is to show (a number, a path, a term of another planner).
func (w TermWords) Word(term string) string {
	if s, ok := w.written[term]; ok {
		return s
	}
	if s, ok := synonymWords[term]; ok && w.synonym[term] {
		return s
	}
	return term
}

// Words shows a list of terms: each as [TermWords.Word], except that a
// term whose word an earlier term of the list already shows appears as
// itself. That is where a stem adds meaning: "Handler" names both the
// identifier and its stemmed part, which then shows as "handl".
func (w TermWords) Words(terms []string) []string {
	out := make([]string, len(terms))
	shown := map[string]bool{}
	for i, t := range terms {
		word := w.Word(t)
		if shown[strings.ToLower(word)] {
			word = t
		}
		shown[strings.ToLower(word)] = true
		out[i] = word
	}
	return out
}
