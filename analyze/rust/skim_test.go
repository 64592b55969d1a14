package rust

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/tree-sitter/go-tree-sitter"
	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
)

// TestFnBodies checks which spans the lexer takes for function bodies.
func TestFnBodies(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"fn a() { x(); }\nfn b();\n", []string{"{ x(); }"}},
		{"pub async unsafe fn a<T: Into<u8>>(x: [u8; 4]) -> Result<Vec<T>, E> where T: Iterator<Item = u8> { body }", []string{"{ body }"}},
		{"fn a() -> Foo<{ N + 1 }> { body }", []string{"{ body }"}},
		{"fn a(f: fn(u8) -> u8) -> impl Fn() -> u8 { body }", []string{"{ body }"}},
		{"fn outer() { fn inner() { x } y }", []string{"{ fn inner() { x } y }"}},
		{"trait T { fn m(&self); fn d(&self) { self.m() } }", []string{"{ self.m() }"}},
		// Not function items: a fn pointer type, a static of one.
		{"type F = fn(u8) -> u8;\nstatic G: fn() = { f };", nil},
		// impl for a fn pointer type: the lexer takes the impl's body; the
		// tree's check refuses it (TestSkimAgrees).
		{"impl Tr for fn() { fn m() {} }", []string{"{ fn m() {} }"}},
		{"macro_rules! m { ($n:ident) => { fn $n() { 1 } } }\nfn after() { 2 }", []string{"{ 2 }"}},
		{"let r#fn = 1; fn a() { \"}\" ; '}' ; /* } */ }", []string{"{ \"}\" ; '}' ; /* } */ }"}},
		{"fn a() { unbalanced\nfn b() {}", nil},
	}
	for _, tt := range tests {
		src := []byte(tt.src)
		var got []string
		for _, b := range fnBodies(src, lex(src, 0, len(src), nil)) {
			got = append(got, string(src[b.s:b.e]))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.src, diff)
		}
	}
}

// skimCases are sources whose whole parse has no syntax error, with the
// constructs the lexer's view of function bodies must not get wrong.
var skimCases = []string{
	"impl<T> Tr for fn(T) -> T {\n    fn m(&self) { body() }\n    const C: u8 = 1;\n}\nfn after() { x() }\n",
	"macro_rules! make {\n    ($n:ident) => { pub fn $n() { helper() } };\n}\nmake!(generated);\nfn real() { other() }\n",
	"cfg_rt! {\n    /// Doc.\n    pub fn inside(x: u8) -> u8 { x + helper() }\n    impl<T> Tr for fn() -> T { fn m() { a() } }\n    cfg_net! { pub struct S { f: u8 } fn deep() { b() } }\n}\n",
	"static F: fn() -> u8 = { fn g() -> u8 { 1 } g };\nconst C: [u8; { fn h() -> usize { 2 } h() }] = [0, 0];\nfn main() { F(); }\n",
	"pub fn generic<const N: usize>(a: [u8; N]) -> Foo<{ N * 2 }> where [(); N]: Sized, T: Iterator<Item = u8> {\n    let c = |x| { x };\n    struct Local;\n    impl Local { fn not_an_item() {} }\n}\n",
	"trait T {\n    fn required(&self) -> u8;\n    fn provided(&self) -> u8 { self.required() }\n}\nextern \"C\" { fn ffi(x: i32) -> i32; }\n",
	"#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn works() { assert_eq!(f(), 1); }\n}\nfn f() -> u8 { 1 }\n",
	"fn strings() { let s = \"}\"; let c = '}'; let r = r#\"}\"#; /* } */ // }\n}\nfn next() {}\n",
	"thread_local! {\n    static X: u8 = const { 1 }\n}\nfn after() { X.with(|x| x) }\n",
}

// TestSkimAgrees checks that parsing without function bodies finds what a
// whole parse finds, on the sample crates, the scenarios and constructs
// that the lexer reads differently from the grammar.
func TestSkimAgrees(t *testing.T) {
	srcs := map[string][]byte{}
	for i, c := range skimCases {
		srcs["case"+string(rune('0'+i))] = []byte(c)
	}
	paths, _ := filepath.Glob("../../testdata/rust*/**/*.rs")
	more, _ := filepath.Glob("../../testdata/rust*/*/*/*.rs")
	for _, p := range append(paths, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs[p] = b
	}
	archives, _ := filepath.Glob("testdata/scenarios/*.txtar")
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".rs") {
				srcs[a+"/"+f.Name] = f.Data
			}
		}
	}
	if len(srcs) < len(skimCases)+20 {
		t.Fatalf("only %d sources found", len(srcs))
	}
	tp := newTSParser()
	defer tp.close()
	skimmed := 0
	for name, src := range srcs {
		starts := lineStarts(src)
		whole, _ := extractTree(tp, src, starts, false, nil)
		if newSkim(src, starts, tp.fileToks(src)) != nil {
			skimmed++
		}
		got := extract(tp, src, false)
		if whole.Errors > 0 {
			continue // errors inside bodies go unseen (TestSkimHidesBodyErrors)
		}
		opts := cmp.AllowUnexported(resolve.FileSyntax{}, resolve.Item{}, resolve.Ref{}, resolve.UseDecl{}, resolve.Generic{}, resolve.Local{})
		if diff := cmp.Diff(whole, got, opts); diff != "" {
			t.Errorf("%s: skimmed extraction differs from the whole parse's (-whole +skim):\n%s", name, diff)
		}
	}
	if skimmed < len(srcs)/2 {
		t.Errorf("only %d of %d sources had bodies to leave out", skimmed, len(srcs))
	}
}

