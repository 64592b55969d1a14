package bundle

import (
	"context"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// FuzzSkeleton feeds arbitrary text to the skeleton builders as Go and as
// Rust: they must not panic, and a Go skeleton must parse as Go.
func FuzzSkeleton(f *testing.F) {
	for _, seed := range []string{
		"package p\n\nfunc F() {\n\treturn\n}\n",
		"package p\nvar x = map[string]int{\n\"a\": 1,\n\"b\": 2,\n\"c\": 3,\n}\nvar f = func() {}\n",
		"use a::b;\nimpl<'a> X<'a> { fn f(&self) -> char { '{' } }\nfn g() { let s = r#\"}\"#; }\n",
		"struct S { a: u8 }\nmacro_rules! m { () => {} }\nmod t { fn x() {} }\n",
		"/* unterminated",
		"fn f() { \"unterminated",
		"impl X {\n    /// doc\n    #[inline]\n    pub fn a(&self) {}\n    const C: u8 = 1;\n}\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<14 {
			return
		}
		if skel, _, ok := goSkeleton(text); ok {
			if _, err := parser.ParseFile(token.NewFileSet(), "", skel, parser.ParseComments); err != nil {
				t.Fatalf("Go skeleton does not parse: %v\n--- source\n%s\n--- skeleton\n%s", err, text, skel)
			}
		}
		for _, lang := range []analyze.Lang{analyze.LangGo, analyze.LangRust} {
			src := newSrc([]byte(text), lang)
			skel, _ := symbolSkeleton(src, nil)
			if skel != "" && !strings.HasSuffix(skel, "\n") {
				t.Fatalf("skeleton does not end in a line break: %q", skel)
			}
			if n := src.n(); n > 0 {
				syms := []Symbol{{Name: "a", Kind: "func", Start: 1, End: n, DeclLine: 1}, {Name: "b", Kind: "impl", Start: n / 2, End: n + 5}}
				symbolSkeleton(src, syms)
			}
			if len(mask(text, lang)) != len(text) {
				t.Fatal("mask changed the length")
			}
		}
	})
}

// FuzzBuild assembles a bundle of one fuzzed file with fuzzed spans and
// budget: it must not fail and must stay within the budget.
func FuzzBuild(f *testing.F) {
	f.Add("package p\n\nfunc F() {}\n", true, 1, 3, 200, uint8(0))
	f.Add("fn main() {\n    println!(\"```]]>\");\n}\n", false, 2, 2, 60, uint8(1))
	f.Add("\xff\xfe\n\n\n", true, -5, 99, 5000, uint8(2))
	counter := newCounter(f, "o200k")
	f.Fuzz(func(t *testing.T, text string, goLang bool, start, end, budget int, format uint8) {
		if len(text) > 1<<14 {
			return
		}
		budget = 50 + abs(budget)%5000
		lang, path := analyze.LangRust, "src/lib.rs"
		if goLang {
			lang, path = analyze.LangGo, "p/p.go"
		}
		req := Request{
			Query: "fuzz", Budget: budget, Counter: counter, Format: Format(format % 4),
			Files: []File{{Path: path, Lang: lang, Score: 1, Spans: []Span{{Start: start, End: end}},
				Symbols: []Symbol{{Name: "x", Kind: "func", Start: start, End: end, DeclLine: start}}}},
			Options: Options{Read: func(context.Context, string) ([]byte, error) { return []byte(text), nil }},
		}
		r, err := Build(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if n := counter.Count(string(r.Output)); n > budget || n != r.TotalTokens {
			t.Fatalf("counts %d, says %d, budget %d", n, r.TotalTokens, budget)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n { // the smallest int
			return 0
		}
		return -n
	}
	return n
}

// FuzzJSONSection holds a JSON section put together from a memoised
// escaping of its content (withContent) to what marshalling the whole
// object gives, for any content and reason, seen once or again.
func FuzzJSONSection(f *testing.F) {
	f.Add("package p\n\nfunc F() { return \"<a&b>\" }\n"+strings.Repeat("x := \"\\t\\u2028\"\n", 20), "seed: F")
	f.Add("\xff\xfe bad \x00 bytes \u2028\u2029 and \"quotes\"\n", "")
	f.Fuzz(func(t *testing.T, content, reason string) {
		s := section{path: "a.go", lang: "go", score: 0.5, rung: RungFull, reasons: []string{reason}, content: content}
		want := marshal(jsonFile{Path: s.path, Lang: s.lang, Score: roundScore(s.score), Included: true, Rung: s.rung.String(),
			Lines: formatRanges(s.ranges), Reasons: s.reasons, Spans: []jsonSpan{}, Content: content}) + ",\n"
		for range 2 { // the second time from the memo
			if got := (jsonFormat{}).file(&s); got != want {
				t.Fatalf("section\n%q\nwant\n%q", got, want)
			}
		}
	})
}
