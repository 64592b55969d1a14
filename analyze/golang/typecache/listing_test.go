package typecache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// stock is a module whose store package has an internal and an external
// test, the external one importing cart, which imports store: go list
// reports cart once more as "cart [store.test]", compiled against store's
// test variant.
const stock = `
-- go.mod --
module example.com/stock

go 1.22
-- store/store.go --
package store

// Store holds counts by SKU.
type Store struct{ items map[string]int }

// New returns an empty store.
func New() *Store { return &Store{items: map[string]int{}} }
-- store/export_test.go --
package store

// Len is for tests.
func (s *Store) Len() int { return len(s.items) }
-- store/store_test.go --
package store_test

import (
	"example.com/stock/cart"
	"example.com/stock/store"
)

var _ = cart.Cart{St: store.New()}
-- cart/cart.go --
package cart

import "example.com/stock/store"

// Cart counts the items a customer picked.
type Cart struct{ St *store.Store }
`

// listStock writes the stock module into a new root and lists it as the
// Go loader does: the package graph only, tests included, offline.
func listStock(t *testing.T) (string, []*packages.Package) {
	t.Helper()
	root := t.TempDir()
	for _, f := range txtar.Parse([]byte(stock)).Files {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mode := packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedForTest
	env := append(os.Environ(), "GOTOOLCHAIN=local", "GOPACKAGESDRIVER=off", "GOPROXY=off", "GOFLAGS=")
	roots, err := packages.Load(&packages.Config{Mode: mode, Dir: root, Tests: true, Env: env}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	return root, roots
}

// listingsOf describes root's files to Listings as the loader would, with
// analysed as the Go files it analyses.
func listingsOf(root string, c Cache, analysed ...string) *Listings {
	set := map[string]bool{}
	for _, rel := range analysed {
		set[rel] = true
	}
	return &Listings{Cache: c, Root: root, Analysed: set,
		FileHash: func(rel, abs string) string {
			data, err := os.ReadFile(abs)
			if err != nil {
				return "unreadable"
			}
			return fmt.Sprintf("%x", data)
		},
		RelOf: func(abs string) (string, bool) {
			rel, err := filepath.Rel(root, abs)
			if err != nil || strings.HasPrefix(rel, "..") {
				return "", false
			}
			return filepath.ToSlash(rel), true
		}}
}

func TestGoHeaderDigest(t *testing.T) {
	base := "// Copyright\n\n//go:build linux\n\n// Package p does things.\npackage p\n\nimport (\n\t\"fmt\"\n)\n\nfunc F() { fmt.Println(1) }\n"
	same := map[string]string{
		"a body":                 strings.Replace(base, "Println(1)", "Println(2)", 1),
		"a declaration added":    base + "\nvar X = 1\n",
		"a comment at the end":   base + "// end\n",
		"a line inside the body": strings.Replace(base, "{ fmt", "{\n\tfmt", 1),
	}
	differs := map[string]string{
		"an import":             strings.Replace(base, "\"fmt\"", "\"fmt\"\n\t\"os\"", 1),
		"the build constraint":  strings.Replace(base, "linux", "darwin", 1),
		"the package clause":    strings.Replace(base, "package p", "package q", 1),
		"an embed directive":    base + "\n//go:embed x.txt\nvar s string\n",
		"a cgo preamble":        strings.Replace(base, "import (", "// #include <stdio.h>\nimport \"C\"\n\nimport (", 1),
		"an import renamed":     strings.Replace(base, "\t\"fmt\"", "\tf \"fmt\"", 1),
		"a header that is cut":  "package p\n\nimport (\n\t\"fmt\"\n",
		"a different first doc": strings.Replace(base, "// Copyright", "// Copyright 2026", 1),
	}
	want := goHeaderDigest([]byte(base))
	for name, src := range same {
		if got := goHeaderDigest([]byte(src)); got != want {
			t.Errorf("%s changed the header digest", name)
		}
	}
	for name, src := range differs {
		if got := goHeaderDigest([]byte(src)); got == want {
			t.Errorf("%s left the header digest as it was", name)
		}
	}
}

// TestListingRecordRoundTrip encodes a real listing and decodes it: the
// graph comes back with every field the loader reads.
func TestListingRecordRoundTrip(t *testing.T) {
	root, roots := listStock(t)
	c := listingsOf(root, nil, "cart/cart.go")
	probs := []analyze.Problem{{Kind: analyze.ProblemLoad, Path: "go.mod", Line: 3, Msg: "module x is not in the module cache"}}
	rec, err := decodeListing(c.encodeRecord(Listing{Roots: roots, Problems: probs}, nil))
	if err != nil {
		t.Fatal(err)
	}
	describe := func(roots []*packages.Package) string {
		var b strings.Builder
		all := listed(roots)
		sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
		for _, r := range roots {
			fmt.Fprintf(&b, "root %s\n", r.ID)
		}
		for _, p := range all {
			fmt.Fprintf(&b, "%s|%s|%s|%s|%s|%v|%v|%v|%v|", p.ID, p.Name, p.PkgPath, p.Dir, p.ForTest, p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles)
			if p.Module != nil {
				fmt.Fprintf(&b, "%+v|", *p.Module)
			}
			for _, e := range p.Errors {
				fmt.Fprintf(&b, "%+v|", e)
			}
			paths := make([]string, 0, len(p.Imports))
			for path := range p.Imports {
				paths = append(paths, path)
			}
			sort.Strings(paths)
			for _, path := range paths {
				fmt.Fprintf(&b, "%s=%s,", path, p.Imports[path].ID)
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	if diff := cmp.Diff(describe(roots), describe(rec.listing.Roots)); diff != "" {
		t.Errorf("decoded listing differs (-listed +decoded):\n%s", diff)
	}
	if diff := cmp.Diff(probs, rec.listing.Problems); diff != "" {
		t.Errorf("decoded problems differ:\n%s", diff)
	}
	if len(rec.inputs) < 4 {
		t.Errorf("the record holds the headers of %d files, want every Go file of the module", len(rec.inputs))
	}
}

// FuzzDecodeListing: a listing record read back from disk, damaged or
// not, decodes or fails with an error; it never panics and never yields
// an import cycle.
func FuzzDecodeListing(f *testing.F) {
	// A small graph by hand: go list's own answers hold the standard
	// library, too large an input for the fuzzer to mutate quickly.
	mod := &packages.Module{Path: "example.com/m", Main: true, Dir: "/r", GoMod: "/r/go.mod", GoVersion: "1.22"}
	base := &packages.Package{ID: "example.com/m/a", Name: "a", PkgPath: "example.com/m/a", Dir: "/r/a",
		GoFiles: []string{"/r/a/a.go", "/elsewhere/gen.go"}, CompiledGoFiles: []string{"/r/a/a.go"},
		IgnoredFiles: []string{"/r/a/a_windows.go"}, Module: mod, Imports: map[string]*packages.Package{}}
	variant := &packages.Package{ID: "example.com/m/a [example.com/m/a.test]", Name: "a", PkgPath: "example.com/m/a",
		Dir: "/r/a", ForTest: "example.com/m/a", GoFiles: []string{"/r/a/a.go", "/r/a/a_test.go"}, Module: mod,
		Imports: map[string]*packages.Package{}}
	top := &packages.Package{ID: "example.com/m/b", Name: "b", PkgPath: "example.com/m/b", Dir: "/r/b",
		GoFiles: []string{"/r/b/b.go"}, Module: mod, Imports: map[string]*packages.Package{"example.com/m/a": base},
		Errors: []packages.Error{{Pos: "/r/b/b.go:3:8", Msg: "could not import x", Kind: packages.ListError}}}
	w := wire.NewWriter(1024)
	w.Uint(listCacheVersion)
	w.Uint(1)
	w.String("a/a.go")
	w.String("content")
	w.String("header")
	encodeListing(w, []*packages.Package{top, variant})
	w.Uint(0)
	f.Add(w.Bytes())
	f.Add(w.Bytes()[:w.Len()/2])
	f.Add([]byte{listCacheVersion, 0, 1, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 'p', 0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := decodeListing(data)
		if err != nil {
			return
		}
		if err := acyclic(listed(rec.listing.Roots)); err != nil {
			t.Fatalf("decoded a cycle: %v", err)
		}
	})
}

func listed(roots []*packages.Package) []*packages.Package {
	var all []*packages.Package
	seen := map[*packages.Package]bool{}
	var walk func(p *packages.Package)
	walk = func(p *packages.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		all = append(all, p)
		for _, d := range p.Imports {
			walk(d)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return all
}

// mapCache is a Cache in a map.
type mapCache map[index.Key][]byte

func (c mapCache) Get(k index.Key) ([]byte, bool) { d, ok := c[k]; return d, ok }
func (c mapCache) Put(k index.Key, d []byte)      { c[k] = d }

// TestListingsReuse runs go list through Listings while editing the
// module: its answer is reused while no Go file's header changed, and
// asked again when one did; a failed go list is not kept. It runs alike
// with and without a ListingMemo; with one, a record read again is not
// decoded again.
func TestListingsReuse(t *testing.T) {
	t.Run("decoded every time", func(t *testing.T) { testListingsReuse(t, nil) })
	t.Run("with a memo", func(t *testing.T) { testListingsReuse(t, &ListingMemo{}) })
}

func testListingsReuse(t *testing.T, memo *ListingMemo) {
	root, roots := listStock(t)
	c := mapCache{}
	analysed := []string{"cart/cart.go", "store/export_test.go", "store/store.go", "store/store_test.go"}
	key := ListKey("salt", "fingerprint", root, false, []string{"./..."}, nil, nil)
	calls := 0
	list := func() (Listing, error) {
		calls++
		return Listing{Roots: roots}, nil
	}
	var last *packages.Package // the first root of the last reused answer
	get := func(step string, wantReused bool) {
		t.Helper()
		// A new Listings per load, as the loader makes one per load.
		ls := listingsOf(root, c, analysed...)
		ls.Memo = memo
		got, reused, err := ls.Get(context.Background(), key, list)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if reused != wantReused {
			t.Fatalf("%s: reused=%v, want %v", step, reused, wantReused)
		}
		if len(got.Roots) != len(roots) {
			t.Fatalf("%s: %d roots, want %d", step, len(got.Roots), len(roots))
		}
		if reused {
			if memo != nil && step == "nothing changed, again" && got.Roots[0] != last {
				t.Errorf("%s: the record was decoded again, though the memo holds it", step)
			}
			last = got.Roots[0]
		}
	}
	edit := func(rel, old, new string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		data, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(data), old) {
			t.Fatalf("%s does not hold %q (%v)", rel, old, err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	get("cold", false)
	get("nothing changed", true)
	get("nothing changed, again", true)
	edit("cart/cart.go", "type Cart struct{ St *store.Store }", "type Cart struct {\n\tSt *store.Store\n\tN  int\n}")
	get("a declaration", true)
	edit("cart/cart.go", `import "example.com/stock/store"`, "import (\n\t\"strings\"\n\n\t\"example.com/stock/store\"\n)\n\nvar _ = strings.ToUpper")
	get("an import added", false)
	get("after the import", true)
	edit("store/store.go", "package store", "//go:build ignore\n\npackage store")
	get("a build constraint", false)
	if calls != 3 {
		t.Errorf("go list ran %d times, want 3", calls)
	}
	// A new file under the root, not yet analysed: the set of files differs.
	analysed = append(analysed, "cart/more.go")
	if err := os.WriteFile(filepath.Join(root, "cart", "more.go"), []byte("package cart\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	get("a new file", false)
	// A failed go list is not kept: the next load lists again.
	failing := func() (Listing, error) { calls++; return Listing{}, errors.New("go list failed") }
	key2 := ListKey("salt", "fingerprint", root, true, []string{"./..."}, nil, nil)
	for i := 0; i < 2; i++ {
		if _, _, err := listingsOf(root, c, analysed...).Get(context.Background(), key2, failing); err == nil {
			t.Fatal("the failure was lost")
		}
	}
	if _, ok := c[key2]; ok {
		t.Error("a failed go list was recorded")
	}
}
