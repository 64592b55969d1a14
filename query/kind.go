package query

import (
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Kind is the kind of question a query asks. Each kind is answered best
// by a different ranking (the pipeline picks one per kind and says which
// in --explain), and the benchmarks score each kind on a dev set of its
// own.
type Kind string

const (
	// KindFix is a change to make, written the way a commit message or
	// a task is: "fix UserService.find_by_email", "xdsclient: retry on
	// EOF", "add a --version flag". The default.
	KindFix Kind = "fix"
	// KindIssue is a report of several lines: a title, a description,
	// pasted traces, logs or code.
	KindIssue Kind = "issue"
	// KindQuestion asks how the code works or where something is done:
	// "how are routes grouped", "radix tree path matching", "what
	// happens when a session expires?".
	KindQuestion Kind = "question"
	// KindLookup names a symbol or a file and little else: "Router",
	// "pkg.Func", "a::b::C", "src/store/mod.rs", "where is NewServer".
	KindLookup Kind = "lookup"
	// KindDiff is a change under review (ctxexpand diff). The planner
	// never gives it; the diff door sets it.
	KindDiff Kind = "diff"
)

// Kinds lists the kinds, in the order reports show them.
var Kinds = []Kind{KindFix, KindIssue, KindQuestion, KindLookup, KindDiff}

// ParseKind reads a kind's name; "" is not a kind.
func ParseKind(s string) (Kind, bool) {
	for _, k := range Kinds {
		if string(k) == strings.ToLower(strings.TrimSpace(s)) {
			return k, true
		}
	}
	return "", false
}

// lookupWords may stand around a name in a lookup without making it a
// question or a task: "where is X defined", "find X", "show me X".
var lookupWords = setOf(`where find locate show me definition definitions defined declared
declaration declarations def decl impl implementation of for the a an is are symbol type
struct trait function func fn method interface enum const constant variable file go to goto
jump open`)

// detectKind decides the plan's kind from what analysis found. Reports
// come first (several lines, or a pasted trace); then lookups (nothing
// but names, paths and lookup words); then questions (a question word, a
// question mark, or a noun phrase with no verb of a task, no failure and
// no area prefix); everything else is a fix.
func detectKind(p *Plan, prose string, area areaPrefix, multi, verb, failing bool) Kind {
	if multi || len(p.Frames) > 0 {
		return KindIssue
	}
	body := strings.TrimSpace(prose[area.end:])
	if isLookup(p, body) {
		return KindLookup
	}
	words := wordSplitter().FindAllString(strings.ToLower(body), 64)
	if area.end == 0 && len(words) > 1 {
		// "where does the client retry a failed call": a question,
		// whatever it names; "why does login fail" is a bug.
		switch words[0] {
		case "how", "where", "what", "which", "who":
			return KindQuestion
		}
	}
	if area.end > 0 || failing {
		return KindFix
	}
	if len(words) > 0 {
		if a, ok := questionAction(words); ok && (a == ActionExplain || a == ActionSearch) {
			return KindQuestion
		}
		negated := len(words) > 1 && words[1] == "not"
		switch words[0] {
		case "does", "do", "can", "should":
			if !negated {
				return KindQuestion
			}
		case "when", "explain", "describe", "overview":
			return KindQuestion
		}
	}
	if strings.HasSuffix(body, "?") || p.Action == ActionExplain {
		return KindQuestion
	}
	if !verb && len(p.Refs) == 0 && nounPhrase(words) {
		return KindQuestion // "panic recovery middleware"
	}
	return KindFix
}

// commitVerbs are verbs commit messages start with, in the imperative,
// besides the actions' verbs (actionVerbs): a text that starts with one
// states a change, not a topic.
var commitVerbs = setOf(`accept adapt address align allow apply ask assert avoid batch bind block break
bring bump cache call cancel check clamp clean clear close collapse collect combine compare
compute configure consider copy correct count declare decode default defer define delay detect
disallow display do document dont drain drop dump emit encode ensure enforce escape evaluate exit
expand export extend fall fetch fill filter flush fold follow force format forward free generate get give
group guard handle hide hold honor honour ignore implement import include inherit init initialize
inline insert install keep kill let lift limit link load lock log look loosen lower mark match merge
mock mount move need normalize normalise open override pad parse pass patch pause permit pin
pipe poll populate prefer prefix preserve print process prioritize prioritise propagate protect prune publish pull push
put quote raise read rebuild recover redirect refresh register reject release reload rely rename
render reorder repair replace report request require reserve reset resize respect restore restrict
retry return reuse revert rework rewrite run sanitize save scan send separate serialize set share
shorten show shut skip sort specify start stop store strip submit suppress swap sync take tidy
tighten trim trigger truncate try turn unify unlock unset unwrap update upgrade use validate
verify wait warn watch wire wrap write yield`)

// notQuestionWords mark a text as a change or a bug report, wherever
// they stand: negations, adverbs of a change, and what broke.
var notQuestionWords = setOf(`don't dont do not never no longer correctly properly always instead
typo typos bug bugs missing undocumented lost regression workaround deprecated revert`)

// nounPhrase reports whether a one-line text without a verb of a task
// reads as a topic ("radix tree path matching", "gzip response
// compression middleware") rather than a change ("restore the terminal
// on kill", "fixed typo", "typo in json key"): it does not start with a
// verb of a commit or a past participle, holds no negation or bug word,
// no third-person verb ("option handles repeated directories"), and is
// short.
func nounPhrase(words []string) bool {
	if len(words) == 0 || len(words) > 16 {
		return false
	}
	first := words[0]
	if commitVerbs[first] || pastOfVerb(first) || (strings.HasSuffix(first, "ly") && len(words) > 1) {
		return false
	}
	for i, w := range words {
		if notQuestionWords[w] || strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n’t") {
			return false
		}
		if i > 0 && i+1 < len(words) && strings.HasSuffix(w, "s") && (commitVerbs[strings.TrimSuffix(w, "s")] || commitVerbs[strings.TrimSuffix(w, "es")]) && !isArticle(words[i-1]) {
			return false // "option handles repeated directories"
		}
	}
	return true
}

