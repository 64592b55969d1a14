package diffmode

import (
	"bytes"
	"testing"
)

// FuzzBaseDecls: the declaration scanners read the base side of a diff,
// which is whatever a commit held. On any bytes, as Go or as Rust, they
// return declarations with sane spans and parents, without a panic.
func FuzzBaseDecls(f *testing.F) {
	for _, s := range []string{
		"package p\n\n// F does.\nfunc F() {}\n\ntype T struct{ A int }\n\nfunc (t *T) M() {}\n",
		"package p\nfunc (",
		"pub struct S { a: u32 }\nimpl S { pub fn m(&self) -> u32 { self.a } }\ntrait T { fn x(); }\n",
		"mod a { mod b { fn f() { let s = \"}\"; let c = '}'; /* } */ } } }",
		"impl<T: Into<String>> From<T> for X { fn from(t: T) -> Self { todo!() } }\nmacro_rules! m { () => { fn g() {} } }",
		"r#\"unterminated raw string",
		"fn f() { b'\\'' ; '\\u{10FFFF}'; \"\\\"\" }",
		"\xff\xfe\x00package",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, rust bool) {
		name := "x.go"
		if rust {
			name = "x.rs"
		}
		ds := BaseDecls(name, []byte(src))
		lines := bytes.Count([]byte(src), []byte("\n")) + 1
		for i, d := range ds {
			if d.Start < 1 || d.End < d.Start || d.End > lines {
				t.Fatalf("%s: decl %d %+v has span %d-%d in %d lines", name, i, d, d.Start, d.End, lines)
			}
			if d.Parent < -1 || d.Parent >= len(ds) || d.Parent == i {
				t.Fatalf("%s: decl %d %+v has parent %d of %d", name, i, d, d.Parent, len(ds))
			}
			if d.Name == "" {
				t.Fatalf("%s: decl %d has no name: %+v", name, i, d)
			}
		}
		for line := 1; line <= lines+1; line++ {
			if i := innermost(ds, line); i >= 0 && (ds[i].Start > line || ds[i].End < line) {
				t.Fatalf("innermost(%d) = %+v", line, ds[i])
			}
			_ = enclosing(ds, line)
		}
	})
}
