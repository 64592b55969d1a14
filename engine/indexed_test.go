package engine

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// outcome is everything a query shows the user, and how the facts were
// loaded.
type outcome struct {
	text     string
	snapshot string
	notices  []string
}

// runQuery opens root (through st when not nil) and answers q.
func runQuery(t *testing.T, root string, st *index.Store, q string) outcome {
	t.Helper()
	var o outcome
	var mu sync.Mutex
	opt := LoadOptions{}
	if st != nil {
		opt.Index = st
		opt.OnIndexed = func(l IndexedLoad) { o.snapshot = l.Snapshot }
		opt.Notice = func(m string) { mu.Lock(); o.notices = append(o.notices, m); mu.Unlock() }
	}
	s, err := Open(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() // the index is written in the background of the query
	s.FixedCommit = "0000000000000000000000000000000000000000"
	out, err := s.Query(context.Background(), Request{Query: q, Budget: 6000, MaxFiles: 20, Format: "markdown"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(rankingText(out))
	b.Write(out.Bundle)
	out.WriteExplain(&b)
	o.text = b.String()
	return o
}

func openIndex(t *testing.T, dir string, notices *[]string) *index.Store {
	t.Helper()
	st, err := index.Open(index.Options{Dir: dir, Notice: func(m string) {
		if notices != nil {
			*notices = append(*notices, m)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// commitAll makes root a git repository whose one commit, msg, holds
// every file.
func commitAll(t *testing.T, root, msg string) {
	t.Helper()
	git(t, root, "init", "-q")
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", msg)
}

func git(t *testing.T, root string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
	// Fixed names and dates give fixed commit hashes: a review names the
	// commit, and its frame's cost must not change from run to run.
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

type step struct {
	name     string
	edit     func(t *testing.T, root string)
	snapshot string // the expected snapshot outcome of the indexed run
}

// checkSteps applies each step to root and compares an indexed run with a
// run without the index, byte for byte.
func checkSteps(t *testing.T, root, q string, steps []step) {
	st := openIndex(t, t.TempDir(), nil)
	for _, s := range steps {
		if s.edit != nil {
			s.edit(t, root)
		}
		got := runQuery(t, root, st, q)
		want := runQuery(t, root, nil, q)
		if diff := cmp.Diff(want.text, got.text); diff != "" {
			t.Fatalf("%s: indexed run differs from a fresh one (-fresh +indexed):\n%s", s.name, diff)
		}
		if got.snapshot != s.snapshot {
			t.Errorf("%s: snapshot %q, want %q", s.name, got.snapshot, s.snapshot)
		}
		if len(got.notices) > 0 {
			t.Errorf("%s: unexpected notices %q", s.name, got.notices)
		}
	}
}

// smallGo is a Go module that imports nothing outside itself, so that the
// many loads of the invalidation tests stay fast (the standard library
// would be type-checked from source each time).
var smallGo = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"store/store.go": `package store

// Item is something the shop sells.
type Item struct {
	SKU   string
	Price int
}

// Store holds items by SKU.
type Store struct{ items map[string]Item }

// New returns an empty store.
func New() *Store { return &Store{items: map[string]Item{}} }

// FindBySKU returns the item with the given SKU, ignoring case.
func (s *Store) FindBySKU(sku string) (Item, bool) {
	it, ok := s.items[upper(sku)]
	return it, ok
}

// Add stores an item.
func (s *Store) Add(it Item) { s.items[upper(it.SKU)] = it }

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
`,
	"store/store_test.go": `package store

// checkFindBySKU is a test helper; tests would import "testing".
func checkFindBySKU() bool {
	s := New()
	s.Add(Item{SKU: "a1", Price: 3})
	_, ok := s.FindBySKU("A1")
	return ok
}
`,
	"cart/cart.go": `package cart

import "example.com/shop/store"

// Cart totals the prices of the SKUs a customer picked.
type Cart struct {
	st   *store.Store
	skus []string
}

// Total sums the prices of the cart's items.
func (c *Cart) Total() int {
	sum := 0
	for _, sku := range c.skus {
		if it, ok := c.st.FindBySKU(sku); ok {
			sum += it.Price
		}
	}
	return sum
}
`,
	"cmd/shop/main.go": `package main

import "example.com/shop/store"

func main() {
	s := store.New()
	s.Add(store.Item{SKU: "x", Price: 1})
	println(s.FindBySKU("x"))
}
`,
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
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

func TestIndexInvalidationGo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := writeTree(t, smallGo)
	commitAll(t, root, "base")
	// Edits follow each other within a second: the file table's racy
	// window must still see them.
	checkSteps(t, root, "fix Store.find_by_sku", []step{
		{"cold", nil, snapshotMiss},
		{"warm", nil, snapshotHit},
		{"edit a body", func(t *testing.T, root string) {
			testfiles.EditFile(t, root, "store/store.go", func(s string) string {
				return strings.Replace(s, "\tit, ok := s.items", "\t// Upper case is canonical.\n\tit, ok := s.items", 1)
			})
		}, snapshotMiss},
		{"rename a symbol", func(t *testing.T, root string) {
			for _, f := range []string{"store/store.go", "store/store_test.go", "cart/cart.go", "cmd/shop/main.go"} {
				testfiles.EditFile(t, root, f, func(s string) string { return strings.ReplaceAll(s, "FindBySKU", "LookupSKU") })
			}
		}, snapshotMiss},
		{"commit and edit again", func(t *testing.T, root string) {
			git(t, root, "commit", "-qam", "rename")
			testfiles.EditFile(t, root, "cart/cart.go", func(s string) string { return s + "\n// Trailing note.\n" })
		}, snapshotMiss},
		{"switch to the base commit", func(t *testing.T, root string) {
			git(t, root, "checkout", "-q", "-f", "HEAD~1")
		}, snapshotHit}, // the state of the cold run
		{"back to the branch", func(t *testing.T, root string) {
			git(t, root, "checkout", "-q", "-f", "-")
		}, snapshotHit}, // the state after the rename (the edit was discarded)
		{"change go.mod", func(t *testing.T, root string) {
			testfiles.EditFile(t, root, "go.mod", func(s string) string {
				return strings.Replace(s, "module example.com/shop", "module example.com/renamed", 1)
			})
		}, snapshotMiss},
		{"add and delete files", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "store", "store_test.go"))
			os.WriteFile(filepath.Join(root, "store", "sku.go"),
				[]byte("package store\n\n// NormalizeSKU upper-cases a SKU.\nfunc NormalizeSKU(s string) string { return s }\n"), 0o644)
		}, snapshotMiss},
	})
}

func TestIndexInvalidationRust(t *testing.T) {
	root := copyTree(t, filepath.Join(repoRoot(t), "testdata", "rustsvc"))
	checkSteps(t, root, "fix UserService::find_by_email", []step{
		{"cold", nil, snapshotMiss},
		{"warm", nil, snapshotHit},
		{"edit a body", func(t *testing.T, root string) {
			testfiles.EditFile(t, root, "src/service.rs", func(s string) string {
				return strings.Replace(s, "    pub fn find_by_email(", "    /// Finds a user, ignoring case.\n    pub fn find_by_email(", 1)
			})
		}, snapshotMiss},
		{"rename a symbol", func(t *testing.T, root string) {
			for _, f := range []string{"src/service.rs", "src/main.rs"} {
				testfiles.EditFile(t, root, f, func(s string) string { return strings.ReplaceAll(s, "find_by_email", "lookup_by_email") })
			}
		}, snapshotMiss},
		{"change Cargo.toml", func(t *testing.T, root string) {
			testfiles.EditFile(t, root, "Cargo.toml", func(s string) string { return s + "\n[[bin]]\nname = \"extra\"\npath = \"src/main.rs\"\n" })
		}, snapshotMiss},
	})
}

// TestIndexCorruptAndKilled damages the index the ways a crash or a
// disk can: a half-written temporary file and a stale lock of a killed
// run, and a truncated snapshot. The run stays correct and says what it
// rebuilt.
func TestIndexCorruptAndKilled(t *testing.T) {
	root := writeTree(t, smallGo)
	q := "the cart total is wrong"
	want := runQuery(t, root, nil, q)
	dir := t.TempDir()
	st := openIndex(t, dir, nil)
	runQuery(t, root, st, q)

	// A killed writer and a killed trim.
	old := time.Now().Add(-time.Hour)
	half := filepath.Join(st.Dir(), "tmp", "facts.half")
	lock := filepath.Join(st.Dir(), "trim.lock")
	for _, p := range []string{half, lock} {
		if err := os.WriteFile(p, []byte("cxi\x01partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	// A damaged snapshot.
	var snaps []string
	filepath.WalkDir(filepath.Join(st.Dir(), "objects", "facts"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			snaps = append(snaps, p)
		}
		return nil
	})
	if len(snaps) != 1 {
		t.Fatalf("%d snapshots, want 1", len(snaps))
	}
	data, _ := os.ReadFile(snaps[0])
	os.WriteFile(snaps[0], data[:len(data)/3], 0o644)

	var notices []string
	st2 := openIndex(t, dir, &notices)
	got := runQuery(t, root, st2, q)
	if diff := cmp.Diff(want.text, got.text); diff != "" {
		t.Fatalf("after damage (-fresh +indexed):\n%s", diff)
	}
	if got.snapshot != snapshotMiss {
		t.Errorf("snapshot %q, want a rebuild", got.snapshot)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "corrupt") {
		t.Errorf("notices = %q, want one about the corrupt snapshot", notices)
	}
	if _, err := os.Stat(half); !os.IsNotExist(err) {
		t.Errorf("the half-written file was kept")
	}
	if _, err := st2.Trim(); err != nil {
		t.Errorf("trim after a killed trim: %v", err)
	}
	again := runQuery(t, root, openIndex(t, dir, nil), q)
	if again.snapshot != snapshotHit || again.text != want.text {
		t.Errorf("the rebuilt snapshot: %q, same text %v", again.snapshot, again.text == want.text)
	}
}

// TestIndexTwoProcesses runs two processes on one cold index at once.
func TestIndexTwoProcesses(t *testing.T) {
	if os.Getenv("CTXEXPAND_PIPELINE_CHILD") != "" {
		return
	}
	root := writeTree(t, smallGo)
	q := "fix Store.find_by_sku"
	want := runQuery(t, root, nil, q)
	dir, outDir := t.TempDir(), t.TempDir()
	var cmds []*exec.Cmd
	for i := 0; i < 2; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestIndexChild$")
		cmd.Env = append(os.Environ(), "CTXEXPAND_PIPELINE_CHILD=1", "CHILD_ROOT="+root, "CHILD_INDEX="+dir,
			"CHILD_QUERY="+q, "CHILD_OUT="+filepath.Join(outDir, string(rune('a'+i))))
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		t.Cleanup(func() {
			if t.Failed() {
				t.Log(log.String())
			}
		})
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child: %v", err)
		}
	}
	for i := 0; i < 2; i++ {
		got, err := os.ReadFile(filepath.Join(outDir, string(rune('a'+i))))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.text, string(got)); diff != "" {
			t.Errorf("process %d (-fresh +indexed):\n%s", i, diff)
		}
	}
	// And a third run finds what they stored.
	if o := runQuery(t, root, openIndex(t, dir, nil), q); o.snapshot != snapshotHit || o.text != want.text {
		t.Errorf("after the two processes: snapshot %q, same text %v", o.snapshot, o.text == want.text)
	}
}

// TestIndexChild is one of TestIndexTwoProcesses's processes.
func TestIndexChild(t *testing.T) {
	if os.Getenv("CTXEXPAND_PIPELINE_CHILD") == "" {
		t.Skip("run by TestIndexTwoProcesses")
	}
	var notices []string
	o := runQuery(t, os.Getenv("CHILD_ROOT"), openIndex(t, os.Getenv("CHILD_INDEX"), &notices), os.Getenv("CHILD_QUERY"))
	if len(notices) > 0 {
		t.Fatalf("notices: %q", notices)
	}
	if err := os.WriteFile(os.Getenv("CHILD_OUT"), []byte(o.text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// chainGo is a chain of packages (top → mid → base) where top uses a
// field of a base type through mid without importing base: top's facts
// depend on base's declarations though it does not import it.
var chainGo = map[string]string{
	"go.mod": "module example.com/chain\n\ngo 1.22\n",
	"base/base.go": `package base

// Item is an entry of the price list.
type Item struct {
	SKU   string
	Price int
}

// Lookup finds the item of a SKU.
func Lookup(sku string) Item {
	return Item{SKU: sku}
}
`,
	"mid/mid.go": `package mid

import "example.com/chain/base"

// Default is the item shown when none is chosen.
var Default = base.Lookup("default")

// First returns the first item of a list.
func First(skus []string) base.Item {
	return base.Lookup(skus[0])
}
`,
	"top/top.go": `package top

import "example.com/chain/mid"

// Total adds the prices of the first item and the default one.
func Total(skus []string) int {
	return mid.First(skus).Price + mid.Default.Price
}
`,
}

// TestIndexInvalidationGoDependencies edits packages others depend on:
// packages whose dependencies' declarations are unchanged are reused, a
// package that must be checked again imports its dependencies from the
// index, and every run equals one without the index.
func TestIndexInvalidationGoDependencies(t *testing.T) {
	root := writeTree(t, chainGo)
	edit := func(rel, old, new string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) {
			testfiles.EditFile(t, root, rel, func(s string) string { return strings.Replace(s, old, new, 1) })
		}
	}
	checkSteps(t, root, "fix the Price Total of top", []step{
		{"cold", nil, snapshotMiss},
		{"warm", nil, snapshotHit},
		{"comment appended to the bottom", edit("base/base.go", "return Item{SKU: sku}\n}\n", "return Item{SKU: sku}\n}\n\n// Trailing note.\n"), snapshotMiss},
		{"body of the middle changed in place", edit("mid/mid.go", "base.Lookup(skus[0])", "base.Lookup(skus[len(skus)-1])"), snapshotMiss},
		// Price moves a line down: top's reference to it must follow.
		{"field of the bottom moved", edit("base/base.go", "\tPrice int", "\t// Price is in cents.\n\tPrice int"), snapshotMiss},
		{"exported symbol renamed", func(t *testing.T, root string) {
			for _, f := range []string{"base/base.go", "mid/mid.go"} {
				testfiles.EditFile(t, root, f, func(s string) string { return strings.ReplaceAll(s, "Lookup", "Find") })
			}
		}, snapshotMiss},
		{"field of the bottom renamed, top left broken", edit("base/base.go", "\tPrice int", "\tCost int"), snapshotMiss},
		{"top repaired", func(t *testing.T, root string) {
			testfiles.EditFile(t, root, "top/top.go", func(s string) string { return strings.ReplaceAll(s, ".Price", ".Cost") })
		}, snapshotMiss},
	})
}

// TestIndexKeepsFewSnapshots: every edit stores new whole-repository
// snapshots (facts, lexical index); a root keeps the few most recent and
// removes the rest, and going back to a state whose snapshot was removed
// recomputes it, equal to a run without the index.
func TestIndexKeepsFewSnapshots(t *testing.T) {
	root := writeTree(t, smallGo)
	dir := t.TempDir()
	st, err := index.Open(index.Options{Dir: dir, MaxSnapshots: 2})
	if err != nil {
		t.Fatal(err)
	}
	const q = "fix Store.find_by_sku"
	count := func(kind string) int {
		n := 0
		filepath.WalkDir(filepath.Join(st.Dir(), "objects", kind), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	original, err := os.ReadFile(filepath.Join(root, "cart", "cart.go"))
	if err != nil {
		t.Fatal(err)
	}
	runQuery(t, root, st, q) // the original state: evicted below
	for i := range 4 {
		testfiles.EditFile(t, root, "cart/cart.go", func(s string) string { return s + fmt.Sprintf("\n// Note %d.\n", i) })
		if got := runQuery(t, root, st, q); got.snapshot != snapshotMiss {
			t.Fatalf("edit %d: snapshot %q, want a miss", i, got.snapshot)
		}
	}
	for _, kind := range []string{"facts", "lexical"} {
		if n := count(kind); n != 2 {
			t.Errorf("%d %s snapshots after five states, want 2", n, kind)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "cart", "cart.go"), original, 0o644); err != nil {
		t.Fatal(err)
	}
	got, want := runQuery(t, root, st, q), runQuery(t, root, nil, q)
	if got.snapshot != snapshotMiss {
		t.Errorf("the original state's snapshot was kept (%q)", got.snapshot)
	}
	if diff := cmp.Diff(want.text, got.text); diff != "" {
		t.Errorf("after eviction, the indexed run differs from a fresh one (-fresh +indexed):\n%s", diff)
	}
}
