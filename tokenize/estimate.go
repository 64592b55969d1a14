package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// estimator is the "estimate" counter.
type estimator struct{}

func (estimator) Name() string       { return "estimate" }
func (estimator) Count(s string) int { return Estimate(s) }

// Estimate is the character-class heuristic described in the package
// documentation: an upper-bound-ish guess at what the exact encoders count,
// additive at every line break.
func Estimate(s string) int {
	total := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isASCIILetter(c):
			j, humps := i+1, 1
			for j < len(s) && isASCIILetter(s[j]) {
				if isUpper(s[j]) && isLower(s[j-1]) {
					humps++
				}
				j++
			}
			total += max(humps, (j-i+3)/4)
			i = j
		case '0' <= c && c <= '9':
			j := i + 1
			for j < len(s) && '0' <= s[j] && s[j] <= '9' {
				j++
			}
			total += (j - i + 2) / 3
			i = j
		case c == '\n':
			total++
			i++
		case isBlank(c):
			j := i + 1
			for j < len(s) && isBlank(s[j]) {
				j++
			}
			if j-i > 1 || c != ' ' {
				total++
			}
			i = j
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && isPunct(s[j]) {
				j++
			}
			total += (j - i + 1) / 2
			i = j
		default:
			// Non-ASCII: letters cost one each; a run of anything else
			// costs half its bytes. An invalid byte stands for the U+FFFD
			// it will be shown as.
			other := 0
			for i < len(s) && s[i] >= utf8.RuneSelf {
				r, n := utf8.DecodeRuneInString(s[i:])
				switch {
				case r == utf8.RuneError && n == 1:
					other += 3
				case unicode.IsLetter(r):
					total++
				default:
					other += n
				}
				i += n
			}
			total += (other + 1) / 2
		}
	}
	return total
}

func isASCIILetter(c byte) bool { return isLower(c) || isUpper(c) }
func isLower(c byte) bool       { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool       { return 'A' <= c && c <= 'Z' }
func isBlank(c byte) bool       { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// isPunct reports whether an ASCII byte belongs to a punctuation run:
// anything that is not a letter, digit, blank or line break.
func isPunct(c byte) bool {
	return !isASCIILetter(c) && !('0' <= c && c <= '9') && !isBlank(c) && c != '\n'
}
