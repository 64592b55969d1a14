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
