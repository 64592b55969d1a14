package tokenize

import (
	"errors"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// FuzzChunkedCount checks, on arbitrary text, the additivity the chunked
// exact counters and the bundle assembler rely on: the chunked count equals
// the codec's count of the whole, for both encodings, and the estimate adds
// up at line breaks.
func FuzzChunkedCount(f *testing.F) {
	f.Add("}\n// doc\nfunc F() {}\n")
	f.Add("a\n\n  \nb\n/x\n")
	f.Add("x\xff\n\xc0y\n")
	f.Add("<|endoftext|>\n<|endoftext|>")
	f.Add("'s\n're\n\u00a0\n\u2028z\n")
	f.Add("func F() {\n\tx := 1\n\t// c\n  \n\t\treturn x\n}\n")
	f.Add("a \n \u00a0b\n\t\n\tc\n \xffd\n")
	f.Add(`{"content": "package x\n\nfunc F() {\n\tif err != nil {\n\t\treturn err\n\t}\n}\n"}`)
	counters := map[tokenizer.Encoding]Counter{}
	raws := map[tokenizer.Encoding]tokenizer.Codec{}
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		c, err := New(string(enc))
		if err != nil {
			f.Fatal(err)
		}
		counters[enc] = c
		raw, _ := tokenizer.Get(enc)
		raw.SetErrorMode(tokenizer.ErrorModeReplace)
		raws[enc] = raw
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		for enc, c := range counters {
			want, err := raws[enc].Count(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Count(s); got != want {
				t.Fatalf("%s: chunked count %d, whole %d for %q (chunks %q)", enc, got, want, s, SplitAdditive(s))
			}
		}
		sum := 0
		for _, ch := range SplitAdditive(s) {
			sum += Estimate(ch)
		}
		if got := Estimate(s); got != sum {
			t.Fatalf("estimate: whole %d, chunks %d", got, sum)
		}
	})
}

// FuzzNew checks that any name and margin give a counter or a typed error.
func FuzzNew(f *testing.F) {
	f.Add("o200k", 1.0)
	f.Add("CLAUDE", 1.3)
	f.Add("estimate", 0.0)
	f.Add("nope", 9.0)
	f.Fuzz(func(t *testing.T, name string, margin float64) {
		c, err := New(name, WithMargin(margin), WithCacheSize(8))
		if err != nil {
			if !errors.Is(err, ErrUnknownTokenizer) && !errors.Is(err, ErrBadMargin) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if c.Name() == "" || c.Count("some text\n") <= 0 {
			t.Fatalf("counter %q counts %d", c.Name(), c.Count("some text\n"))
		}
	})
}

// FuzzCountAround holds CountAround to the count of the whole text
// made in one piece (the codec's, for the exact encodings, whose own
// Count splits at seams too), for counters that add up, bare and through
// a Memo, and for a calibrated one, wherever the inner text lies.
func FuzzCountAround(f *testing.F) {
	f.Add("{\"path\":\"a.go\",\"content\":\"package a\\n\\nfunc F() {\\n\\treturn\\n}\\n\"},\n", uint(26), uint(60))
	f.Add("## a.go\n\n```go\npackage a\n\n// doc\nfunc F() {}\n  \nvar x = 1\n```\n", uint(15), uint(62))
	f.Add("x\n\u3000\u3000\ny\nz\nw\n", uint(0), uint(7))
	type subject struct {
		c     Counter
		whole func(string) int
	}
	var subjects []subject
	for _, name := range []string{"o200k", "cl100k", "estimate", "claude"} {
		c, err := New(name, WithCacheSize(64))
		if err != nil {
			f.Fatal(err)
		}
		whole := c.Count
		if b, ok := c.(*bpe); ok {
			whole = func(s string) int { n, _ := b.codec.Count(s); return n }
		}
		subjects = append(subjects, subject{c, whole}, subject{NewMemo(64).Wrap(c), whole})
	}
	Preload("o200k", "cl100k")
	f.Fuzz(func(t *testing.T, s string, lo, hi uint) {
		if len(s) > 4096 {
			return
		}
		// Inner texts shorter than MinMemoText are counted whole: make
		// the text long enough to have longer ones.
		for len(s) > 0 && len(s) < 4*MinMemoText {
			s += s
		}
		n := uint(len(s))
		lo %= n + 1
		hi = lo + hi%(n-lo+1)
		for _, sub := range subjects {
			if got, want := CountAround(sub.c, s, int(lo), int(hi)), sub.whole(s); got != want {
				t.Fatalf("%s: CountAround(%q, %d, %d) = %d, whole %d", sub.c.Name(), s, lo, hi, got, want)
			}
		}
	})
}
