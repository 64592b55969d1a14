package rust

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func lexTexts(src string) []string {
	var out []string
	for _, t := range lex([]byte(src), 0, len(src), nil) {
		out = append(out, src[t.s:t.e])
	}
	return out
}

func TestLex(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"path and call", "a::b(c)", []string{"a", "::", "b", "(", "c", ")"}},
		{"comments dropped", "x /* a /* nested */ b */ y // tail\nz", []string{"x", "y", "z"}},
		{"strings", `f("a \" b", b"x", c"y")`, []string{"f", "(", `"a \" b"`, ",", `b"x"`, ",", `c"y"`, ")"}},
		{"raw strings", `r#"a "quoted" b"# r"plain" br##"x"##`, []string{`r#"a "quoted" b"#`, `r"plain"`, `br##"x"##`}},
		{"raw identifier", "r#type + r#match", []string{"type", "+", "match"}},
		{"chars and lifetimes", `'a' '\'' '\u{1F600}' 'life &'static 'é'`, []string{`'a'`, `'\''`, `'\u{1F600}'`, "'life", "&", "'static", "'é'"}},
		{"byte char", `b'x' b'\n'`, []string{`b'x'`, `b'\n'`}},
		{"numbers and ranges", "1..2 0..=n 1.5e3 0xFF_u8 x.0", []string{"1", "..", "2", "0", "..=", "n", "1.5e3", "0xFF_u8", "x", ".", "0"}},
		{"operators kept whole", "a != b == c -> d => e && f || g <= h >= i", []string{"a", "!=", "b", "==", "c", "->", "d", "=>", "e", "&&", "f", "||", "g", "<=", "h", ">=", "i"}},
		{"closing generics split", "Vec<Vec<u8>>", []string{"Vec", "<", "Vec", "<", "u8", ">", ">"}},
		{"unicode identifier", "let größe = ü1;", []string{"let", "größe", "=", "ü1", ";"}},
		{"unterminated string", `f("abc`, []string{"f", "(", `"abc`}},
		{"unterminated comment", "a /* never closed", []string{"a"}},
		{"invalid utf-8 skipped", "a\xff\xfeb", []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, lexTexts(tt.src)); diff != "" {
				t.Errorf("lex(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestParseUse(t *testing.T) {
	type leaf struct {
		Path  string
		Alias string
		Glob  bool
		Pub   bool
	}
	tests := []struct {
		src  string
		want []leaf
	}{
		{"use a::b::C;", []leaf{{"a::b::C", "C", false, false}}},
		{"pub use a::b as c;", []leaf{{"a::b", "c", false, true}}},
		{"pub(crate) use super::*;", []leaf{{"super", "", true, true}}},
		{"use crate::m::{self, x, y::{z as w, *}};", []leaf{
			{"crate::m", "m", false, false}, {"crate::m::x", "x", false, false},
			{"crate::m::y::z", "w", false, false}, {"crate::m::y", "", true, false},
		}},
		{"use ::std::io;", []leaf{{"std::io", "io", false, false}}},
		{"use a::Trait as _;", []leaf{{"a::Trait", "_", false, false}}},
		{"use {a, b::c};", []leaf{{"a", "a", false, false}, {"b::c", "c", false, false}}},
		{"use $crate::x;", []leaf{{"crate::x", "x", false, false}}},
	}
	for _, tt := range tests {
		src := []byte(tt.src)
		var got []leaf
		for _, u := range parseUse(src, lex(src, 0, len(src), nil), 1) {
			got = append(got, leaf{strings.Join(u.Path, "::"), u.Alias, u.Glob, u.Pub})
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("parseUse(%q) (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestTypeHead(t *testing.T) {
	tests := []struct{ src, want, ret string }{
		{"User", "User", "User"},
		{"&'a mut crate::models::User", "crate::models::User", "crate::models::User"},
		{"Box<dyn Store + Send>", "Store", "Store"},
		{"Arc<Mutex<State>>", "Mutex", "Mutex"},
		{"impl Iterator<Item = u8>", "Iterator", "Iterator"},
		{"Vec<User>", "Vec", "Vec"},
		{"Result<User, ServiceError>", "Result", "User"},
		{"Option<&Session>", "Option", "Session"},
		{"(A, B)", "", ""},
		{"[u8; 4]", "", ""},
		{"u64", "", ""},
		{"Self", "Self", "Self"},
	}
	for _, tt := range tests {
		src := []byte(tt.src)
		toks := lex(src, 0, len(src), nil)
		if got := strings.Join(typeHead(src, toks), "::"); got != tt.want {
			t.Errorf("typeHead(%q) = %q, want %q", tt.src, got, tt.want)
		}
		if got := strings.Join(returnHead(src, toks), "::"); got != tt.ret {
			t.Errorf("returnHead(%q) = %q, want %q", tt.src, got, tt.ret)
		}
	}
}

func TestSignature(t *testing.T) {
	src := []byte("pub fn find(\n    &self, // the service\n    email: &str, /* raw */\n) -> Result<User, E>\nwhere\n    E: Debug {")
	want := "pub fn find( &self, email: &str, ) -> Result<User, E> where E: Debug"
	if got := signature(src, 0, len(src)); got != want {
		t.Errorf("signature = %q, want %q", got, want)
	}
	long := []byte("const X: [&str; 3] = [\"" + strings.Repeat("é", 400) + "\"];")
	got := signature(long, 0, len(long))
	if len(got) > maxSignature+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("long signature not capped: %d bytes", len(got))
	}
}

func TestScanBodyRefs(t *testing.T) {
	src := `fn f(svc: &Service, n: u32) {
    let user = svc.find(n)?;
    let x: Local = Local::new();
    helper(|item| item.go());
    crate::a::b::call::<Vec<Thing>>(user.name());
    assert_eq!(inside(1), 2);
    Point { x: 1, y } ;
    self.store.get(&k);
    obj.method().chained();
    let d = <Cfg as Default>::default();
    <Vec<u8>>::with_capacity(1);
}`
	fs := extractString(t, src)
	var got []string
	for _, r := range fs.Items[0].Refs {
		s := []string{"", "type", "call", "value", "method", "macro"}[r.Kind] + " " + strings.Join(r.Path, "::")
		if r.Recv != nil {
			s += " recv=" + strings.Join(r.Recv, ".")
		}
		got = append(got, s)
	}
	want := []string{
		"type Service",
		"method find recv=svc",
		"value Local",
		"call Local::new",
		"call helper",
		"method go recv=item",
		"call crate::a::b::call",
		"type Vec",
		"type Thing",
		"method name recv=user",
		"macro assert_eq",
		"call inside",
		"value Point",
		"value y",
		"method get recv=self.store",
		"value k",
		"method method recv=obj",
		"method chained recv=obj.method()",
		"type Cfg",
		"type Default",
		"call Default::default",
		"type Vec",
		"call Vec::with_capacity",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	var locals []string
	for _, l := range fs.Items[0].Locals {
		locals = append(locals, l.Name+":"+strings.Join(l.Typ, "::")+":"+strings.Join(l.Init, "::")+":"+l.InitMethod)
	}
	wantLocals := []string{"svc:Service::", "n:::", "user:::find", "x:Local::"}
	if diff := cmp.Diff(wantLocals, locals); diff != "" {
		t.Errorf("locals (-want +got):\n%s", diff)
	}
}
