package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// rustCrate is a small crate: a trait, a struct implementing it in a
// trait impl, an inherent impl, a free function and a #[cfg(test)] module.
var rustCrate = map[string]string{
	"Cargo.toml": "[package]\nname = \"user-svc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
	"src/lib.rs": "pub mod store;\n",
	"src/store.rs": `use std::fmt;

/// A place users are kept.
pub trait Store {
    /// Finds a user by email.
    fn find(&self, email: &str) -> Option<User>;
}

/// A registered user.
#[derive(Debug, Clone)]
pub struct User {
    pub email: String,
}

pub struct MemoryStore {
    users: Vec<User>,
}

impl Store for MemoryStore {
    fn find(&self, email: &str) -> Option<User> {
        self.users.iter().find(|u| u.email == email).cloned()
    }
}

impl MemoryStore {
    pub fn new() -> Self {
        MemoryStore { users: Vec::new() }
    }
}

/// Looks a user up in any store.
pub fn lookup(s: &dyn Store, email: &str) -> Option<User> {
    s.find(email)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nothing_in_empty_store() {
        assert!(lookup(&MemoryStore::new(), "a@b").is_none());
    }
}
`,
}

// rustWant are the facts the crate should give, from rust-analyzer or
// from the canned answers modelled on its output.
var rustWant = struct {
	symbols []string
	edges   []string
}{
	symbols: []string{
		"src/lib.rs:store mod 1-1@1 pub",
		"src/store.rs:Store trait 3-7@4 pub doc=A place users are kept.",
		"src/store.rs:Store::find method 5-6@6 pub doc=Finds a user by email. parent=Store",
		"src/store.rs:User struct 9-13@11 pub doc=A registered user.",
		"src/store.rs:User::email field 12-12@12 pub parent=User",
		"src/store.rs:MemoryStore struct 15-17@15 pub",
		"src/store.rs:MemoryStore::users field 16-16@16 parent=MemoryStore",
		"src/store.rs:impl Store for MemoryStore impl 19-23@19",
		"src/store.rs:MemoryStore::find method 20-22@20 pub parent=impl Store for MemoryStore",
		"src/store.rs:impl MemoryStore impl 25-29@25",
		"src/store.rs:MemoryStore::new method 26-28@26 pub parent=impl MemoryStore",
		"src/store.rs:lookup func 31-34@32 pub doc=Looks a user up in any store.",
		"src/store.rs:tests mod 36-44@37 test",
		"src/store.rs:finds_nothing_in_empty_store func 40-43@41 test parent=tests",
	},
	edges: []string{
		"MemoryStore -field-> MemoryStore::users",
		"MemoryStore -implements-> Store",
		"MemoryStore -references-> User",
		"MemoryStore::find -method_of-> MemoryStore",
		"MemoryStore::find -references-> User",
		"MemoryStore::new -method_of-> MemoryStore",
		"MemoryStore::new -references-> MemoryStore",
		"MemoryStore::users -references-> User",
		"impl MemoryStore -references-> MemoryStore",
		"impl Store for MemoryStore -references-> MemoryStore",
		"impl Store for MemoryStore -references-> Store",
		"Store::find -method_of-> Store",
		"Store::find -references-> User",
		"User -field-> User::email",
		"finds_nothing_in_empty_store -calls-> MemoryStore::new",
		"finds_nothing_in_empty_store -calls-> lookup",
		"finds_nothing_in_empty_store -references-> MemoryStore",
		"finds_nothing_in_empty_store -tests-> MemoryStore",
		"finds_nothing_in_empty_store -tests-> MemoryStore::new",
		"finds_nothing_in_empty_store -tests-> lookup",
		"lookup -calls-> Store::find",
		"lookup -references-> Store",
		"lookup -references-> User",
	},
}

