package tokenize

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// bpe counts with one of the exact byte-pair encodings.
type bpe struct {
	codec tokenizer.Codec
	name  string
	cache *cache // nil when disabled
}

func newBPE(name string, cacheSize int) (*bpe, error) {
	codec, err := tokenizer.Get(tokenizer.Encoding(name))
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", name, err)
	}
	// Count what would be shown: every invalid byte sequence as U+FFFD.
	codec.SetErrorMode(tokenizer.ErrorModeReplace)
	b := &bpe{codec: codec, name: name}
	if cacheSize > 0 {
		b.cache = newCache(cacheSize)
	}
	return b, nil
}

func (b *bpe) Name() string { return b.name }

// Count splits s at additive seams (see SplitAdditive) and sums the counts
// of the chunks, each looked up in or added to the cache.
func (b *bpe) Count(s string) int {
	total := 0
	for len(s) > 0 {
		n := nextSeam(s)
		total += b.countChunk(s[:n])
		s = s[n:]
	}
	return total
}

func (b *bpe) countChunk(s string) int {
	if b.cache == nil {
		return b.raw(s)
	}
	k := b.cache.key(s)
	if n, ok := b.cache.get(k); ok {
		return n
	}
	n := b.raw(s)
	b.cache.put(k, n)
	return n
}

// raw counts s with the codec alone. With ErrorModeReplace the codec does
// not fail on any input; should a future version do so, count bytes, an
// upper bound of any byte-level encoding.
func (b *bpe) raw(s string) int {
	n, err := b.codec.Count(s)
	if err != nil {
		return len(s)
	}
	return n
}

// nextSeam returns the length of the first chunk of s: up to and including
// the first line break that is followed by a safe line start, or all of s.
func nextSeam(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) && SafeStart(s[i+1:]) {
			return i + 1
		}
	}
	return len(s)
}

// SafeStart reports whether a block that starts with s can follow a block
// ending in a line break without changing either block's token count: s
// starts with a character that is neither white space (of any kind the
// encoders' \s matches) nor "/", nor an invalid byte. When it holds, the
// exact encoders count the concatenation as the sum of the parts.
func SafeStart(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if c < utf8.RuneSelf {
		switch c {
		case '/', ' ', '\t', '\n', '\r', '\v', '\f':
			return false
		}
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || r == 0x85 || unicode.IsSpace(r) || unicode.Is(unicode.Z, r) {
		return false
	}
	return true
}

// SplitAdditive splits s into chunks whose counts add up to the count of s
// for the exact encodings and the estimate (with a margin the rounded-up
// counts of the chunks add up to at least the count of s): each chunk but
// the last ends in a line break and each chunk but the first satisfies
// SafeStart. Concatenating the chunks gives s back.
func SplitAdditive(s string) []string {
	var out []string
	for len(s) > 0 {
		n := nextSeam(s)
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
