package rust

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
)

var (
	testParserMu sync.Mutex
	testParser   *tsParser
)

// extractString runs the extractor on src with a shared parser.
func extractString(t testing.TB, src string) *resolve.FileSyntax {
	t.Helper()
	testParserMu.Lock()
	defer testParserMu.Unlock()
	if testParser == nil {
		testParser = newTSParser()
	}
	fs := extract(testParser, []byte(src), false)
	if fs == nil {
		t.Fatalf("extract returned nil")
	}
	return fs
}

// checkInvariants verifies what every extraction must satisfy, whatever
// the input: spans inside the file and ordered, parents before children,
// text fields valid UTF-8.
func checkInvariants(t testing.TB, src []byte, fs *resolve.FileSyntax) {
	t.Helper()
	lines := strings.Count(string(src), "\n") + 1
	for i, it := range fs.Items {
		if it.Start < 1 || it.Start > it.Decl || it.Decl > it.End || it.End > lines {
			t.Fatalf("item %d %q: span %d-%d decl %d outside 1-%d", i, it.Name, it.Start, it.End, it.Decl, lines)
		}
		if it.Parent >= int32(i) || it.Mod >= int32(i) {
			t.Fatalf("item %d %q: parent %d, mod %d not before it", i, it.Name, it.Parent, it.Mod)
		}
		for _, s := range []string{it.Name, it.Container, it.Doc, it.Sig} {
			if !utf8.ValidString(s) {
				t.Fatalf("item %d: invalid UTF-8 in %q", i, s)
			}
		}
		if it.Name == "" && it.Kind != analyze.KindImpl {
			t.Fatalf("item %d of kind %s has no name", i, it.Kind)
		}
	}
	if fs.Errors > 0 && (fs.ErrLine < 1 || fs.ErrLine > lines) {
		t.Fatalf("error line %d outside 1-%d", fs.ErrLine, lines)
	}
}

func FuzzExtract(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/rustsvc/src/*.rs")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"",
		"fn",
		"pub fn f(&self, x: &'a mut Vec<Box<dyn T>>) -> Result<Self, E> where T: A + B {",
		"impl<T> Tr for T { fn m(&self) { self.a.b.c(); } }",
		"macro_rules! m { ($($t:tt)*) => { $crate::x($($t)*) } }",
		"cfg_x! { cfg_y! { pub mod z; fn w() {} } }",
		"mod a { mod b { mod c { use super::super::*; } } }",
		"let s = r##\"raw \" string\"##; 'a: loop { break 'a; } '\\u{1F600}'",
		"/* unterminated /* nested",
		"\"unterminated string",
		"struct S(u8, pub(crate) String);\nenum E { A = 1, B { x: u8 } }",
		"#[path = \"../../../../etc/passwd\"] mod evil;",
		"use a::{b::{c, d as e}, f::*, self};",
		"fn \xff\xfe(x: \xc3) {}",
		strings.Repeat("mod m {", 300) + strings.Repeat("}", 300),
		strings.Repeat("m!{", 50) + "pub fn deep() {}" + strings.Repeat("}", 50),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fs := extractString(t, string(src))
		checkInvariants(t, src, fs)
		// The lexer and use-tree reader see every byte range too.
		toks := lex(src, 0, len(src), nil)
		_ = parseUse(src, toks, 1)
		_ = typeHead(src, toks)
	})
}

func TestExtractInvariantsOnSamples(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/rustsvc/src/*.rs")
	more, _ := filepath.Glob("../../testdata/rustsvc/src/*/*.rs")
	for _, p := range append(files, more...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fs := extractString(t, string(src))
		checkInvariants(t, src, fs)
		if fs.Errors != 0 {
			t.Errorf("%s: %d syntax errors in a file that compiles", p, fs.Errors)
		}
	}
}

// TestDocForms checks documentation in each form Rust allows.
func TestDocForms(t *testing.T) {
	src := `//! Crate docs,
//! two lines.

/// Line doc.
///
/// Second paragraph.
fn a() {}

/**
 * Block doc
 * with stars.
 */
fn b() {}

#[doc = "Attribute doc."]
#[doc = "Second \"quoted\" line."]
fn c() {}

// Plain comment, not documentation.
fn d() {}

//// Four slashes are not documentation.
fn e() {}

/// Doc
// interleaved plain comment
#[inline]
fn f() {}
`
	fs := extractString(t, src)
	got := map[string]string{}
	for _, it := range fs.Items {
		got[it.Name] = it.Doc
	}
	want := map[string]string{
		"a": "Line doc.\n\nSecond paragraph.",
		"b": "Block doc\nwith stars.",
		"c": "Attribute doc.\nSecond \"quoted\" line.",
		"d": "",
		"e": "",
		"f": "Doc",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs (-want +got):\n%s", diff)
	}
	if fs.InnerDoc != "Crate docs,\ntwo lines." {
		t.Errorf("inner doc %q", fs.InnerDoc)
	}
	for _, it := range fs.Items {
		if it.Name == "f" && (it.Start != 25 || it.Decl != 28) {
			t.Errorf("f spans %d (decl %d), want 25 (decl 28): doc, comment and attribute belong to it", it.Start, it.Decl)
		}
	}
}