// rustScript answers like rust-analyzer does for rustCrate: document
// symbols whose ranges cover doc comments and attributes, impls labelled
// "impl Trait for Type" with the self type as selection, implementation
// locations at an impl's self type, all functions of kind Function.
func rustScript(t *testing.T, root string) string {
	t.Helper()
	uri := func(rel string) string { return fileURI(filepath.Join(root, rel)) }
	r := func(l1, c1, l2, c2 int) Range { return Range{Position{l1, c1}, Position{l2, c2}} }
	sym := func(name string, kind SymbolKind, rng, sel Range, children ...DocumentSymbol) DocumentSymbol {
		return DocumentSymbol{Name: name, Kind: kind, Range: rng, SelectionRange: sel, Children: children}
	}
	loc := func(l, c int) Location { return Location{URI: uri("src/store.rs"), Range: r(l, c, l, c+1)} }
	at := func(l, c int) string { return fmt.Sprintf(`"position":{"line":%d,"character":%d}`, l, c) }
	item := func(name string, l, c int) CallHierarchyItem {
		return CallHierarchyItem{Name: name, Kind: skFunction, URI: uri("src/store.rs"), Range: r(l, c, l, c+len(name)), SelectionRange: r(l, c, l, c+len(name))}
	}
	type entry struct {
		Match  string `json:"match"`
		Result any    `json:"result"`
	}
	script := map[string][]entry{
		"textDocument/documentSymbol": {
			{uri("src/lib.rs"), []DocumentSymbol{sym("store", skModule, r(0, 0, 0, 14), r(0, 8, 0, 13))}},
			{uri("src/store.rs"), []DocumentSymbol{
				sym("Store", skInterface, r(2, 0, 6, 1), r(3, 10, 3, 15),
					sym("find", skFunction, r(4, 4, 5, 48), r(5, 7, 5, 11))),
				sym("User", skStruct, r(8, 0, 12, 1), r(10, 11, 10, 15),
					sym("email", skField, r(11, 4, 11, 21), r(11, 8, 11, 13))),
				sym("MemoryStore", skStruct, r(14, 0, 16, 1), r(14, 11, 14, 22),
					sym("users", skField, r(15, 4, 15, 20), r(15, 4, 15, 9))),
				sym("impl Store for MemoryStore", skObject, r(18, 0, 22, 1), r(18, 15, 18, 26),
					sym("find", skFunction, r(19, 4, 21, 5), r(19, 7, 19, 11))),
				sym("impl MemoryStore", skObject, r(24, 0, 28, 1), r(24, 5, 24, 16),
					sym("new", skFunction, r(25, 4, 27, 5), r(25, 11, 25, 14))),
				sym("lookup", skFunction, r(30, 0, 33, 1), r(31, 7, 31, 13)),
				sym("tests", skModule, r(35, 0, 43, 1), r(36, 4, 36, 9),
					sym("finds_nothing_in_empty_store", skFunction, r(39, 4, 42, 5), r(40, 7, 40, 35))),
			}},
		},
		"textDocument/definition": {
			{at(18, 15), []Location{loc(14, 11)}},
			{at(24, 5), []Location{loc(14, 11)}},
		},
		"textDocument/implementation": {
			{at(3, 10), []Location{{URI: uri("src/store.rs"), Range: r(18, 15, 18, 26)}}},
		},
		"callHierarchy/outgoingCalls": {
			{`"name":"lookup"`, []CallHierarchyOutgoingCall{{To: item("find", 5, 7), FromRanges: []Range{r(32, 6, 32, 10)}}}},
			{`"name":"finds_nothing_in_empty_store"`, []CallHierarchyOutgoingCall{
				{To: item("lookup", 31, 7), FromRanges: []Range{r(41, 16, 41, 22)}},
				{To: item("new", 25, 11), FromRanges: []Range{r(41, 37, 41, 40)}},
			}},
		},
		"textDocument/references": {
			{at(10, 11), []Location{loc(5, 36), loc(15, 14), loc(19, 39), loc(31, 51)}}, // User
			{at(14, 11), []Location{loc(18, 15), loc(24, 5), loc(26, 8), loc(41, 24)}},  // MemoryStore
			{at(3, 10), []Location{loc(18, 5), loc(31, 19)}},                            // Store
			{at(5, 7), []Location{loc(32, 6)}},                                          // Store::find
		},
	}
	data, err := json.Marshal(script)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// describeRust renders facts in the form of rustWant.
func describeRust(fs *analyze.Facts) (symbols, edges []string) {
	name := func(id analyze.SymID) string {
		s := &fs.Symbols[id]
		if s.Kind == analyze.KindImpl {
			return "impl " + s.Name
		}
		return s.QualName(analyze.LangRust)
	}
	for i := range fs.Symbols {
		s := &fs.Symbols[i]
		line := fmt.Sprintf("%s:%s %s %d-%d@%d", fs.Files[s.File].Path, name(analyze.SymID(i)), s.Kind, s.Start, s.End, s.DeclLine)
		if s.Exported {
			line += " pub"
		}
		if s.Test {
			line += " test"
		}
		if s.Doc != "" {
			line += " doc=" + s.Doc
		}
		if s.Parent != analyze.NoSym {
			line += " parent=" + name(s.Parent)
		}
		symbols = append(symbols, line)
	}
	for _, e := range fs.Edges {
		edges = append(edges, name(e.From)+" -"+e.Kind.String()+"-> "+name(e.To))
	}
	sort.Strings(edges)
	return symbols, edges
}

func TestRustAnalyzerShapedAnswers(t *testing.T) {
	t.Parallel()
	root := writeTree(t, rustCrate)
	opt := fakeOptions(t, "script", rustScript(t, root))
	opt.Lang = analyze.LangRust
	opt.StartTimeout = 30 * time.Second
	opt.RequestTimeout = 5 * time.Second
	fs, err := Load(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range fs.Problems { // none; not "did not report the end of indexing"
		t.Errorf("problem: %v", p)
	}
	symbols, edges := describeRust(fs)
	if diff := cmp.Diff(rustWant.symbols, symbols); diff != "" {
		t.Errorf("symbols (-want +got):\n%s", diff)
	}
	wantEdges := append([]string(nil), rustWant.edges...)
	sort.Strings(wantEdges)
	if diff := cmp.Diff(wantEdges, edges); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
	for _, e := range fs.Edges {
		if !e.Exact && e.Kind != analyze.EdgeTests {
			t.Errorf("inexact edge %s -%s-> %s", fs.Symbols[e.From].Name, e.Kind, fs.Symbols[e.To].Name)
		}
	}
	var pkgs []string
	for _, f := range fs.Files {
		pkgs = append(pkgs, f.Path+" "+f.PkgName+" "+f.Package)
	}
	if diff := cmp.Diff([]string{"src/lib.rs user_svc user_svc", "src/store.rs user_svc user_svc::store"}, pkgs); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
}

// TestRustAnalyzer runs the real rust-analyzer on the crate, where it is
// installed and works (rustup installs a proxy that fails when the
// component is missing).
func TestRustAnalyzer(t *testing.T) {
	t.Parallel()
	path, err := lookCommand("rust-analyzer")
	if err != nil {
		t.Skipf("rust-analyzer is not installed (%v); rustup component add rust-analyzer", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
	cancel()
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		t.Skipf("rust-analyzer does not run (%v: %s); rustup component add rust-analyzer", err, msg)
	}
	root := writeTree(t, rustCrate)
	ctx, cancel = context.WithTimeout(context.Background(), 80*time.Second)
	defer cancel()
	fs, err := Load(ctx, root, Options{Command: []string{path}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	symbols, edges := describeRust(fs)
	have := map[string]bool{}
	for _, s := range append(symbols, edges...) {
		have[s] = true
	}
	for _, want := range append(rustWant.symbols, rustWant.edges...) {
		if !have[want] {
			t.Errorf("missing %s", want)
		}
	}
	if t.Failed() {
		t.Logf("symbols:\n%s\nedges:\n%s", strings.Join(symbols, "\n"), strings.Join(edges, "\n"))
	}
}
