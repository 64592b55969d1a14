package query

import "strings"

// IsStopWord reports whether w (any case) carries no meaning for matching:
// an English function word ("the", "when", "does") or a word that people put
// in task descriptions without it naming anything in the code ("fix", "bug",
// "issue", "add", "implement", "please"). Action verbs are stop words for
// matching even though they still decide [Plan.Action].
func IsStopWord(w string) bool {
	w = strings.ToLower(w)
	return functionWords[w] || fillerWords[w]
}

// functionWords are English words that name nothing: articles, pronouns,
// prepositions, conjunctions, auxiliaries. [TermsOf] drops these from
// identifiers too ("FindByEmail" → find, email).
var functionWords = setOf(`
a an the this that these those it its it's itself
i me my we us our you your he him his she her they them their there here
is am are was were be been being do does did doing done has have had having
will would shall should can could may might must
of to in on at by for from with without into onto out over under about
above below between through during before after up down off via per
and or but nor not no so if then than else also too very just only
as such both each either neither any all some most more less few
what which who whom whose when where why how
`)

// fillerWords are task-description words: verbs that state the action,
// nouns that say "there is a problem" and conversational padding. They are
// stop words in queries but kept in identifiers.
var fillerWords = setOf(`
fix fixes fixed fixing bug bugs buggy issue issues problem problems
add adds added adding implement implements implemented implementing implementation
create creates created creating introduce introduces introducing
refactor refactors refactored refactoring refactorings
debug debugs debugged debugging investigate investigating
explain explains explained explaining understand understanding describe
change changes changed changing modify modifies modified modifying
improve improves improved improving rewrite rewrites rewriting
make makes making made let lets allow allows
need needs needed want wants wanted please help try trying tried
support supports supported supporting feature features
test tests testing tested
find finds finding look looking see show shows tell
get gets getting got use uses using used
happen happens happened happening occur occurs occurred
work works working worked broken wrong correctly properly actually
instead currently still again always never sometimes even really
code function functions method methods new thing things stuff way ways
return returns returned returning call calls called calling
sure maybe something anything everything nothing someone
across everywhere throughout codebase project repo repository-wide
doesn isn aren wasn weren don didn won wouldn shouldn couldn
e.g eg i.e ie etc vs
`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
