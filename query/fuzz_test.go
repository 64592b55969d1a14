package query

import (
	"strings"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"fix UserService.find_by_email",
	"panic: runtime error in Store::orders_of",
	"why does login return 500 when the token expired",
	"xdsclient: fix race in watcher cleanup",
	"@internal/a.go#L10-20 @search:\"x \\\" y\" @grep:'(a+)+$' @url:https://example.com/ @pkg.Func",
	"goroutine 1 [running]:\nmain.main()\n\t/x/main.go:3 +0x1",
	"thread 'main' panicked at src/main.rs:1:1:\nboom\nstack backtrace:\n 0: a::b\n at ./src/a.rs:1:1",
	"`(*T).M` and (*T).M() and a::<b>::c! and @",
	"@a.go#L99999999999999999999 @\"@search:'",
	"\xff\xfe @\xff.go ``` ` `",
	goReport,
	rustReport,
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p := Analyze(text)
		if p.Text != text || p.Planner != "heuristic" {
			t.Fatalf("Text/Planner not kept: %q %q", p.Text, p.Planner)
		}
		for _, r := range p.Refs {
			if !strings.Contains(text, r.Raw) || !strings.HasPrefix(r.Raw, "@") {
				t.Fatalf("ref raw %q not in the text", r.Raw)
			}
		}
		seen := map[string]bool{}
		for _, term := range p.Terms {
			if term.Text == "" || strings.TrimSpace(term.Text) != term.Text {
				t.Fatalf("bad term %q", term.Text)
			}
			if seen[term.Text] {
				t.Fatalf("duplicate term %q", term.Text)
			}
			seen[term.Text] = true
			if term.Weight <= 0 || term.Kind < TermWord || term.Kind > TermPath {
				t.Fatalf("bad term %+v", term)
			}
		}
		if len(p.Keywords) != len(p.Terms) || len(p.Terms) > maxTerms {
			t.Fatalf("%d keywords for %d terms", len(p.Keywords), len(p.Terms))
		}
		for _, e := range p.Entities {
			if e.Raw == "" || e.Kind < EntitySymbol || e.Kind > EntityCode || e.Salience < 0 || e.Salience > 1 {
				t.Fatalf("bad entity %+v", e)
			}
		}
		if p.Action == "" || p.Scope == "" || p.Strategy == "" || p.Complexity < 1 || p.Complexity > 5 || p.Depth < 1 || p.Depth > 3 {
			t.Fatalf("bad classification: %+v", p)
		}
		if len(p.Frames) > maxFrames || len(p.Entities) > maxEntities || len(p.Errors) > maxErrors {
			t.Fatalf("limits exceeded: %d frames, %d entities, %d errors", len(p.Frames), len(p.Entities), len(p.Errors))
		}
		if ex := p.Explain(); !strings.HasPrefix(ex, "plan (heuristic)\n") {
			t.Fatalf("Explain: %q", ex)
		}
	})
}

func FuzzParseRefs(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		refs, clean, errs := ParseRefs(text)
		if len(clean) > len(text) {
			t.Fatalf("clean longer than the text: %q", clean)
		}
		if utf8.ValidString(text) && !utf8.ValidString(clean) {
			t.Fatalf("clean is not valid UTF-8: %q", clean)
		}
		for _, r := range refs {
			if !strings.HasPrefix(r.Raw, "@") || !strings.Contains(text, r.Raw) {
				t.Fatalf("raw %q not in the text", r.Raw)
			}
			if r.Value == "" || len(r.Value) > MaxRefValue {
				t.Fatalf("bad value %q", r.Value)
			}
			if r.StartLine < 0 || r.EndLine < r.StartLine || (r.Kind != RefFile && r.StartLine != 0) {
				t.Fatalf("bad range %+v", r)
			}
			if r.Kind == RefURL && !strings.HasPrefix(strings.ToLower(r.Value), "http") {
				t.Fatalf("non-http url %q", r.Value)
			}
		}
		last := -1
		for _, e := range errs {
			re, ok := e.(*RefError)
			if !ok || re.Offset <= last || !strings.HasPrefix(text[re.Offset:], re.Raw) {
				t.Fatalf("bad error %v", e)
			}
			last = re.Offset
		}
	})
}

func FuzzStem(f *testing.F) {
	for _, s := range []string{"expires", "embedded", "running", "aliases", "parsing", "queries", "xyzzy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		s := Stem(w)
		if Stem(s) != s {
			t.Fatalf("Stem not idempotent: %q → %q → %q", w, s, Stem(s))
		}
		if len(s) > len(w) || (len(w) <= 3 && s != w) || (len(w) > 3 && len(s) < 2) {
			t.Fatalf("Stem(%q) = %q", w, s)
		}
	})
}

// FuzzSegment checks that segment cuts any text into ordered,
// non-overlapping blocks within the text, of known kinds, and that the
// lines it leaves out are only fence lines.
func FuzzSegment(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("title\n\n## Summary\n\n```rust\nfn a() {}\n```\n\n    indented\n\n- OS: x\n2024-01-01T00:00:00Z INFO y\n~~~\nunclosed")
	f.Add("```\n```\n```console\n$ x\n````\n```")
	f.Fuzz(func(t *testing.T, text string) {
		at := 0
		for _, b := range segment(text) {
			if b.start < at || b.end <= b.start || b.end > len(text) {
				t.Fatalf("block %+v out of order or bounds (at %d, len %d)", b, at, len(text))
			}
			if b.kind > blockMeta {
				t.Fatalf("bad kind %+v", b)
			}
			for _, ln := range strings.Split(text[at:b.start], "\n") {
				if s := strings.TrimSpace(strings.TrimLeft(ln, " \t>")); s != "" && !strings.HasPrefix(s, "```") && !strings.HasPrefix(s, "~~~") {
					t.Fatalf("line %q left out of every block", ln)
				}
			}
			at = b.end
		}
	})
}
