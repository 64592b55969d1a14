package analyze

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SplitIdent splits an identifier into its lower-case words at case changes,
// digits-to-letters boundaries, underscores, hyphens, dots, colons and
// slashes: "FindByEmail" → [find by email], "HTTPServer2Config" → [http
// server2 config], "find_by_email" → [find by email]. Runs of upper case are
// kept together except for their last letter when a lower-case letter
// follows ("HTTPServer" → [http server]).
func SplitIdent(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			case unicode.IsLetter(r) && unicode.IsDigit(prev) && !unicode.IsUpper(r) && len(cur) > 1 && !allDigits(cur):
				// "utf8string": keep digits with the letters before them.
			case unicode.IsUpper(r) && unicode.IsDigit(prev):
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

func allDigits(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// NormName is the style-insensitive key of a name: lower case with
// underscores, hyphens and other separators removed. "find_by_email",
// "FindByEmail" and "findByEmail" all give "findbyemail".
func NormName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// IsIdent reports whether s is a plausible identifier: a letter or
// underscore followed by letters, digits or underscores.
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r)) {
			continue
		}
		return false
	}
	return true
}

// Identifiers calls fn for every identifier-like token in src (a run of
// letters, digits and underscores starting with a letter or underscore).
// Invalid UTF-8 bytes act as separators.
func Identifiers(src []byte, fn func(tok []byte)) {
	start := -1
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			isWord := c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
			if isWord {
				if start < 0 {
					if '0' <= c && c <= '9' {
						// skip numbers entirely
						j := i
						for j < len(src) && (src[j] == '_' || isAlnumASCII(src[j])) {
							j++
						}
						i = j
						continue
					}
					start = i
				}
			} else if start >= 0 {
				fn(src[start:i])
				start = -1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			fn(src[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(src[start:])
	}
}

func isAlnumASCII(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}
