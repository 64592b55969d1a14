package main

import (
	"crypto/sha256"
	"regexp"
	"strings"
	"unicode"
)

// Rejections of a doc comment as a pseudo-question.
const (
	rejectNoSentence = "no first sentence"
	rejectShort      = "too few words"
	rejectLong       = "too long"
	rejectBoiler     = "boilerplate"
)

// Doc sentences are between these many words long, with at least
// minContent words that are neither stop words nor shorter than three
// letters: shorter ones ("returns the value") name nothing a question
// could be about.
const (
	minWords   = 5
	maxWords   = 30
	minContent = 3
)

var (
	// [text](url) and [text][ref] keep their text; bare URLs go.
	mdLink  = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)|\[([^\]]*)\]\[[^\]]*\]`)
	bareURL = regexp.MustCompile(`https?://\S+`)
	// A sentence ends at a full stop, question or exclamation mark before
	// a space and a capital, or at the end.
	sentenceEnd = regexp.MustCompile(`[.!?](\s+[A-Z(]|\s*$)`)
)

// boilerplate starts doc sentences that say nothing about what the code
// does.
var boilerplate = []string{"deprecated", "todo", "fixme", "note:", "safety", "see ", "this is a generated", "code generated",
	"unstable", "experimental", "nolint", "go:generate", "xxx", "hack"}

// docQuestion turns a doc comment into a question about the declaration
// it documents, or says why it cannot: the comment's first sentence with
// the declared name taken out, in one of a few phrasings chosen by seed.
func docQuestion(doc, name, kind, seed string) (string, string) {
	s := firstSentence(doc)
	if s == "" {
		return "", rejectNoSentence
	}
	if isBoilerplate(s) {
		return "", rejectBoiler
	}
	words := withoutName(strings.Fields(s), name, kind)
	if len(words) > 0 && (strings.EqualFold(words[0], "this") || strings.EqualFold(words[0], "it")) {
		words = words[1:] // "This represents …": the subject was the name
	}
	if why := wordsReject(words); why != "" {
		return "", why
	}
	return phrase(words, seed), ""
}

// isBoilerplate says whether a sentence starts as one that says nothing
// about what the code does.
func isBoilerplate(s string) bool {
	low := strings.ToLower(s)
	for _, b := range boilerplate {
		if strings.HasPrefix(low, b) {
			return true
		}
	}
	return false
}

// wordsReject says why a sentence's words cannot be a question (too
// few, too many, or too few content words), or "" when they can.
func wordsReject(words []string) string {
	switch {
	case len(words) < minWords:
		return rejectShort
	case len(words) > maxWords:
		return rejectLong
	case contentWords(words, nil) < minContent:
		return rejectShort
	}
	return ""
}

// contentWords counts the words, lower-cased and without surrounding
// punctuation, of three letters or more that are neither stop words nor
// in skip.
func contentWords(words []string, skip map[string]bool) int {
	n := 0
	for _, w := range words {
		if w = strings.ToLower(strings.Trim(w, ".,;:()'\"`")); len(w) >= 3 && !stopWord[w] && !skip[w] {
			n++
		}
	}
	return n
}

// firstSentence is the first sentence of a doc comment's first paragraph,
// on one line, without markdown links, code marks or URLs; empty when the
// paragraph is a heading, a code block or a list.
func firstSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	if doc == "" || strings.HasPrefix(doc, "#") || strings.HasPrefix(doc, "```") || strings.HasPrefix(doc, "- ") ||
		strings.HasPrefix(doc, "* ") || strings.HasPrefix(doc, "|") {
		return ""
	}
	doc = mdLink.ReplaceAllString(doc, "$1$2")
	doc = bareURL.ReplaceAllString(doc, "")
	doc = strings.NewReplacer("`", "", "[", "", "]", "", "*", "", "\t", " ", "\n", " ").Replace(doc)
	if loc := sentenceEnd.FindStringIndex(doc); loc != nil {
		doc = doc[:loc[0]]
	}
	return strings.Join(strings.Fields(doc), " ")
}

