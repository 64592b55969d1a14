package rust

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// writeTree writes files (path → content) under a new temporary root.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func hasProblem(f *analyze.Facts, kind analyze.ProblemKind, path, text string) bool {
	for _, p := range f.Problems {
		if p.Kind == kind && p.Path == path && strings.Contains(p.Msg, text) {
			return true
		}
	}
	return false
}

// TestHostileFiles checks that binary, oversized and badly encoded files
// cost a problem, never the load.
func TestHostileFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"Cargo.toml":      "[package]\nname = \"hostile\"\nversion = \"0.1.0\"\n",
		"src/lib.rs":      "mod bin;\nmod big;\nmod latin1;\npub fn ok() {}\n",
		"src/bin.rs":      "\x7fELF\x00\x00\x00binary\x00",
		"src/big.rs":      "pub fn big() {}\n" + strings.Repeat("// padding\n", 400),
		"src/latin1.rs":   "/// Caf\xe9 docs.\npub fn caf\xe9() {}\npub fn fine() -> &'static str { \"na\xefve\" }\n",
		"src/bad.toml.rs": "",
	})
	f, err := Load(context.Background(), root, Options{MaxFileSize: 2048})
	if err != nil {
		t.Fatal(err)
	}
	if !hasProblem(f, analyze.ProblemSkipped, "src/bin.rs", "binary") {
		t.Errorf("binary file not reported: %v", f.Problems)
	}
	if !hasProblem(f, analyze.ProblemSkipped, "src/big.rs", "") {
		t.Errorf("oversized file not reported: %v", f.Problems)
	}
	if len(symsNamed(f, "ok")) != 1 || len(symsNamed(f, "fine")) != 1 {
		t.Errorf("valid items lost: %s", dumpFacts(f))
	}
	for _, s := range f.Symbols {
		if !utf8.ValidString(s.Name) || !utf8.ValidString(s.Doc) || !utf8.ValidString(s.Signature) {
			t.Errorf("invalid UTF-8 in symbol %q doc %q sig %q", s.Name, s.Doc, s.Signature)
		}
	}
}

// TestDeepNesting loads 150 nested inline modules and a 40-level directory
// chain of file modules.
func TestDeepNesting(t *testing.T) {
	var inline strings.Builder
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&inline, "pub mod m%d {\n", i)
		if i == 59 {
			inline.WriteString("pub fn mid() {}\n")
		}
	}
	inline.WriteString("pub fn bottom() {}\n")
	inline.WriteString(strings.Repeat("}\n", 150))
	files := map[string]string{
		"Cargo.toml": "[package]\nname = \"deep\"\nversion = \"0.1.0\"\n",
		"src/lib.rs": "pub mod inl;\npub mod d0;\n",
		"src/inl.rs": inline.String(),
	}
	dir := "src"
	for i := 0; i < 40; i++ {
		next := fmt.Sprintf("d%d", i+1)
		body := fmt.Sprintf("pub mod %s;\npub fn f%d() { super::f%d(); }\n", next, i, i-1)
		if i == 39 {
			body = fmt.Sprintf("pub fn f%d() { crate::inl::%sbottom(); crate::inl::%smid(); }\n", i, chain(150), chain(60))
		}
		files[fmt.Sprintf("%s/d%d.rs", dir, i)] = body
		dir = fmt.Sprintf("%s/d%d", dir, i)
	}
	f := loadDir(t, writeTree(t, files), Options{})
	id, ok := f.FileByPath("src/d0/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/d15/d16/d17/d18/d19/d20/d21/d22/d23/d24/d25/d26/d27/d28/d29/d30/d31/d32/d33/d34/d35/d36/d37/d38/d39.rs")
	if !ok {
		t.Fatalf("deepest file not loaded")
	}
	if pkg := f.Files[id].Package; !strings.HasSuffix(pkg, "::d38::d39") || strings.Count(pkg, "::") != 40 {
		t.Errorf("deepest package %q", pkg)
	}
	if len(symsNamed(f, "m149")) != 1 {
		t.Errorf("innermost of 150 inline modules lost")
	}
	if len(symsNamed(f, "bottom")) != 1 {
		t.Errorf("bottom of 150 inline modules lost")
	}
	if _, ok := findEdge(f, "f5", analyze.EdgeCalls, "f4"); !ok {
		t.Errorf("super:: call across file modules not resolved")
	}
	// The 60-module path resolves; the 150-module one is too long to record.
	if e, ok := findEdge(f, "f39", analyze.EdgeCalls, "mid"); !ok || !e.Exact {
		t.Errorf("f39 → mid: %+v, %v", e, ok)
	}
	if _, ok := findEdge(f, "f39", analyze.EdgeCalls, "bottom"); ok {
		t.Errorf("a 153-segment path was recorded")
	}
}