// TestTestAttributes checks which attributes make a test.
func TestTestAttributes(t *testing.T) {
	src := `#[test] fn t1() {}
#[tokio::test(flavor = "multi_thread")] async fn t2() {}
#[bench] fn t3(b: &mut Bencher) {}
#[rstest] fn t4() {}
#[test_case(1)] fn t5(x: u8) {}
#[wasm_bindgen_test] fn t6() {}
#[inline] fn n1() {}
#[cfg(not(test))] fn n2() {}
#[cfg(test)] fn c1() {}
#[cfg(all(test, unix))] fn c2() {}
`
	fs := extractString(t, src)
	got := map[string][2]bool{}
	for _, it := range fs.Items {
		got[it.Name] = [2]bool{it.Test, it.CfgTest}
	}
	want := map[string][2]bool{
		"t1": {true, false}, "t2": {true, false}, "t3": {true, false}, "t4": {true, false},
		"t5": {true, false}, "t6": {true, false}, "n1": {false, false}, "n2": {false, false},
		"c1": {false, true}, "c2": {false, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("[test, cfgTest] (-want +got):\n%s", diff)
	}
}

// TestErrorRecovery checks that tree-sitter's recovery keeps the items of
// a badly broken file and that the errors are counted.
func TestErrorRecovery(t *testing.T) {
	src := "fn good_one() {}\n\nimpl Broken for {{{ fn x( }\n\nstruct Also;\n\nfn good_two() { good_one() }\n"
	fs := extractString(t, src)
	if fs.Errors == 0 || fs.ErrLine != 3 {
		t.Errorf("errors=%d at line %d, want some at line 3", fs.Errors, fs.ErrLine)
	}
	names := map[string]bool{}
	for _, it := range fs.Items {
		names[it.Name] = true
	}
	for _, n := range []string{"good_one", "good_two"} {
		if !names[n] {
			t.Errorf("%s lost to error recovery; items: %v", n, names)
		}
	}
}

// TestMacroReparse checks that items inside item-level macros are found
// with positions in the file, nested, and not in expression macros.
func TestMacroReparse(t *testing.T) {
	src := `cfg_a! {
    /// Doc inside.
    pub fn in_a() {}
    cfg_b! {
        pub struct InB;
    }
}
fn f() {
    vec![1, 2, 3];
}
json! { "fn": "not rust" }
`
	fs := extractString(t, src)
	type pos struct {
		Kind       string
		Start, End int
		Doc        string
	}
	got := map[string]pos{}
	for _, it := range fs.Items {
		got[it.Name] = pos{it.Kind.String(), it.Start, it.End, it.Doc}
	}
	want := map[string]pos{
		"in_a": {"func", 2, 3, "Doc inside."},
		"InB":  {"struct", 5, 5, ""},
		"f":    {"func", 8, 10, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if fs.Errors != 0 {
		t.Errorf("macro bodies counted as syntax errors: %d", fs.Errors)
	}
}

// TestParsePathsAgree checks that the direct C parse path and
// go-tree-sitter's Parse give the same extraction.
func TestParsePathsAgree(t *testing.T) {
	viaC := newTSParser()
	defer viaC.close()
	if viaC.c == nil {
		t.Skip("the direct C path is not in use")
	}
	viaGo := &tsParser{p: sitter.NewParser(), flag: newCancelFlag()}
	defer viaGo.close()
	if err := viaGo.p.SetLanguage(language()); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../testdata/rustsvc/src/*.rs")
	files = append(files, "testdata/scenarios/macros.txtar", "testdata/scenarios/syntax_errors.txtar")
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a, b := extract(viaC, src, false), extract(viaGo, src, false)
		opts := cmp.AllowUnexported(resolve.FileSyntax{}, resolve.Item{}, resolve.Ref{}, resolve.UseDecl{}, resolve.Generic{}, resolve.Local{})
		if diff := cmp.Diff(b, a, opts); diff != "" {
			t.Errorf("%s: C path differs from go-tree-sitter's (-go +c):\n%s", p, diff)
		}
	}
}
