package lsp

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

func TestExtendUpAndDoc(t *testing.T) {
	src := strings.Join([]string{
		/* 1 */ "package p",
		/* 2 */ "",
		/* 3 */ "// A is documented",
		/* 4 */ "// on two lines.",
		/* 5 */ "func A() {}",
		/* 6 */ "",
		/* 7 */ "// detached comment",
		/* 8 */ "",
		/* 9 */ "func B() {}",
		/* 10 */ "/*",
		/* 11 */ " C has a block comment.",
		/* 12 */ "*/",
		/* 13 */ "type C struct {",
		/* 14 */ "\t*Base",
		/* 15 */ "\tName string // trailing",
		/* 16 */ "\t//go:generate stringer",
		/* 17 */ "\t// Age in years.",
		/* 18 */ "\tAge int",
		/* 19 */ "}",
	}, "\n")
	lines := splitLines([]byte(src))
	tests := []struct {
		name      string
		decl      int
		wantStart int
		wantDoc   string
	}{
		{"line comments", 5, 3, "A is documented\non two lines."},
		{"blank line detaches", 9, 9, ""},
		{"block comment", 13, 10, "C has a block comment."},
		{"embedded field above is code", 15, 15, ""},
		{"directive kept in span, out of doc", 18, 16, "Age in years."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := extendUp(lines, tt.decl, analyze.LangGo)
			if start != tt.wantStart {
				t.Errorf("start %d, want %d", start, tt.wantStart)
			}
			if doc := docText(lines, start, tt.decl); doc != tt.wantDoc {
				t.Errorf("doc %q, want %q", doc, tt.wantDoc)
			}
		})
	}
}

func TestRustSpans(t *testing.T) {
	lines := splitLines([]byte("use x;\n\n/// Finds.\n#[inline]\n#[cfg(feature = \"x\")]\npub fn find() {}\n"))
	if got := extendUp(lines, 6, analyze.LangRust); got != 3 {
		t.Errorf("start %d, want 3 (doc and attributes)", got)
	}
	if got := firstCodeLine(lines, 3, 6, analyze.LangRust); got != 6 {
		t.Errorf("first code line %d, want 6", got)
	}
	if got := docText(lines, 3, 6); got != "Finds." {
		t.Errorf("doc %q", got)
	}
}

