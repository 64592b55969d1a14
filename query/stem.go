package query

import (
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Stem reduces an English word to a conservative stem so that inflected
// forms meet: "expires", "expired" and "expiring" all give "expir";
// "handlers" and "handler" give "handl"; "queries" gives "query";
// "settings" gives "set". It expects lower case and leaves alone anything
// that is not made only of ASCII letters, and words of three letters or
// fewer.
//
// The rules strip plurals ("-s", "-es", "-ies"), "-ed", "-ing", "-er",
// "-tion" and a final silent "e", undoubling a final consonant left behind
// ("running" → "run"). They are applied until nothing changes, so Stem is
// idempotent: Stem(Stem(w)) == Stem(w). The stems are keys for matching,
// not words for display.
//
// Query terms and document identifier parts must both go through Stem (use
// [NormTerm] and [TermsOf]) so that they meet.
func Stem(word string) string {
	if len(word) <= 3 || !isLowerASCIIWord(word) {
		return word
	}
	// Every rule shortens the word, so this terminates; the bound is a
	// belt-and-braces guard.
	for range 16 {
		next := stemOnce(word)
		if next == word {
			break
		}
		word = next
	}
	return word
}

// NormTerm is the normal form of a word for matching: lower case, stemmed.
func NormTerm(w string) string {
	return Stem(strings.ToLower(w))
}

// TermsOf splits an identifier into its normalised parts for matching, the
// way ranking indexes document names: "FindByEmail" → [find email],
// "handle_expired_tokens" → [handl expir token]. English function words
// ("by", "of", "the"…) are dropped; query filler words are kept, since code
// legitimately names things FindIssue or AddUser.
func TermsOf(ident string) []string {
	parts := analyze.SplitIdent(ident)
	out := parts[:0]
	for _, p := range parts {
		if p == "" || functionWords[p] {
			continue
		}
		out = append(out, NormTerm(p))
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func isLowerASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}

// hasVowel reports whether w holds a vowel, counting 'y' after a consonant.
func hasVowel(w string) bool {
	for i := 0; i < len(w); i++ {
		if isVowel(w[i]) || (w[i] == 'y' && i > 0 && !isVowel(w[i-1])) {
			return true
		}
	}
	return false
}

// stemOnce applies each rule once, in order; the output of one feeds the next.
func stemOnce(w string) string {
	if len(w) <= 3 {
		return w
	}
	w = stripPlural(w)
	w = stripEdIng(w)
	w = stripEr(w)
	w = stripTion(w)
	w = stripE(w)
	if x, ok := stemExceptions[w]; ok {
		w = x
	}
	return w
}

// stemExceptions repairs the few stems the rules get wrong in ways that
// matter for code ("panicked" → "panick").
var stemExceptions = map[string]string{
	"panick":   "panic",
	"mimick":   "mimic",
	"traffick": "traffic",
}

func stripPlural(w string) string {
	switch {
	case !strings.HasSuffix(w, "s"):
		return w
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2] // classes → class
	case strings.HasSuffix(w, "ies"):
		if len(w) >= 5 {
			return w[:len(w)-3] + "y" // queries → query
		}
		return w
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2] // indexes → index, matches → match
	case strings.HasSuffix(w, "ses") && keepsFinalS(w[:len(w)-2]):
		return w[:len(w)-2] // statuses → status, aliases → alias
	case keepsFinalS(w):
		return w // class, status, analysis, alias
	}
	return w[:len(w)-1]
}

// keepsFinalS reports whether a word's final "s" is not a plural ending.
func keepsFinalS(w string) bool {
	return strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") ||
		strings.HasSuffix(w, "is") || strings.HasSuffix(w, "ias")
}

// restoreSE puts back the "e" of "parse", "close" and "response" that
// "-ed", "-ing" and "-er" took away: [stripE] keeps a final "se", so
// "parsing" must meet "parse" there. "focus", "pass" and "alias" keep
// their "s".
func restoreSE(r string) string {
	if strings.HasSuffix(r, "s") && !keepsFinalS(r) {
		return r + "e"
	}
	return r
}

// stripEdIng removes "-ed" and "-ing" when a syllable remains: "expired" →
// "expir", "running" → "run", "named" → "name", but "string", "thing" and
// "need" stay.
func stripEdIng(w string) string {
	var r string
	switch {
	case strings.HasSuffix(w, "ied") && len(w) >= 5:
		return w[:len(w)-3] + "y" // retried → retry
	case strings.HasSuffix(w, "eed"):
		return w // need, speed, proceed
	case strings.HasSuffix(w, "ed"):
		r = w[:len(w)-2]
	case strings.HasSuffix(w, "ing"):
		r = w[:len(w)-3]
	default:
		return w
	}
	if len(r) < 3 || !hasVowel(r) {
		return w
	}
	if len(r) >= 4 && doubleConsonant(r) {
		return r[:len(r)-1] // running → run, embedded → embed
	}
	if len(r) == 3 && cvc(r) {
		return r + "e" // named → name, coded → code
	}
	return restoreSE(r)
}

// stripEr removes an agent "-er" when at least four letters remain:
// "handler" → "handl", "logger" → "log"; "user", "order" and "timer" stay.
func stripEr(w string) string {
	if !strings.HasSuffix(w, "er") || strings.HasSuffix(w, "eer") {
		return w
	}
	r := w[:len(w)-2]
	if len(r) < 4 || !hasVowel(r) {
		return w
	}
	if doubleConsonant(r) {
		return r[:len(r)-1]
	}
	return restoreSE(r)
}

// stripTion removes "-ion" after a "t" when five letters remain:
// "connection" → "connect", "validation" → "validat" (as "validate" gives).
func stripTion(w string) string {
	if !strings.HasSuffix(w, "tion") || len(w)-3 < 5 {
		return w
	}
	return w[:len(w)-3]
}

// stripE removes a silent final "e" from words of five letters or more:
// "cache" → "cach", "expire" → "expir"; "name", "agree" and words in "-se"
// ("parse", "close", "database") stay, since a stem ending in "s" would
// read as a plural.
func stripE(w string) string {
	if len(w) < 5 || w[len(w)-1] != 'e' {
		return w
	}
	prev := w[len(w)-2]
	if isVowel(prev) || prev == 's' {
		return w
	}
	return w[:len(w)-1]
}

// doubleConsonant reports a final doubled consonant other than l, s or z,
// which English keeps doubled in the stem (call, miss, buzz).
func doubleConsonant(w string) bool {
	n := len(w)
	if n < 2 || w[n-1] != w[n-2] {
		return false
	}
	switch c := w[n-1]; {
	case isVowel(c), c == 'l', c == 's', c == 'z':
		return false
	}
	return true
}

// cvc reports consonant-vowel-consonant, the last not w, x or y: "nam",
// "cod", but not "fix" or "add".
func cvc(w string) bool {
	n := len(w)
	if n < 3 {
		return false
	}
	a, b, c := w[n-3], w[n-2], w[n-1]
	if isVowel(a) || !(isVowel(b) || b == 'y') || isVowel(c) {
		return false
	}
	return c != 'w' && c != 'x' && c != 'y'
}
