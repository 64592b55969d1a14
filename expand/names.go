package expand

import (
	"slices"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Words spent on a resolved name.
//
// "fix UserService::find_by_email" names a symbol. Once the name resolves
// to that symbol it has said what it has to say: the symbol seeds the
// walk, its file ranks first, and the walk follows its calls, its types,
// its tests and its callers. Searching the files the walk reached for the
// name's words would find the ones that mention it — its callers and its
// tests, whose calls spell it — and reward them a second time for the
// edge the walk already followed, above the code the symbol itself uses
// (a helper, a trait, a model), whose names differ.
//
// So, for a fix, a mention counts once: as an edge where the walk
// followed it, as words where it did not. The words that only spell a
// confidently resolved name are left out of the lexical evidence of the
// files the walk reached, except the files defining the name, where they
// confirm the match. Files the walk did not reach keep them: there the
// mention is the only evidence (a reference the analysis missed, a file
// read as text only). Words the rest of the query also uses count
// everywhere. Other tasks keep every word: adding a field to a type or a
// parameter to a function changes the code that spells its name, and the
// mentions are how lexical search finds it.

// spentNames is what spending the words of resolved names needs: the
// lexical evidence without them and the files that keep them anyway.
type spentNames struct {
	terms    []string         // the spent terms, in the plan's order
	without  *rank.Lexical    // the lexical evidence without them
	defining []analyze.FileID // files of the resolved symbols
}

// spendNames prepares, for a fix whose named symbols resolved
// confidently, the lexical evidence without the words that only spell
// them. It returns nil for other tasks or when no name resolved so.
func (e *Engine) spendNames(plan *query.Plan, res []rank.Resolution) *spentNames {
	if plan.Action != query.ActionDebug {
		return nil
	}
	// A bare word that named a declaration (Entity.Bare) is still a word
	// of the task: its term counts wherever it appears.
	res = slices.DeleteFunc(slices.Clone(res), func(r rank.Resolution) bool { return r.Entity.Bare })
	spent := spentTerms(plan, res)
	if len(spent) == 0 {
		return nil
	}
	return &spentNames{terms: spent, without: e.Index.Score(withoutTerms(plan.Terms, spent)), defining: definingFiles(e.Facts, res)}
}

// apply returns lex with the spent words left out of the files in
// reached, the defining files excepted. lex is modified.
func (sn *spentNames) apply(facts *analyze.Facts, lex *rank.Lexical, reached func(analyze.FileID) bool) *rank.Lexical {
	if sn == nil {
		return lex
	}
	for i := range facts.Files {
		f := analyze.FileID(i)
		if !reached(f) || slices.Contains(sn.defining, f) {
			continue
		}
		lex.File[f], lex.Path[f], lex.Matched[f] = sn.without.File[f], sn.without.Path[f], sn.without.Matched[f]
		for _, s := range facts.SymbolsIn(f) {
			lex.Sym[s] = sn.without.Sym[s]
		}
	}
	return lex
}

// spentTerms returns the texts of the plan's terms that only spell names
// the query gave and that resolved confidently (see confident), in the
// plan's order.
func spentTerms(plan *query.Plan, res []rank.Resolution) []string {
	rest := plan.Clean
	if rest == "" {
		rest = plan.Text
	}
	name := map[string]bool{}
	for _, r := range res {
		if !confident(r) || r.Entity.Raw == "" {
			continue
		}
		for _, t := range query.Analyze(r.Entity.Raw).Terms {
			name[t.Text] = true
		}
		rest = strings.ReplaceAll(rest, r.Entity.Raw, " ")
	}
	if len(name) == 0 {
		return nil
	}
	for _, t := range query.Analyze(rest).Terms {
		delete(name, t.Text)
	}
	var out []string
	for _, t := range plan.Terms {
		if name[t.Text] {
			out = append(out, t.Text)
		}
	}
	return out
}

// definingFiles are the files of the symbols confident resolutions
// matched, in order, once each.
func definingFiles(facts *analyze.Facts, res []rank.Resolution) []analyze.FileID {
	var out []analyze.FileID
	for _, r := range res {
		if !confident(r) {
			continue
		}
		for _, m := range r.Matches {
			if f := facts.Symbols[m.Sym].File; !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// confident reports whether a name resolved to a symbol as written or in
// another case style, defined in at most three places, and spelled as an
// identifier: then it stands for that symbol, not for a concept (a lone
// lower-case word, a name the qualifier did not fit, a close guess or a
// name defined everywhere resolves weaker).
func confident(r rank.Resolution) bool {
	if len(r.Matches) == 0 {
		return false
	}
	m := r.Matches[0]
	return (m.How == rank.MatchExact || m.How == rank.MatchStyle) && m.Strength >= styleStrength
}

// styleStrength is the strength rank.Names gives a style-insensitive
// match of a name written as an identifier (an exact match is 1; a name
// defined in more than three places, or a lone lower-case word, is
// weaker).
const styleStrength = 0.9

// withoutTerms returns terms less those whose text is in drop.
func withoutTerms(terms []query.Term, drop []string) []query.Term {
	out := make([]query.Term, 0, len(terms))
	for _, t := range terms {
		if !slices.Contains(drop, t.Text) {
			out = append(out, t)
		}
	}
	return out
}
