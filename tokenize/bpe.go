package tokenize

import (
	"fmt"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// bpe counts with one of the exact byte-pair encodings: with the native
// counter (native.go) once its tables are built, with the library's codec
// until then. Both give the same counts.
type bpe struct {
	codec tokenizer.Codec
	name  string
	cache *cache // nil when disabled
	// counted is how many bytes the codec counted; past nativeAfter the
	// native tables are built in the background.
	counted atomic.Int64
}

// nativeAfter is how much text a counter counts with the codec before it
// has the native tables built (about 150 ms of CPU, and 20 MB for
// o200k_base): a short run never pays for them, a long one soon gains.
const nativeAfter = 64 << 10

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
		n := nextGroup(s)
		total += b.countChunk(s[:n])
		s = s[n:]
	}
	return total
}

// Seam chunks are grouped before they are looked up (nextGroup): a source
// line alone is mostly too short to be worth a lookup, and a group of
// them is not. A group ends after a chunk whose hash has its top
// groupBits bits clear (endsGroup), so where it ends depends only on the chunks
// themselves: the same lines group the same way in every text that holds
// them (a file, the file's JSON string, the bundle that joins them), once
// one group has ended inside them. No group grows past maxGroup bytes.
const (
	groupBits = 2
	maxGroup  = 2048
)

// nextGroup returns the length of the first group of s: whole seam
// chunks (nextSeam) up to the first that ends a group, or all of s.
func nextGroup(s string) int {
	n := 0
	for n < len(s) {
		c := nextSeam(s[n:])
		n += c
		if n >= maxGroup || endsGroup(s[n-c:n]) {
			break
		}
	}
	return n
}

// endsGroup reports whether a group ends after chunk c: the top groupBits
// bits of an FNV-1a hash of its bytes are clear (the low bits of such a
// hash depend on the low bits of the bytes alone).
func endsGroup(c string) bool {
	h := uint32(2166136261)
	for i := 0; i < len(c); i++ {
		h ^= uint32(c[i])
		h *= 16777619
	}
	return h>>(32-groupBits) == 0
}

// uncachedChunk is the length below which a chunk is counted rather than
// looked up: hashing it twice and taking a shard's lock cost more than
// the native count of a short line.
const uncachedChunk = 48

func (b *bpe) countChunk(s string) int {
	if b.cache == nil || (len(s) < uncachedChunk && readyNative(tokenizer.Encoding(b.name)) != nil) {
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

// raw counts s without the cache: natively when the tables are built,
// else with the codec, starting the tables' build once enough was counted.
// With ErrorModeReplace the codec does not fail on any input; should a
// future version do so, count bytes, an upper bound of any byte-level
// encoding.
func (b *bpe) raw(s string) int {
	enc := tokenizer.Encoding(b.name)
	if n := readyNative(enc); n != nil {
		return n.count(s)
	}
	if after := b.counted.Add(int64(len(s))); after > nativeAfter && after-int64(len(s)) <= nativeAfter {
		go Preload(b.name) // once: only the count that crosses the mark starts it
	}
	n, err := b.codec.Count(s)
	if err != nil {
		return len(s)
	}
	return n
}

// nextSeam returns the length of the first chunk of s: up to the first
// seam where counts add up, or all of s. Seams are after a line break
// followed by a safe line start (SafeStart), and between an ASCII letter
// and a backslash: a word piece ends at the backslash and nothing in the
// expressions looks behind it, which splits the single-line JSON strings
// of a bundle at every escaped line break ("…err\n\t\treturn…").
func nextSeam(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			if i+1 < len(s) && SafeStart(s[i+1:]) {
				return i + 1
			}
		case '\\':
			if i > 0 && isASCIILetter(s[i-1]) {
				return i
			}
		}
	}
	return len(s)
}

// SafeStart reports whether a block that starts with s can follow a block
// ending in a line break without changing either block's token count.
// It holds when s does not start with "/" and its first line (up to its
// first line break, or all of s) holds a character that is not white
// space (of any kind the encoders' \s matches), and s does not start with
// an invalid byte: "func", "}" and an indented "\treturn x" qualify; "//
// doc", a blank line and "   \n" do not. When it holds, the exact
// encoders count the concatenation as the sum of the parts.
//
// Why: the encoders split text into pieces and encode each alone. The
// piece that takes the line break ending the first block is either
// punctuation, which also takes the line breaks and slashes right after
// it (hence no "/" first), or white space, which reaches no further than
// the line breaks that end it (hence a first line that is not blank);
// either ends at the seam, and nothing in the expressions looks behind a
// piece's start.
func SafeStart(s string) bool {
	if s == "" || s[0] == '/' || s[0] == '\n' || s[0] == '\r' {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(s); r == utf8.RuneError {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\n' {
			return false
		}
		if c < utf8.RuneSelf {
			switch c {
			case ' ', '\t', '\r', '\v', '\f':
				i++
				continue
			}
			return true
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError && (r == 0x85 || unicode.IsSpace(r)) {
			i += w
			continue
		}
		return true // an invalid byte after the first reads as U+FFFD, not white space
	}
	return false
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
