package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// Pre-tokenization without regular expressions.
//
// The exact encodings first split text into pieces with a regular
// expression and encode each piece alone. tiktoken-go runs those
// expressions on a backtracking engine (regexp2), which cost about 60% of
// a count (pprof on the resident server's queries). The functions here
// find the same pieces by hand, alternative by alternative and with the
// same backtracking, so counts are unchanged; FuzzNativeCount checks it
// against the codec on any text.
//
// o200k_base's expression, alternatives in the order they are tried:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n/]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+
//
// cl100k_base's:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)
//	[^\r\n\p{L}\p{N}]?\p{L}+
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+
//
// \s is unicode.IsSpace, as in regexp2; (?i:…) matches the letters' simple
// case folds, as regexp2 does (so 'ſ' matches s).

// Character classes of the expressions.
const (
	clL    = 1 << iota // \p{L}
	clN                // \p{N}
	clS                // \s
	clUp               // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	clLow              // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	clLine             // \r or \n
	clNone             // matched by no class (see below)
)

var asciiClass [utf8.RuneSelf]uint8

func init() {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		asciiClass[r] = slowClass(r)
	}
}

func slowClass(r rune) uint8 {
	if r == 0x7f {
		// regexp2's negated classes leave DEL out: no alternative
		// matches it, so the codec skips it without a token. So do we.
		return clNone
	}
	var c uint8
	if unicode.IsLetter(r) {
		c |= clL
	}
	if unicode.IsNumber(r) {
		c |= clN
	}
	if unicode.IsSpace(r) {
		c |= clS
	}
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		c |= clUp
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		c |= clLow
	}
	if r == '\r' || r == '\n' {
		c |= clLine
	}
	return c
}

// at returns the class and size of the rune at s[i] (i < len(s)).
func at(s string, i int) (uint8, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClass[b], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return slowClass(r), n
}

// prefixable is [^\r\n\p{L}\p{N}]: the optional character before a word.
func prefixable(c uint8) bool { return c&(clLine|clL|clN|clNone) == 0 }

// punct is [^\s\p{L}\p{N}].
func punct(c uint8) bool { return c&(clS|clL|clN|clNone) == 0 }

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or i.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	r1, n1 := utf8.DecodeRuneInString(s[i+1:])
	j := i + 1 + n1
	var want rune
	switch {
	case foldsTo(r1, 's'), foldsTo(r1, 't'), foldsTo(r1, 'm'), foldsTo(r1, 'd'):
		return j
	case foldsTo(r1, 'r'), foldsTo(r1, 'v'):
		want = 'e'
	case foldsTo(r1, 'l'):
		want = 'l'
	default:
		return i
	}
	if j < len(s) {
		if r2, n2 := utf8.DecodeRuneInString(s[j:]); foldsTo(r2, want) {
			return j + n2
		}
	}
	return i
}

// foldsTo reports whether r is c under simple case folding (c is an ASCII
// lower-case letter).
func foldsTo(r, c rune) bool {
	if r == c || r == c-'a'+'A' {
		return true
	}
	if r < utf8.RuneSelf || r == utf8.RuneError {
		return false
	}
	for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
		if f == r {
			return true
		}
	}
	return false
}

// o200kNext returns the end of the piece of o200k_base that starts at i.
func o200kNext(s string, i int) int {
	c, n := at(s, i)
	// Alternatives 1 and 2, the optional prefix taken first. (They are
	// tried in order, each with and without the prefix; a prefix is never
	// Up or Low except for a mark, where the order decides, see below.)
	if prefixable(c) {
		if e := o200kWordAlt(s, i, i+n); e >= 0 {
			return e
		}
	} else if e := o200kWordAlt(s, i, -1); e >= 0 {
		return e
	}
	return otherNext(s, i, c, n, true)
}

// o200kWordAlt tries alternative 1 with and without the prefix, then
// alternative 2 with and without it (prefixed is the position after the
// prefix, or -1 without one).
func o200kWordAlt(s string, i, prefixed int) int {
	if prefixed >= 0 {
		if e := o200kAlt1(s, prefixed); e >= 0 {
			return e
		}
	}
	if e := o200kAlt1(s, i); e >= 0 {
		return e
	}
	if prefixed >= 0 {
		if e := o200kAlt2(s, prefixed); e >= 0 {
			return e
		}
	}
	return o200kAlt2(s, i)
}

