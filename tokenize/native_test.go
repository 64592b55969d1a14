package tokenize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// nativeCases are texts where the expressions' corners lie: prefixes,
// marks, contractions with folded letters, digits, white-space runs at
// the end and before words, punctuation swallowing line breaks and
// slashes, invalid bytes.
var nativeCases = []string{
	"", "a", " ", "  ", "\n", "\r\n", "\n\n \n\t", "x  ", "x  y", "x \ty", "\t\tx", " \u00a0x",
	"Hello World", "HELLO", "HTTPServer", "parseURL", "'s", "it's", "IT'S", "we'll", "they'Re", "he'ſ", "don'T't",
	"'ll'", "x'r", "x'v", "\u0301", "a\u0301b", "\u0301\u0301", "(\u0301", "ǅungla", "ǅ", "ʰʰa", "ᵃ",
	"Aʰ", "ABʰ1", "Xᵃ\u0301Y", "ÉʰÉ", "ABC\u0301", " Aʰb",
	"123456789", "١٢٣٤", "x1y", "½¾", "Ⅻ",
	"}\n// doc\nfunc F() {}\n", "a/*b*/c", "x //y\n/z", "x;\n\n/", "))\r\n/",
	" (x)", " !", "!!", "\u3000x", "\u2028\u2029", "x\u0085y",
	"\xff", "a\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xed\xa0\x80", "\xf4\x90\x80\x80", "ok\xc0\xafok",
	"日本語のテキスト", "Ελληνικά", "русский текст", "emoji 😀👍🏽", "مرحبا",
	strings.Repeat("a", 500), strings.Repeat("ab1 ", 200), strings.Repeat("=", 300), strings.Repeat("\u00e9", 100),
}

// TestNativeCounts: the native counters count as the codec does, on the
// corner cases and on this repository's Go files.
func TestNativeCounts(t *testing.T) {
	files := repoFiles(t)
	more, _ := filepath.Glob("../bundle/*.go")
	for _, p := range more {
		if b, err := os.ReadFile(p); err == nil {
			files[p] = string(b)
		}
	}
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		n, err := nativeFor(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range nativeCases {
			if got, want := n.count(s), rawCount(t, enc, s); got != want {
				t.Errorf("%s %q: native %d, codec %d", enc, s, got, want)
			}
		}
		for p, s := range files {
			if got, want := n.count(s), rawCount(t, enc, s); got != want {
				t.Errorf("%s %s: native %d, codec %d", enc, p, got, want)
			}
		}
	}
}

// FuzzNativeCount: on any text the native counters give the codec's
// count, for both encodings.
func FuzzNativeCount(f *testing.F) {
	for _, s := range nativeCases {
		f.Add(s)
	}
	codecs := map[tokenizer.Encoding]tokenizer.Codec{}
	natives := map[tokenizer.Encoding]*native{}
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		c, err := tokenizer.Get(enc)
		if err != nil {
			f.Fatal(err)
		}
		c.SetErrorMode(tokenizer.ErrorModeReplace)
		codecs[enc] = c
		n, err := nativeFor(enc)
		if err != nil {
			f.Fatal(err)
		}
		natives[enc] = n
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2048 {
			return
		}
		for enc, c := range codecs {
			want, err := c.Count(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := natives[enc].count(s); got != want {
				t.Fatalf("%s %q: native %d, codec %d", enc, s, got, want)
			}
		}
	})
}