// TestSkimHidesBodyErrors records the one difference: a syntax error
// inside a function body is not reported, and the items around it are
// those of a clean parse; an error outside bodies still is.
func TestSkimHidesBodyErrors(t *testing.T) {
	fs := extractString(t, "fn a() {\n    let x = ;\n    str![[r#\"text\"#]];\n}\nfn b() {}\n")
	if fs.Errors != 0 || len(fs.Items) != 2 || fs.Items[0].End != 4 {
		t.Errorf("body error: errors=%d items=%d (first ends at %d); want no error and both functions whole", fs.Errors, len(fs.Items), fs.Items[0].End)
	}
	fs = extractString(t, "fn a() { x() }\nimpl Broken for {{{ fn x( }\nstruct Also;\n")
	if fs.Errors == 0 || fs.ErrLine != 2 {
		t.Errorf("error outside bodies: errors=%d at line %d, want some at line 2", fs.Errors, fs.ErrLine)
	}
}

// FuzzSkim checks, on any input the grammar parses without error, that
// leaving function bodies out changes nothing. That includes the bodies
// of item-level macros the extractor re-parses as items: a syntax error
// inside a function body there goes unseen under a skim, as it does at
// the top level (skim.go), so such inputs are outside the claim.
func FuzzSkim(f *testing.F) {
	for _, c := range skimCases {
		f.Add([]byte(c))
	}
	seeds, _ := filepath.Glob("../../testdata/rustsvc/src/*.rs")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	opts := cmp.AllowUnexported(resolve.FileSyntax{}, resolve.Item{}, resolve.Ref{}, resolve.UseDecl{}, resolve.Generic{}, resolve.Local{})
	f.Fuzz(func(t *testing.T, src []byte) {
		testParserMu.Lock()
		defer testParserMu.Unlock()
		if testParser == nil {
			testParser = newTSParser()
		}
		whole, _ := extractTree(testParser, src, lineStarts(src), false, nil)
		got := extract(testParser, src, false)
		if whole == nil || got == nil || whole.Errors > 0 {
			return
		}
		if tree := testParser.parse(src, nil); tree != nil {
			bad := macroBodyErrors(testParser, src, lineStarts(src), tree.RootNode(), 0)
			tree.Close()
			if bad {
				return
			}
		}
		if diff := cmp.Diff(whole, got, opts); diff != "" {
			t.Errorf("skimmed extraction differs from the whole parse's (-whole +skim):\n%s", diff)
		}
	})
}

// macroBodyErrors says whether the whole parse of an item-level macro body
// the extractor re-parses as items (itemMacro), at any depth, has a syntax
// error.
func macroBodyErrors(tp *tsParser, src []byte, starts []int32, n *sitter.Node, depth int) bool {
	if depth > maxMacroDepth {
		return false
	}
	point := func(off int) sitter.Point {
		l := sort.Search(len(starts), func(i int) bool { return int(starts[i]) > off }) - 1
		return sitter.Point{Row: uint(l), Column: uint(off - int(starts[l]))}
	}
	if n.KindId() == kinds.macroInvocation {
		if tt := lastChildOfKind(n, kinds.tokenTree); tt != nil {
			s, e := int(tt.StartByte())+1, int(tt.EndByte())-1
			if e > s && looksLikeItems(src, s, e) {
				tree := tp.parse(src, []sitter.Range{{StartByte: uint(s), EndByte: uint(e), StartPoint: point(s), EndPoint: point(e)}})
				if tree == nil {
					return false
				}
				defer tree.Close()
				root := tree.RootNode()
				return root.HasError() || macroBodyErrors(tp, src, starts, root, depth+1)
			}
		}
		return false
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); c != nil && macroBodyErrors(tp, src, starts, c, depth) {
			return true
		}
	}
	return false
}
