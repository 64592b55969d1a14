package tokenize

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// benchFile is a real Go file of this repository.
const benchFile = "../analyze/facts.go"

func loadBench(b *testing.B) string {
	src, err := os.ReadFile(benchFile)
	if err != nil {
		b.Fatal(err)
	}
	return string(src)
}

func reportTokens(b *testing.B, tokens int) {
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkCount measures Counter.Count on a real Go file: exact counters
// without a cache (cold), with every chunk cached (warm), and the estimate.
func BenchmarkCount(b *testing.B) {
	src := loadBench(b)
	cases := []struct {
		name string
		opts []Option
		enc  string
	}{
		{"o200k/cold", []Option{WithCacheSize(-1)}, "o200k"},
		{"o200k/warm", nil, "o200k"},
		{"cl100k/cold", []Option{WithCacheSize(-1)}, "cl100k"},
		{"estimate", nil, "estimate"},
	}
	exact := rawCount(b, tokenizer.O200kBase, src)
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			c, err := New(tc.enc, tc.opts...)
			if err != nil {
				b.Fatal(err)
			}
			c.Count(src)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				c.Count(src)
			}
			reportTokens(b, exact)
		})
	}
}

// BenchmarkLibraryEncode is the library's own Encode (and Count) on the
// same file, the baseline for BenchmarkCount in the same run.
func BenchmarkLibraryEncode(b *testing.B) {
	src := loadBench(b)
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		codec, err := tokenizer.Get(enc)
		if err != nil {
			b.Fatal(err)
		}
		ids, _, _ := codec.Encode(src)
		b.Run(string(enc)+"/Encode", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				codec.Encode(src)
			}
			reportTokens(b, len(ids))
		})
		b.Run(string(enc)+"/Count", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				codec.Count(src)
			}
			reportTokens(b, len(ids))
		})
	}
}

// BenchmarkNativeCount is the native counter against the library's codec
// on the same file, neither cached, in the same run.
func BenchmarkNativeCount(b *testing.B) {
	src := loadBench(b)
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		n, err := nativeFor(enc)
		if err != nil {
			b.Fatal(err)
		}
		exact := rawCount(b, enc, src)
		b.Run(string(enc)+"/native", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				n.merged = newCache(1 << 16) // no piece remembered between rounds
				n.count(src)
			}
			reportTokens(b, exact)
		})
		b.Run(string(enc)+"/codec", func(b *testing.B) {
			c, _ := tokenizer.Get(enc)
			c.SetErrorMode(tokenizer.ErrorModeReplace)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				c.Count(src)
			}
			reportTokens(b, exact)
		})
	}
}

// BenchmarkRenderings counts what a bundle counts for one file: the file,
// slices of it under a header line, and its JSON string, with a counter
// whose cache starts empty on each iteration. The chunk cache serves the
// lines each rendering shares with the ones before it.
func BenchmarkRenderings(b *testing.B) {
	src := loadBench(b)
	lines := strings.SplitAfter(src, "\n")
	quoted, err := json.Marshal(src)
	if err != nil {
		b.Fatal(err)
	}
	texts := []string{src, string(quoted)}
	for k := 1; k <= 4; k++ {
		texts = append(texts, "// "+strings.Repeat("x", k)+"\n"+strings.Join(lines[len(lines)*k/10:len(lines)*(10-k)/10], ""))
	}
	Preload("o200k")
	total := 0
	for _, t := range texts {
		total += len(t)
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		c, err := New("o200k")
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range texts {
			c.Count(t)
		}
	}
}