// chain returns "m0::m1::…::m(n-1)::".
func chain(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "m%d::", i)
	}
	return b.String()
}

// TestHeavyMacros loads a file with thousands of macro invocations, a
// large macro_rules! and deeply nested token trees, within a time that
// shows nothing is quadratic.
func TestHeavyMacros(t *testing.T) {
	var b strings.Builder
	b.WriteString("macro_rules! big {\n")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "    (arm%d $x:expr) => { helper($x) + %d };\n", i, i)
	}
	b.WriteString("}\n\npub fn helper(x: u32) -> u32 { x }\n\npub fn user() -> u32 {\n    let mut n = 0;\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "    n += big!(arm%d vec![%d, helper(%d)][0]);\n", i%500, i, i)
	}
	b.WriteString("    n\n}\n")
	b.WriteString(strings.Repeat("nest! { ", 200) + "pub fn inside() {}" + strings.Repeat(" }", 200) + "\n")
	root := writeTree(t, map[string]string{"lib.rs": b.String()})
	start := time.Now()
	f := loadDir(t, root, Options{})
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("heavy macros took %v", d)
	}
	if e, ok := findEdge(f, "user", analyze.EdgeMacro, "big"); !ok || !e.Exact {
		t.Errorf("user → big! macro edge missing or inexact")
	}
	if _, ok := findEdge(f, "user", analyze.EdgeCalls, "helper"); !ok {
		t.Errorf("call inside macro arguments not seen")
	}
	if _, ok := findEdge(f, "big", analyze.EdgeCalls, "helper"); !ok {
		t.Errorf("call inside macro_rules! body not seen")
	}
}

// TestCancel checks that a cancelled load returns partial facts, not an
// error.
func TestCancel(t *testing.T) {
	files := map[string]string{"Cargo.toml": "[package]\nname = \"many\"\nversion = \"0.1.0\"\n"}
	var lib strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&lib, "pub mod m%d;\n", i)
		files[fmt.Sprintf("src/m%d.rs", i)] = fmt.Sprintf("pub fn f%d() { crate::m0::f0(); }\n%s", i, strings.Repeat("pub struct S;\n", 50))
	}
	files["src/lib.rs"] = lib.String()
	root := writeTree(t, files)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f, err := Load(ctx, root, Options{})
	if err != nil {
		t.Fatalf("cancelled Load returned an error: %v", err)
	}
	if !f.Partial || !hasProblem(f, analyze.ProblemLimit, "", "partial") {
		t.Errorf("cancelled load not marked partial: %v", f.Problems)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 3*time.Millisecond)
	defer cancel()
	f, err = Load(ctx, root, Options{Workers: 1})
	if err != nil {
		t.Fatalf("Load with a deadline: %v", err)
	}
	if ctx.Err() != nil && !f.Partial {
		t.Errorf("load past its deadline not marked partial")
	}
	// What was loaded is consistent: every edge and symbol points in range.
	for _, e := range f.Edges {
		if int(e.From) >= len(f.Symbols) || int(e.To) >= len(f.Symbols) {
			t.Fatalf("edge out of range in partial facts")
		}
	}
}

