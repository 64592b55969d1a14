package bundle

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/google/go-cmp/cmp"
)

func TestMask(t *testing.T) {
	tests := []struct {
		name string
		lang analyze.Lang
		in   string
		want string
	}{
		{"go line comment", analyze.LangGo, "a // { x\nb", "a       \nb"},
		{"go block comment", analyze.LangGo, "a /* {\n} */ b", "a     \n     b"},
		{"go string", analyze.LangGo, `x := "{\"}"`, `x := "    "`},
		{"go raw string", analyze.LangGo, "x := `{\n}`", "x := ` \n `"},
		{"go rune", analyze.LangGo, `c := '{'`, `c := ' '`},
		{"rust nested comment", analyze.LangRust, "a /* x /* { */ } */ b", "a                   b"},
		{"rust raw string", analyze.LangRust, `s = r#"a "}" b"#;`, `s = ` + "            " + `;`},
		{"rust byte string", analyze.LangRust, `b"{"`, `b" "`},
		{"rust char", analyze.LangRust, `let c = '{';`, `let c = ' ';`},
		{"rust escaped char", analyze.LangRust, `let c = '\'';`, `let c = '  ';`},
		{"rust lifetime", analyze.LangRust, "fn f<'a>(x: &'a str) {}", "fn f<'a>(x: &'a str) {}"},
		{"rust ident ending in r", analyze.LangRust, `for"x"`, `for" "`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mask(tt.in, tt.lang); got != tt.want {
				t.Errorf("mask(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestScanItems(t *testing.T) {
	src := "use a::b;\n#[derive(Debug)]\npub struct S { x: u8 }\npub(crate) const fn f() -> u8 { 1 }\n" +
		"impl<T> Tr for S<T> where T: Fn() { }\nmacro_rules! m { () => {} }\nmod m;\nextern crate c;\n" +
		"unsafe impl Send for S {}\npub const X: S = S { x: 1 };\nstatic Y: fn() = g;\n"
	m := mask(src, analyze.LangRust)
	var kinds []string
	for _, it := range scanItems(m, 0, len(m), false) {
		kinds = append(kinds, it.kind)
	}
	want := []string{"use", "struct", "fn", "impl", "macro_rules", "mod", "extern", "impl", "const", "static"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
}

func TestMergeRanges(t *testing.T) {
	got := mergeRanges([]lineRange{{10, 12}, {1, 3}, {5, 6}, {14, 20}, {2, 4}}, 1)
	want := []lineRange{{1, 6}, {10, 20}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(lineRange{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := formatRanges(want); got != "1-6,10-20" {
		t.Errorf("formatRanges = %q", got)
	}
}

func TestImportRanges(t *testing.T) {
	read := func(rel string, lang analyze.Lang) *srcFile {
		data, err := os.ReadFile(filepath.Join(fixtureRoot, rel))
		if err != nil {
			t.Fatal(err)
		}
		return newSrc(data, lang)
	}
	tests := []struct {
		src  *srcFile
		want []lineRange
	}{
		{read("service/user.go", analyze.LangGo), []lineRange{{3, 10}}},
		{read("store/mem.rs", analyze.LangRust), []lineRange{{3, 4}, {6, 6}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.src.importRanges(), cmp.AllowUnexported(lineRange{})); diff != "" {
			t.Errorf("import ranges (-want +got):\n%s", diff)
		}
	}
}

func TestRenderMarkers(t *testing.T) {
	src := newSrc([]byte("a\n\tb\nc\nd\ne\n"), analyze.LangGo)
	got := src.render([]lineRange{{1, 1}, {4, 4}})
	want := "a\n\t// … lines 2-3 elided\nd\n// … line 5 elided\n"
	if got != want {
		t.Errorf("render = %q, want %q", got, want)
	}
	plain := newSrc([]byte("a\nb\n"), analyze.LangUnknown)
	if got := plain.render([]lineRange{{2, 2}}); got != "… line 1 elided\nb\n" {
		t.Errorf("plain render = %q", got)
	}
}

// TestGoSkeletonParses checks the Go skeletons of the fixtures are Go.
func TestGoSkeletonParses(t *testing.T) {
	noBOM := strings.ReplaceAll(hostile, "\ufeff", "")
	for name, text := range map[string]string{"hostile": noBOM, "user": mustRead(t, "service/user.go")} {
		skel, names, ok := goSkeleton(analyze.ToValidUTF8(text))
		if !ok {
			t.Fatalf("%s: does not parse", name)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "", skel, parser.ParseComments); err != nil {
			t.Errorf("%s: skeleton does not parse: %v\n%s", name, err, skel)
		}
		if len(names) == 0 {
			t.Errorf("%s: no names", name)
		}
	}
}

// TestGoSkeletonFallback checks a Go file that does not parse (a byte
// order mark in the middle) gets the symbol skeleton instead.
func TestGoSkeletonFallback(t *testing.T) {
	text := analyze.ToValidUTF8(hostile)
	if _, _, ok := goSkeleton(text); ok {
		t.Fatal("hostile.go parsed; the fallback is not exercised")
	}
	skel, names := symbolSkeleton(newSrc([]byte(text), analyze.LangGo), nil)
	if !strings.Contains(skel, "func F() "+goBodyPlaceholder) || !strings.Contains(skel, "package hostile") {
		t.Errorf("fallback skeleton:\n%s", skel)
	}
	if diff := cmp.Diff([]string{"Fence", "End", "Special", "Bad", "Long", "F"}, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

func mustRead(t *testing.T, rel string) string {
	data, err := os.ReadFile(filepath.Join(fixtureRoot, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestTruncatedViews(t *testing.T) {
	src := newSrc([]byte(mustRead(t, "store/mem.rs")), analyze.LangRust)
	v := src.spansView(rustFile().Spans, rustSymbols, 0)
	for _, mode := range []Truncation{SignatureFirst, Bookend} {
		maxP := v.truncParams(mode)
		prev := 0
		for p := 1; p <= maxP; p++ {
			n := shownLines(v.truncated(src, mode, p))
			if n < prev {
				t.Errorf("%s: p=%d shows %d lines, fewer than p-1 (%d)", mode, p, n, prev)
			}
			prev = n
		}
		if got := v.truncated(src, mode, maxP); !cmp.Equal(got, v.ranges, cmp.AllowUnexported(lineRange{})) {
			t.Errorf("%s: the largest cut is not the whole view", mode)
		}
	}
	// Signature-first serves the first span of the request first: orders_of
	// (lines 66-71) before OrderStore (20-29).
	first := v.truncated(src, SignatureFirst, 1)
	if len(first) != 1 || first[0].start != 66 {
		t.Errorf("first cut shows %v, want the head of lines 66-71", first)
	}
}
