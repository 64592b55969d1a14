package rust

import (
	"context"
	"strings"
	"testing"
)

// FuzzManifest: a Cargo.toml is whatever the repository holds. On any
// manifest, with a workspace member's manifest alongside, the loader
// loads the Rust files and reports what it could not read, without a
// panic or a defect.
func FuzzManifest(f *testing.F) {
	f.Add("[package]\nname = \"m\"\nversion = \"0.1.0\"\n", "[package]\nname = \"b\"\n")
	f.Add("[workspace]\nmembers = [\"crates/*\", \"../outside\", \"/abs\", \"crates/b\"]\nexclude = [\"crates/x\"]\n", "[package]\nname = \"b\"\n[lib]\npath = \"../../../etc/passwd\"\n")
	f.Add("[workspace]\nmembers = \"not a list\"\n", "[[bin]]\nname = 3\n")
	f.Add("[package\nname = = \"broken", "")
	f.Add("[package]\nname = \"m\"\n[lib]\npath = \"src/../../x.rs\"\n[[bin]]\npath = \"/etc/passwd\"\n[dependencies]\nb = { path = \"crates/b\" }\n[workspace.dependencies]\nc = { path = \"../c\" }\n", "[package]\nname = \"b\"\n[[test]]\nname = \"t\"\npath = \"tests/t.rs\"\n")
	f.Fuzz(func(t *testing.T, root, member string) {
		files := map[string]string{
			"Cargo.toml":          root,
			"crates/b/Cargo.toml": member,
			"src/lib.rs":          "pub fn top() -> u32 { 1 }\n",
			"src/main.rs":         "fn main() { m::top(); }\n",
			"crates/b/src/lib.rs": "pub fn bee() -> u32 { 2 }\n",
			"crates/b/tests/t.rs": "#[test] fn t() { b::bee(); }\n",
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
		for _, fl := range facts.Files {
			if strings.HasPrefix(fl.Path, "..") || strings.HasPrefix(fl.Path, "/") {
				t.Fatalf("a file outside the root became a fact: %s", fl.Path)
			}
		}
		if len(facts.Files) < 4 {
			t.Fatalf("only %d of 4 Rust files loaded", len(facts.Files))
		}
	})
}