// TestCargoTargets checks the crates the loader makes of discovered
// targets (package cargo tests discovery itself): declared and automatic
// binaries, tests, examples, benches and build scripts, a renamed path
// dependency, [workspace.dependencies] and member globs with exclude, and
// calls resolved across them.
func TestCargoTargets(t *testing.T) {
	root := writeTree(t, map[string]string{
		"Cargo.toml": `[workspace]
members = ["crates/*"]
exclude = ["crates/skipped"]

[workspace.dependencies]
shared-util = { path = "crates/util" }
`,
		"crates/util/Cargo.toml":             "[package]\nname = \"shared-util\"\nversion = \"0.1.0\"\n",
		"crates/util/src/lib.rs":             "pub fn util_fn() {}\n",
		"crates/app/Cargo.toml":              "[package]\nname = \"my-app\"\nversion = \"0.1.0\"\nbuild = \"gen/build.rs\"\n\n[lib]\nname = \"app_core\"\n\n[[bin]]\nname = \"cli\"\npath = \"cmd/cli.rs\"\n\n[dependencies]\nu = { package = \"shared-util\", path = \"../util\" }\nshared-util = { workspace = true }\n",
		"crates/app/src/lib.rs":              "pub fn core_fn() { u::util_fn(); shared_util::util_fn(); }\n",
		"crates/app/src/main.rs":             "fn main() { app_core::core_fn(); }\n",
		"crates/app/cmd/cli.rs":              "fn main() { app_core::core_fn(); }\n",
		"crates/app/src/bin/extra.rs":        "fn main() {}\n",
		"crates/app/src/bin/multi/main.rs":   "mod helper;\nfn main() { helper::h(); }\n",
		"crates/app/src/bin/multi/helper.rs": "pub fn h() {}\n",
		"crates/app/tests/it.rs":             "#[test]\nfn core_fn_works() { app_core::core_fn(); }\n",
		"crates/app/examples/demo.rs":        "fn main() {}\n",
		"crates/app/benches/speed.rs":        "fn main() {}\n",
		"crates/app/gen/build.rs":            "fn main() {}\n",
		"crates/skipped/Cargo.toml":          "[package]\nname = \"skipped\"\nversion = \"0.1.0\"\n",
		"crates/skipped/src/lib.rs":          "pub fn skipped() {}\n",
		"crates/nomanifest/src/lib.rs":       "pub fn orphaned() {}\n",
	})
	f := loadDir(t, root, Options{})
	checkWants(t, f, `
file crates/app/src/lib.rs package=app_core crate=app_core
file crates/app/src/main.rs package=bin:my_app crate=my_app
file crates/app/cmd/cli.rs package=bin:cli crate=cli
file crates/app/src/bin/extra.rs package=bin:extra
file crates/app/src/bin/multi/main.rs package=bin:multi
file crates/app/src/bin/multi/helper.rs package=bin:multi::helper
file crates/app/tests/it.rs package=test:it category=test
file crates/app/examples/demo.rs package=example:demo category=example
file crates/app/benches/speed.rs package=bench:speed
file crates/app/gen/build.rs package=build:build_script_build
file crates/skipped/src/lib.rs package=skipped
edge! core_fn calls util_fn
edge! core_fn_works tests core_fn
problem load crates/nomanifest
file crates/nomanifest/src/lib.rs package=nomanifest crate=nomanifest
file crates/app/src/lib.rs category=source
`)
	var mainFns int
	for _, id := range symsNamed(f, "main") {
		if _, ok := findEdgeFrom(f, id, analyze.EdgeCalls, "core_fn"); ok {
			mainFns++
		}
	}
	if mainFns != 2 {
		t.Errorf("%d binaries call app_core::core_fn, want 2", mainFns)
	}
}

func findEdgeFrom(f *analyze.Facts, from analyze.SymID, kind analyze.EdgeKind, to string) (analyze.Edge, bool) {
	for _, e := range f.Edges {
		if e.From == from && e.Kind == kind && f.Symbols[e.To].QualName(analyze.LangRust) == to {
			return e, true
		}
	}
	return analyze.Edge{}, false
}

// FuzzLoad runs the whole loader, resolution included, on a small crate
// whose files come from the fuzzer: the input is split at NUL bytes into
// src/lib.rs, src/a.rs, src/a/b.rs and tests/t.rs.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("mod a;\npub use a::b::*;\npub fn top() { a::f(); }\x00pub mod b;\npub fn f() { b::g(); super::top(); }\x00pub fn g() { crate::a::f() }\x00use fz::*;\n#[test] fn top_works() { top(); }"))
	f.Add([]byte("pub use self::*;\nuse crate::a::*;\nmod a;\x00pub use super::*;\npub use crate::*;\x00\x00"))
	f.Add([]byte("mod a { pub mod b { pub use super::super::a::*; } }\nimpl X for Y { fn m(&self) { self.m(); self.x.y().z()?.w(); } }\x00trait X: X {}\x00"))
	f.Add([]byte("macro_rules! m { () => { m!() } }\nm!{ mod a; }\x00#[path = \"../../x.rs\"] mod p;\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parts := strings.SplitN(string(data), "\x00", 4)
		names := []string{"src/lib.rs", "src/a.rs", "src/a/b.rs", "tests/t.rs"}
		files := map[string]string{"Cargo.toml": "[package]\nname = \"fz\"\nversion = \"0.1.0\"\n"}
		for i, p := range parts {
			files[names[i]] = p
		}
		facts, err := Load(context.Background(), writeTree(t, files), Options{Workers: 1})
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		for _, p := range facts.Problems {
			if strings.Contains(p.Msg, "internal error") {
				t.Fatalf("loader defect: %s", p)
			}
		}
		for _, e := range facts.Edges {
			if int(e.From) >= len(facts.Symbols) || int(e.To) >= len(facts.Symbols) || e.From == e.To {
				t.Fatalf("bad edge %+v", e)
			}
		}
	})
}
