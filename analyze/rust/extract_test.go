package rust

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

var (
	testParserMu sync.Mutex
	testParser   *tsParser
)

// extractString runs the extractor on src with a shared parser.
func extractString(t testing.TB, src string) *fileSyntax {
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
func checkInvariants(t testing.TB, src []byte, fs *fileSyntax) {
	t.Helper()
	lines := strings.Count(string(src), "\n") + 1
	for i, it := range fs.items {
		if it.start < 1 || it.start > it.decl || it.decl > it.end || it.end > lines {
			t.Fatalf("item %d %q: span %d-%d decl %d outside 1-%d", i, it.name, it.start, it.end, it.decl, lines)
		}
		if it.parent >= int32(i) || it.mod >= int32(i) {
			t.Fatalf("item %d %q: parent %d, mod %d not before it", i, it.name, it.parent, it.mod)
		}
		for _, s := range []string{it.name, it.container, it.doc, it.sig} {
			if !utf8.ValidString(s) {
				t.Fatalf("item %d: invalid UTF-8 in %q", i, s)
			}
		}
		if it.name == "" && it.kind != analyze.KindImpl {
			t.Fatalf("item %d of kind %s has no name", i, it.kind)
		}
	}
	if fs.errors > 0 && (fs.errLine < 1 || fs.errLine > lines) {
		t.Fatalf("error line %d outside 1-%d", fs.errLine, lines)
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
		if fs.errors != 0 {
			t.Errorf("%s: %d syntax errors in a file that compiles", p, fs.errors)
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
	for _, it := range fs.items {
		got[it.name] = it.doc
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
	if fs.innerDoc != "Crate docs,\ntwo lines." {
		t.Errorf("inner doc %q", fs.innerDoc)
	}
	for _, it := range fs.items {
		if it.name == "f" && (it.start != 25 || it.decl != 28) {
			t.Errorf("f spans %d (decl %d), want 25 (decl 28): doc, comment and attribute belong to it", it.start, it.decl)
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
	for _, it := range fs.items {
		got[it.name] = [2]bool{it.test, it.cfgTest}
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
	if fs.errors == 0 || fs.errLine != 3 {
		t.Errorf("errors=%d at line %d, want some at line 3", fs.errors, fs.errLine)
	}
	names := map[string]bool{}
	for _, it := range fs.items {
		names[it.name] = true
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
	for _, it := range fs.items {
		got[it.name] = pos{it.kind.String(), it.start, it.end, it.doc}
	}
	want := map[string]pos{
		"in_a": {"func", 2, 3, "Doc inside."},
		"InB":  {"struct", 5, 5, ""},
		"f":    {"func", 8, 10, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if fs.errors != 0 {
		t.Errorf("macro bodies counted as syntax errors: %d", fs.errors)
	}
}