// o200kAlt1 is Up* Low+ contraction? at j, or -1.
//
// When no Low rune follows the Up run, the expression backtracks into the
// run, one rune at a time, until Low+ can start: at the last rune of the
// run that is Low too (a mark, or a letter of class Lm or Lo).
func o200kAlt1(s string, j int) int {
	lastLow := -1
	k := j
	for k < len(s) {
		c, n := at(s, k)
		if c&clUp == 0 {
			break
		}
		if c&clLow != 0 {
			lastLow = k
		}
		k += n
	}
	if k < len(s) {
		if c, _ := at(s, k); c&clLow != 0 {
			return contraction(s, lowRun(s, k))
		}
	}
	if lastLow >= 0 {
		return contraction(s, lowRun(s, lastLow))
	}
	return -1
}

// o200kAlt2 is Up+ Low* contraction? at j, or -1.
func o200kAlt2(s string, j int) int {
	k := j
	for k < len(s) {
		c, n := at(s, k)
		if c&clUp == 0 {
			break
		}
		k += n
	}
	if k == j {
		return -1
	}
	return contraction(s, lowRun(s, k))
}

// lowRun returns the end of the run of Low runes at p.
func lowRun(s string, p int) int {
	for p < len(s) {
		c, n := at(s, p)
		if c&clLow == 0 {
			break
		}
		p += n
	}
	return p
}

// cl100kNext returns the end of the piece of cl100k_base that starts at i.
func cl100kNext(s string, i int) int {
	if e := contraction(s, i); e > i {
		return e
	}
	c, n := at(s, i)
	if prefixable(c) && i+n < len(s) {
		if c2, _ := at(s, i+n); c2&clL != 0 {
			return letterRun(s, i+n)
		}
	}
	if c&clL != 0 {
		return letterRun(s, i)
	}
	return otherNext(s, i, c, n, false)
}

func letterRun(s string, p int) int {
	for p < len(s) {
		c, n := at(s, p)
		if c&clL == 0 {
			break
		}
		p += n
	}
	return p
}

// otherNext tries the alternatives shared by both encodings, from the
// numbers on; slash says whether line breaks after punctuation take
// slashes too (o200k_base).
func otherNext(s string, i int, c uint8, n int, slash bool) int {
	// \p{N}{1,3}
	if c&clN != 0 {
		e := i + n
		for k := 1; k < 3 && e < len(s); k++ {
			c2, n2 := at(s, e)
			if c2&clN == 0 {
				break
			}
			e += n2
		}
		return e
	}
	//  ?[^\s\p{L}\p{N}]+[\r\n/]*
	j := i
	if s[i] == ' ' {
		j = i + 1
	}
	if j < len(s) {
		if c2, _ := at(s, j); punct(c2) {
			e := j
			for e < len(s) {
				c3, n3 := at(s, e)
				if !punct(c3) {
					break
				}
				e += n3
			}
			for e < len(s) && (s[e] == '\r' || s[e] == '\n' || (slash && s[e] == '/')) {
				e++
			}
			return e
		}
	}
	// White space: the run at i.
	end := i
	firstBreak := -1
	var lastStart int
	runes := 0
	for end < len(s) {
		c2, n2 := at(s, end)
		if c2&clS == 0 {
			break
		}
		if c2&clLine != 0 && firstBreak < 0 {
			firstBreak = end
		}
		lastStart = end
		runes++
		end += n2
	}
	if runes == 0 {
		// A rune no alternative matches (DEL): not a piece.
		return -1
	}
	switch {
	case firstBreak >= 0:
		// \s*[\r\n]+ as regexp2 runs it within the whole expression:
		// the white space before the first line break, then the line
		// breaks that follow it (as if \s* were lazy; alone, the same
		// alternative matches up to the last line break of the run).
		e := firstBreak
		for e < end && (s[e] == '\r' || s[e] == '\n') {
			e++
		}
		return e
	case end == len(s): // \s+(?!\S) at the end
		return end
	case runes > 1: // \s+(?!\S): all but the last
		return lastStart
	}
	return end // \s+
}