// isLookup reports whether a one-line query names symbols or files and
// says nothing else but lookup words.
func isLookup(p *Plan, body string) bool {
	named := false
	for _, e := range p.Entities {
		if e.Kind == EntitySymbol || e.Kind == EntityPath {
			named = true
		}
	}
	for _, r := range p.Refs {
		if r.Kind == RefSymbol || r.Kind == RefFile {
			named = true
		}
	}
	if !named || body == "" && len(p.Refs) == 0 {
		return false
	}
	raws := map[string]bool{}
	for _, e := range p.Entities {
		raws[strings.Trim(e.Raw, "`")] = true
	}
	for _, tok := range strings.Fields(body) {
		tok = strings.Trim(tok, "`'\"?!.,;:()")
		if tok == "" || raws[tok] || lookupWords[strings.ToLower(tok)] {
			continue
		}
		if c := classifyChunk(tok); c.kind == chunkSymbol || c.kind == chunkPath {
			continue
		}
		return false
	}
	return true
}

// bareMinLen is the shortest bare word taken as a possible symbol name.
const bareMinLen = 3

// addBareNames records the words of a one-line query that may name a
// declared symbol though nothing in their spelling says so (Router,
// spawn): the whole query when it is one word, and capitalised words that
// do not start a sentence. They are entities only where a symbol of
// exactly that spelling is declared (Entity.Bare); the seeder drops the
// others without a word.
func (b *builder) addBareNames(prose string) {
	if b.multi || b.noEntities {
		return
	}
	body := strings.TrimSpace(prose)
	fields := strings.Fields(body)
	have := map[string]bool{}
	for _, e := range b.p.Entities {
		have[e.Name()] = true
	}
	add := func(w string, salience float64) {
		if have[w] || len(b.p.Entities) >= maxEntities {
			return
		}
		have[w] = true
		b.p.Entities = append(b.p.Entities, Entity{Raw: w, Kind: EntitySymbol, Parts: []string{w}, Bare: true, Salience: salience})
	}
	if len(fields) == 1 {
		if w := strings.Trim(fields[0], "`'\"?!.,;:"); isBareCandidate(w, true) {
			add(w, 1)
		}
		return
	}
	start := true // at the start of a sentence
	for _, f := range fields {
		w := strings.Trim(f, "`'\"?!.,;:()[]{}")
		if !start && isBareCandidate(w, false) && startsUpper(w) {
			add(w, bareSalience)
		}
		start = strings.HasSuffix(f, ".") || strings.HasSuffix(f, "!") || strings.HasSuffix(f, "?") || strings.HasSuffix(f, ":")
	}
}

// bareSalience is the salience of a capitalised word inside a sentence
// that names a declared symbol: less than a name written as code.
const bareSalience = 0.6

// isBareCandidate reports whether w could be a symbol's name: an
// identifier of a few letters that is not a stop word or a product name.
func isBareCandidate(w string, alone bool) bool {
	if len(w) < bareMinLen || !analyze.IsIdent(w) {
		return false
	}
	lw := strings.ToLower(w)
	if notCode[lw] || (!alone && IsStopWord(lw)) {
		return false
	}
	return true
}

// titleLine is the first line of s that holds anything.
func titleLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" {
			return line
		}
	}
	return ""
}

// hasTaskVerb reports whether the text states a task: a conventional
// commit type, or a verb of one of the actions among its first words.
func hasTaskVerb(body string, area areaPrefix) bool {
	if area.conv != "" {
		return true
	}
	words := wordSplitter().FindAllString(strings.ToLower(body), 64)
	for i, w := range words {
		if _, ok := actionVerbs[w]; ok && (i == 0 || !isArticle(words[i-1])) {
			return true
		}
	}
	return false
}

// failureTopic is a failure word that names a topic, not a failure:
// "panic recovery", "error handling", "race detector".
var failureTopic = lazyRegexp(`(?i)\b(?:panic|panics|error|errors|race|deadlock|leak|overflow|crash|crashes)[ -](?:recovery|recover|handling|handler|handlers|middleware|detection|detector|reporting|report|propagation|type|types|code|codes|message|messages|wrapping|page|pages|hooks?)\b`)

// failing reports whether the text speaks of a failure, leaving out the
// failure words that name a topic.
func failing(body string) bool {
	return failureRe().MatchString(failureTopic().ReplaceAllString(body, " "))
}

// pastOfVerb reports whether w is the past tense of a verb of a change:
// "fixed", "added", "removed", "updated", "stopped".
func pastOfVerb(w string) bool {
	stem, ok := strings.CutSuffix(w, "ed")
	if !ok || len(stem) < 2 {
		return false
	}
	for _, v := range []string{stem, stem + "e", stem[:len(stem)-1]} {
		if _, ok := actionVerbs[v]; ok || commitVerbs[v] {
			return true
		}
	}
	return false
}