func TestHeader(t *testing.T) {
	tests := []struct {
		name string
		src  string
		col  int
		want string
	}{
		{"func", "func (s *S) M(a int) (int, error) {\n\treturn 0, nil\n}", 0, "func (s *S) M(a int) (int, error)"},
		{"multi-line params", "func F(\n\ta int, // first\n\tb string,\n) error {\n}", 0, "func F( a int, b string, ) error"},
		{"struct from the name", "type T struct {\n}", 5, "T struct"},
		{"brace in params", "func F(x struct{}) {}", 0, "func F(x struct{})"},
		{"string with slashes", "var u = \"http://x\" // the url", 0, "var u = \"http://x\""},
		{"rust where clause", "pub fn f<T>(x: T) -> T\nwhere\n    T: Clone,\n{\n}", 0, "pub fn f<T>(x: T) -> T where T: Clone,"},
		{"rust trait method", "fn find(&self) -> Option<User>;", 0, "fn find(&self) -> Option<User>"},
		{"column past the end", "x", 10, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := splitLines([]byte(tt.src))
			if got := header(lines, 1, tt.col, len(lines)); got != tt.want {
				t.Errorf("header %q, want %q", got, tt.want)
			}
		})
	}
	long := strings.Repeat("é", 400)
	if got := header([]string{long}, 1, 0, 1); !utf8.ValidString(got) || len(got) > maxHeaderLen+len("…") {
		t.Errorf("long header not cut cleanly: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}

func TestRustKeywordKind(t *testing.T) {
	tests := []struct {
		head, name string
		want       analyze.SymbolKind
	}{
		{"pub fn find_by_email(&self)", "find_by_email", analyze.KindFunc},
		{"pub const fn new() -> Self", "new", analyze.KindFunc},
		{"pub(crate) struct MemoryStore", "MemoryStore", analyze.KindStruct},
		{"pub enum ServiceError", "ServiceError", analyze.KindEnum},
		{"pub trait Store: Send + Sync", "Store", analyze.KindTrait},
		{"impl Store for MemoryStore", "impl Store for MemoryStore", analyze.KindImpl},
		{"pub mod store", "store", analyze.KindModule},
		{"pub type Result<T> = std::result::Result<T, Error>", "Result", analyze.KindTypeAlias},
		{"static COUNT: AtomicUsize = AtomicUsize::new(0)", "COUNT", analyze.KindStatic},
		{"const MAX: usize = 3", "MAX", analyze.KindConst},
		{"macro_rules! my_vec", "my_vec", analyze.KindMacro},
		{"pub union Bits", "Bits", analyze.KindUnion},
		{"pub email: String", "email", analyze.KindUnknown},
		{"fn type_of()", "type_of", analyze.KindFunc},
	}
	for _, tt := range tests {
		if got := rustKeywordKind(tt.head, tt.name); got != tt.want {
			t.Errorf("rustKeywordKind(%q, %q) = %v, want %v", tt.head, tt.name, got, tt.want)
		}
	}
}

func TestParseImplName(t *testing.T) {
	tests := []struct {
		label, trait, self string
	}{
		{"impl MemoryStore", "", "MemoryStore"},
		{"impl Store for MemoryStore", "Store", "MemoryStore"},
		{"impl<T: Clone> Store for Cache<T>", "Store", "Cache"},
		{"impl From<StoreError> for ServiceError", "From<StoreError>", "ServiceError"},
		{"impl<'a> Iterator for Iter<'a>", "Iterator", "Iter"},
		{"impl !Send for Token", "!Send", "Token"},
		{"impl fmt::Display for crate::error::Error", "fmt::Display", "Error"},
		{"impl<F> Service for F where F: Fn() -> u8", "Service", "F"},
		{"impl Fn() -> u8 for X", "Fn() -> u8", "X"},
		{"impl<T> Trait for &T", "Trait", "T"},
		{"implement", "", ""},
		{"MemoryStore", "", ""},
	}
	for _, tt := range tests {
		trait, self := parseImplName(tt.label)
		if trait != tt.trait || self != tt.self {
			t.Errorf("parseImplName(%q) = %q, %q; want %q, %q", tt.label, trait, self, tt.trait, tt.self)
		}
	}
}

func FuzzParseImplName(f *testing.F) {
	for _, s := range []string{"impl A", "impl<T> B<T> for C<T>", "impl<<<", "impl for for", "impl -> > <"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		trait, self := parseImplName(s)
		if len(trait) > len(s) || len(self) > len(s) {
			t.Fatalf("parts longer than the label %q: %q, %q", s, trait, self)
		}
	})
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"gopls", []string{"gopls"}, false},
		{"  gopls   -remote=auto serve ", []string{"gopls", "-remote=auto", "serve"}, false},
		{`"/opt/my tools/gopls" -v`, []string{"/opt/my tools/gopls", "-v"}, false},
		{`rust-analyzer --log-file 'a b.log'`, []string{"rust-analyzer", "--log-file", "a b.log"}, false},
		{`x ""`, []string{"x", ""}, false},
		{"", nil, true},
		{"   ", nil, true},
		{`gopls "unclosed`, nil, true},
	}
	for _, tt := range tests {
		got, err := ParseCommand(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseCommand(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if err != nil && !errors.Is(err, ErrBadCommand) {
			t.Errorf("ParseCommand(%q) error %v is not ErrBadCommand", tt.in, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseCommand(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"gopls", `"a b" c`, `'x`, "a\tb\nc", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv, err := ParseCommand(s)
		if err == nil && len(argv) == 0 {
			t.Fatalf("ParseCommand(%q) gave no program and no error", s)
		}
		for _, a := range argv {
			if len(a) > len(s) {
				t.Fatalf("argument %q longer than the input %q", a, s)
			}
		}
	})
}

func TestCommandLang(t *testing.T) {
	tests := []struct {
		argv []string
		want analyze.Lang
	}{
		{[]string{"gopls"}, analyze.LangGo},
		{[]string{"/home/u/go/bin/gopls", "serve"}, analyze.LangGo},
		{[]string{"rust-analyzer"}, analyze.LangRust},
		{[]string{`C:\tools\rust-analyzer.exe`}, analyze.LangUnknown}, // not a path on this system
		{[]string{"clangd"}, analyze.LangUnknown},
		{nil, analyze.LangUnknown},
	}
	for _, tt := range tests {
		if got := CommandLang(tt.argv); got != tt.want && !strings.Contains(tt.argv[0], `\`) {
			t.Errorf("CommandLang(%q) = %v, want %v", tt.argv, got, tt.want)
		}
	}
}

func TestCargoPackageName(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"[package]\nname = \"user-svc\"\nversion = \"0.1.0\"\n", "user_svc"},
		{"[workspace]\nmembers = [\"a\"]\n", ""},
		{"[dependencies]\nname = \"x\"\n[package]\nversion = \"1\"\nname='store' # the crate\n", "store"},
		{"[package]\nname = { workspace = true }\n", ""},
		{"[package]\nname = \"unterminated\n", ""},
	}
	for _, tt := range tests {
		if got := cargoPackageName([]byte(tt.in)); got != tt.want {
			t.Errorf("cargoPackageName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzCargoPackageName(f *testing.F) {
	f.Add([]byte("[package]\nname = \"a-b\"\n"))
	f.Add([]byte("[package]\nname = '\n"))
	f.Add([]byte("[[bin]]\nname = \"x\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got := cargoPackageName(data); strings.ContainsAny(got, "\n-") {
			t.Fatalf("crate name %q has a newline or dash", got)
		}
	})
}

func TestRustModulePath(t *testing.T) {
	tests := []struct {
		rel, want string
	}{
		{"src/lib.rs", "svc"},
		{"src/main.rs", "bin:svc"},
		{"src/store/mod.rs", "svc::store"},
		{"src/store/memory.rs", "svc::store::memory"},
		{"src/bin/admin.rs", "bin:admin"},
		{"src/bin/admin/main.rs", "bin:admin"},
		{"tests/api.rs", "test:api"},
		{"examples/demo.rs", "example:demo"},
		{"benches/speed.rs", "bench:speed"},
		{"build.rs", "build:build_script_build"},
		{"other/x.rs", "svc::other::x"},
	}
	for _, tt := range tests {
		if got := rustModulePath("svc", tt.rel); got != tt.want {
			t.Errorf("rustModulePath(%q) = %q, want %q", tt.rel, got, tt.want)
		}
	}
}

func TestGoNames(t *testing.T) {
	for name, want := range map[string][2]string{
		"(*UserService).FindByEmail": {"UserService", "FindByEmail"},
		"(T).String":                 {"T", "String"},
		"(*List[T]).Push":            {"List", "Push"},
		"T.M":                        {"T", "M"},
		"FindByEmail":                {"", ""},
	} {
		m := goMethodName().FindStringSubmatch(name)
		var got [2]string
		if m != nil {
			got = [2]string{m[1], m[2]}
		}
		if got != want {
			t.Errorf("%q: got %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]bool{
		"TestX": true, "Test": true, "Test_x": true, "Testify": false, "BenchmarkLoad": true,
		"FuzzParse": true, "Example": true, "ExampleT_M": true, "Examples": false, "helper": false,
	} {
		if got := goTestName(name); got != want {
			t.Errorf("goTestName(%q) = %v", name, got)
		}
	}
}

func TestDecodeAnswers(t *testing.T) {
	locs, err := decodeLocations([]byte(`[{"targetUri":"file:///a.go","targetRange":{"start":{"line":1,"character":0},"end":{"line":9,"character":1}},"targetSelectionRange":{"start":{"line":2,"character":5},"end":{"line":2,"character":6}}},{"uri":"file:///b.go","range":{"start":{"line":4,"character":0},"end":{"line":4,"character":1}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Location{
		{URI: "file:///a.go", Range: Range{Position{2, 5}, Position{2, 6}}},
		{URI: "file:///b.go", Range: Range{Position{4, 0}, Position{4, 1}}},
	}
	if diff := cmp.Diff(want, locs); diff != "" {
		t.Errorf("locations (-want +got):\n%s", diff)
	}
	for _, in := range []string{"null", "", "[]"} {
		if locs, err := decodeLocations([]byte(in)); err != nil || len(locs) != 0 {
			t.Errorf("decodeLocations(%q) = %v, %v", in, locs, err)
		}
	}
	single, err := decodeLocations([]byte(`{"uri":"file:///c.go","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}}}`))
	if err != nil || len(single) != 1 {
		t.Errorf("a single location: %v, %v", single, err)
	}

	flat, err := decodeDocumentSymbols([]byte(`[{"name":"F","kind":12,"location":{"uri":"file:///a.go","range":{"start":{"line":3,"character":0},"end":{"line":5,"character":1}}},"containerName":"p"}]`))
	if err != nil {
		t.Fatal(err)
	}
	wantFlat := []DocumentSymbol{{Name: "F", Kind: skFunction, Detail: "p",
		Range: Range{Position{3, 0}, Position{5, 1}}, SelectionRange: Range{Position{3, 0}, Position{3, 0}}}}
	if diff := cmp.Diff(wantFlat, flat); diff != "" {
		t.Errorf("flat symbols (-want +got):\n%s", diff)
	}
	if _, err := decodeDocumentSymbols([]byte(`{"oops":1}`)); err == nil {
		t.Error("an object instead of a list decoded without error")
	}
}

func TestURIs(t *testing.T) {
	for _, p := range []string{"/tmp/a b/c#d.go", "/x/ü.rs", "/plain/p.go"} {
		u := fileURI(p)
		back, ok := uriPath(u)
		if !ok || back != p {
			t.Errorf("%q → %q → %q", p, u, back)
		}
	}
	if _, ok := uriPath("untitled:Untitled-1"); ok {
		t.Error("a non-file URI mapped to a path")
	}
}

func TestStderrSummary(t *testing.T) {
	tests := []struct{ in, want string }{
		{"error: Unknown binary 'rust-analyzer'\n\nStack backtrace:\n  0: x\n  1: y", "error: Unknown binary 'rust-analyzer'"},
		{"starting\npanic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()", "panic: runtime error: index out of range"},
		{"a\nb\nc\nd\n", "b | c | d"},
		{strings.Repeat("é", 300), strings.Repeat("é", 150) + "…"},
	}
	for _, tt := range tests {
		if got := stderrSummary(tt.in); got != tt.want {
			t.Errorf("stderrSummary(%.40q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
