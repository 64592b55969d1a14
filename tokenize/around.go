package tokenize

import "unicode/utf8"

// AddsUp is implemented by counters whose count of a text equals the sum
// of the counts of its parts whenever the parts meet at additive seams
// (SplitAdditive's): the exact encodings, the estimate, and wrappers of
// such counters that count as they do (a Memo's). A calibrated counter
// does not add up: it rounds each count up.
type AddsUp interface {
	Counter
	AddsUp() bool
}

func (*bpe) AddsUp() bool      { return true }
func (estimator) AddsUp() bool { return true }

func (s *scaled) AddsUp() bool { return s.factor == 1 && Additive(s.base) }

func (c *memoCounter) AddsUp() bool { return Additive(c.inner) }

// Additive reports whether c adds up (AddsUp).
func Additive(c Counter) bool {
	a, ok := c.(AddsUp)
	return ok && a.AddsUp()
}

// CountAround returns c.Count(text), for a text that holds an inner text
// (a file's code, as it is or escaped) at text[lo:hi] within a frame that
// varies (a header with a score and reasons, a closing fence). When c
// adds up, it counts three parts: up to the first additive seam inside
// text[lo:hi], from there to the last one, and the rest. The middle part
// depends on the inner text alone, so a counter that remembers whole
// texts (a Memo) finds it again in any frame; the frame's parts are
// short. Otherwise, or without two seams inside, it counts text whole.
func CountAround(c Counter, text string, lo, hi int) int {
	if lo < 0 || hi > len(text) || hi-lo < MinMemoText || !Additive(c) {
		return c.Count(text)
	}
	// End inner on a whole character, so that the line its last seam
	// looks ahead to is cut at a character boundary (below).
	for hi > lo && text[hi-1] >= utf8.RuneSelf {
		hi--
	}
	inner := text[lo:hi]
	first := nextSeam(inner)
	last := lastSeam(inner)
	if first >= last {
		return c.Count(text)
	}
	return c.Count(text[:lo+first]) + c.Count(text[lo+first:lo+last]) + c.Count(text[lo+last:])
}

// lastSeam returns the position of the last additive seam in s (see
// nextSeam), or 0 when s has none. When s ends on a whole character,
// every seam of s is one of any text that holds s: the rules look at
// the bytes around a seam and forward to the end of its line, and a line
// that the end of s cuts short holds a character other than white space
// only if the whole line does.
func lastSeam(s string) int {
	for p := len(s) - 1; p > 0; p-- {
		switch {
		case s[p] == '\\' && isASCIILetter(s[p-1]):
			return p
		case s[p-1] == '\n' && SafeStart(s[p:]):
			return p
		}
	}
	return 0
}