// withoutName drops the declared name from a sentence's words, with what
// only made sense around it: Go's "Package foo" and a leading article
// before the name ("The Router is …" → "is …").
func withoutName(words []string, name, kind string) []string {
	var out []string
	for i, w := range words {
		core := strings.TrimRight(strings.TrimLeft(w, "(\"'"), ".,;:)'\"!?")
		core = strings.TrimSuffix(strings.TrimSuffix(core, "'s"), "()")
		if kind == "package" && i == 0 && strings.EqualFold(core, "package") {
			continue
		}
		// The first word's case says nothing (a sentence capitalises it,
		// and phrase lower-cases it again): "Group the items …" names fn
		// group, and so does whichever word comes first once the words
		// before it are gone. Elsewhere case tells the name from a word
		// ("a router group" is not Group).
		if namesIt(core, name) || len(out) == 0 && strings.EqualFold(core, name) {
			if i == 1 && len(out) == 1 && article(out[0]) {
				out = out[:0]
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

func article(w string) bool {
	switch strings.ToLower(w) {
	case "a", "an", "the":
		return true
	}
	return false
}

// namesIt says whether a word is the declared name, alone or qualified
// (Type.Name, Type::name, self.name).
func namesIt(word, name string) bool {
	if word == name {
		return true
	}
	for _, sep := range []string{".", "::"} {
		if i := strings.LastIndex(word, sep); i >= 0 && word[i+len(sep):] == name {
			return true
		}
	}
	return false
}

// phrase puts a doc sentence's words into one of a few question forms,
// picked by seed so that a dataset holds them all in fixed proportions:
// a sentence that starts with a verb ("returns …", "is …") becomes "what
// returns …" or "where is the code that returns …"; one that starts with
// a noun phrase ("a pool of …") stays a phrase or becomes "where is a
// pool of …"; an imperative ("create a …") becomes "how to create a …".
func phrase(words []string, seed string) string {
	first := strings.ToLower(words[0])
	words = append([]string{first}, words[1:]...)
	body := strings.TrimRight(strings.Join(words, " "), ".:;, ")
	h := sha256.Sum256([]byte(seed))
	pick := int(h[0]) % 3
	switch {
	case first == "is" || first == "are" || first == "can" || first == "will" || first == "should" || first == "may":
		return []string{"what " + body + "?", "what " + body, "which code " + body + "?"}[pick]
	case thirdPerson(first):
		return []string{"what " + body + "?", "where is the code that " + body, "which part " + body + "?"}[pick]
	case imperative[first]:
		return []string{"how to " + body, "where is the code to " + body + "?", body}[pick]
	}
	return []string{body, "where is " + body + "?", "how does " + body + " work?"}[pick]
}

// thirdPerson says whether a word reads as a verb in the third person
// singular ("returns", "reports", "does"), the usual start of a Go doc
// sentence once the name is gone.
func thirdPerson(w string) bool {
	if len(w) < 4 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") {
		return false
	}
	if notVerbs[w] {
		return false
	}
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// notVerbs end in s and start doc sentences as nouns or adverbs.
var notVerbs = map[string]bool{"options": true, "settings": true, "details": true, "various": true, "always": true,
	"sometimes": true, "bytes": true, "items": true, "values": true, "results": true, "tests": true, "utilities": true,
	"helpers": true, "methods": true, "functions": true, "types": true, "errors": true, "parameters": true, "arguments": true}

// imperative verbs start Rust doc sentences ("Create a new …").
var imperative = map[string]bool{"create": true, "return": true, "get": true, "set": true, "build": true, "parse": true,
	"convert": true, "check": true, "make": true, "construct": true, "read": true, "write": true, "add": true,
	"remove": true, "insert": true, "find": true, "compute": true, "apply": true, "load": true, "run": true,
	"start": true, "stop": true, "send": true, "handle": true, "register": true, "resolve": true, "render": true,
	"format": true, "encode": true, "decode": true, "open": true, "close": true, "spawn": true, "wait": true,
	"push": true, "pop": true, "clear": true, "reset": true, "update": true, "initialize": true, "initialise": true,
	"generate": true, "validate": true, "execute": true, "call": true, "collect": true, "emit": true, "extract": true}

// stopWord are the words a content count ignores.
var stopWord = map[string]bool{"the": true, "and": true, "for": true, "that": true, "this": true, "with": true,
	"from": true, "into": true, "are": true, "its": true, "it's": true, "has": true, "have": true, "was": true,
	"were": true, "will": true, "can": true, "not": true, "but": true, "all": true, "any": true, "one": true,
	"which": true, "when": true, "what": true, "who": true, "how": true, "where": true, "than": true, "then": true,
	"there": true, "their": true, "them": true, "they": true, "these": true, "those": true, "also": true,
	"only": true, "each": true, "other": true, "such": true, "some": true, "may": true, "should": true,
	"would": true, "could": true, "does": true, "returns": true, "return": true, "given": true, "new": true,
	"used": true, "use": true, "uses": true, "using": true, "value": true, "type": true, "function": true,
	"method": true, "struct": true, "interface": true, "implements": true, "implementation": true, "trait": true,
	"object": true, "instance": true, "specified": true, "provided": true, "true": true, "false": true, "nil": true,
	"none": true, "some()": true, "err": true, "error": true, "ok": true, "otherwise": true, "represents": true}

// sentenceKey is a sentence's words in lower case: two declarations whose
// questions have one key are ambiguous ("what implements the Handler
// interface") and neither is kept.
func sentenceKey(q string) string {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(q)) {
		w = strings.Trim(w, ".,;:?!()'\"")
		switch w {
		case "what", "where", "is", "the", "code", "that", "which", "part", "how", "to", "does", "work":
			continue
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}
