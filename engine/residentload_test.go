package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/internal/testfiles"
	"github.com/google/go-cmp/cmp"
)

// sessionText is what a query on s shows the user (as runQuery).
func sessionText(t *testing.T, s *Session, q string) string {
	t.Helper()
	s.FixedCommit = "0000000000000000000000000000000000000000"
	out, err := s.Query(context.Background(), Request{Query: q, Budget: 6000, MaxFiles: 20, Format: "markdown"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(rankingText(out))
	b.Write(out.Bundle)
	out.WriteExplain(&b)
	return b.String()
}

// TestResidentReopenFromMemory: a chain of resident sessions reloads
// after each edit from the records and hashes it keeps in memory (neither
// walking the tree nor touching the on-disk index), answers exactly as a
// fresh run on the edited tree does, and writes the index only when asked
// to Persist, after which a run from the command line finds the snapshot.
func TestResidentReopenFromMemory(t *testing.T) {
	root := writeTree(t, smallGo)
	const q = "fix Store.find_by_sku"
	dir := t.TempDir()
	st := openIndex(t, dir, nil)
	var loads []string
	opt := LoadOptions{Index: st, Resident: true, NoHistory: true,
		OnIndexed: func(l IndexedLoad) { loads = append(loads, l.Snapshot) }}
	s, err := Open(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sessionText(t, s, q), runQuery(t, root, nil, q).text; got != want {
		t.Fatalf("first load differs from a fresh run:\n%s", cmp.Diff(want, got))
	}
	s.Close()
	packs, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*", "*.pack"))
	if len(packs) > 0 {
		t.Errorf("a resident load wrote %v before Persist", packs)
	}
	if lex, _ := filepath.Glob(filepath.Join(dir, "*", "objects", "lexical", "*", "*")); len(lex) > 0 {
		t.Errorf("a resident load wrote %v before Persist", lex)
	}

	steps := []struct {
		name  string
		edit  func(t *testing.T)
		paths []string
	}{
		{"edit a body", func(t *testing.T) {
			testfiles.EditFile(t, root, "store/store.go", func(s string) string {
				return strings.Replace(s, "\tit, ok := s.items", "\t// Upper case is canonical.\n\tit, ok := s.items", 1)
			})
		}, []string{"store/store.go"}},
		{"rename a symbol", func(t *testing.T) {
			for _, f := range []string{"store/store.go", "store/store_test.go", "cart/cart.go", "cmd/shop/main.go"} {
				testfiles.EditFile(t, root, f, func(s string) string { return strings.ReplaceAll(s, "FindBySKU", "LookupSKU") })
			}
		}, []string{"store/store.go", "store/store_test.go", "cart/cart.go", "cmd/shop/main.go"}},
		{"add and delete files", func(t *testing.T) {
			os.Remove(filepath.Join(root, "store", "store_test.go"))
			os.WriteFile(filepath.Join(root, "store", "sku.go"),
				[]byte("package store\n\n// NormalizeSKU upper-cases a SKU.\nfunc NormalizeSKU(s string) string { return s }\n"), 0o644)
		}, []string{"store/store_test.go", "store/sku.go"}},
		{"move a directory in", func(t *testing.T) {
			// Only the directory's event: its files come without their own.
			outside := filepath.Join(t.TempDir(), "extra")
			os.MkdirAll(outside, 0o755)
			os.WriteFile(filepath.Join(outside, "extra.go"),
				[]byte("package extra\n\n// SKUPrefix is what every SKU starts with.\nconst SKUPrefix = \"SKU\"\n\n// HasPrefix reports whether a SKU is well formed.\nfunc HasPrefix(sku string) bool { return len(sku) > 3 && sku[:3] == SKUPrefix }\n"), 0o644)
			if err := os.Rename(outside, filepath.Join(root, "extra")); err != nil {
				t.Skipf("cannot move a directory into the tree: %v", err)
			}
		}, []string{"extra"}},
		{"remove a directory", func(t *testing.T) {
			os.RemoveAll(filepath.Join(root, "cmd"))
		}, []string{"cmd"}},
		{"change go.mod", func(t *testing.T) {
			testfiles.EditFile(t, root, "go.mod", func(s string) string {
				return strings.Replace(s, "module example.com/shop", "module example.com/renamed", 1)
			})
			testfiles.EditFile(t, root, "cart/cart.go", func(s string) string {
				return strings.Replace(s, "example.com/shop/store", "example.com/renamed/store", 1)
			})
		}, []string{"go.mod", "cart/cart.go"}},
	}
	for _, step := range steps {
		step.edit(t)
		loads = nil
		next, err := Reopen(context.Background(), s, opt, Changes{Paths: step.paths})
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if diff := cmp.Diff(loads, []string{snapshotMemory}); diff != "" {
			t.Errorf("%s: loads (-got +want):\n%s", step.name, diff)
		}
		got, want := sessionText(t, next, q), runQuery(t, root, nil, q).text
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: the resident reload differs from a fresh run (-fresh +resident):\n%s", step.name, diff)
		}
		next.Close()
		s = next
	}

	// Stored only when asked, and then as a full load would have.
	s.Persist(context.Background())
	if packs, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*", "*.pack")); len(packs) == 0 {
		t.Errorf("Persist wrote no record packs")
	}
	if lex, _ := filepath.Glob(filepath.Join(dir, "*", "objects", "lexical", "*", "*")); len(lex) != 1 {
		t.Errorf("Persist wrote %d lexical index snapshots, want 1: %v", len(lex), lex)
	}
	cli := runQuery(t, root, st, q)
	if cli.snapshot != snapshotHit {
		t.Errorf("after Persist, a run through the index: snapshot %q, want %q", cli.snapshot, snapshotHit)
	}
	if want := runQuery(t, root, nil, q).text; cli.text != want {
		t.Errorf("after Persist, the indexed run differs from a fresh one:\n%s", cmp.Diff(want, cli.text))
	}

	// A tree that changed since the session loaded is not stored under
	// the session's facts.
	testfiles.EditFile(t, root, "store/store.go", func(s string) string { return s + "\n// Changed after the load.\n" })
	s.Persist(context.Background())
	if got := runQuery(t, root, st, q); got.snapshot != snapshotMiss {
		t.Errorf("Persist after a further edit stored a snapshot: the next run's snapshot is %q, want %q", got.snapshot, snapshotMiss)
	}

	// Changes that say anything may have changed go through the index.
	loads = nil
	next, err := Reopen(context.Background(), s, opt, Changes{All: true})
	if err != nil {
		t.Fatal(err)
	}
	next.Close()
	if len(loads) != 1 || loads[0] == snapshotMemory {
		t.Errorf("a reload after Changes{All} loaded %q, want it through the index", loads)
	}
}

// TestResidentShowsItsGeneration: a resident session answers with the
// text its load read, whatever the disk holds when the query runs: a
// file saved again before a session is queried (or while older sessions
// still answer) changes none of their answers, which stay those of a
// fresh run on the tree each session was loaded from, and no session
// reads as stale. It holds for a reload after an edit that analyses the
// file (the loaders' text), one that finds its records (the text read to
// hash it), and a first load whose facts come from the index's snapshot
// (the files read and checked then). Only a file that changes between a
// load and that check marks the session stale, and the next reload
// after it answers as a fresh run does.
func TestResidentShowsItsGeneration(t *testing.T) {
	root := writeTree(t, smallGo)
	const q = "fix Store.find_by_sku"
	const rel = "store/store.go"
	p := filepath.Join(root, rel)
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	states := []string{string(orig),
		strings.Replace(string(orig), "\tit, ok := s.items", "\t// Variant one.\n\tit, ok := s.items", 1),
		strings.Replace(string(orig), "\tit, ok := s.items", "\t// Variant two:\n\t// upper case is canonical.\n\tit, ok := s.items", 1),
	}
	save := func(i int) {
		t.Helper()
		if err := os.WriteFile(p, []byte(states[i]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := make([]string, len(states))
	for i := range states {
		save(i)
		want[i] = runQuery(t, root, nil, q).text
		if i > 0 && want[i] == want[i-1] {
			t.Fatalf("states %d and %d answer alike", i-1, i)
		}
	}
	check := func(what string, s *Session, state int) {
		t.Helper()
		got := sessionText(t, s, q)
		if p := s.Stale(); p != "" {
			t.Errorf("%s: stale (%s)", what, p)
		}
		if got != want[state] {
			t.Errorf("%s: differs from a fresh run on state %d (-fresh +resident):\n%s", what, state, cmp.Diff(want[state], got))
		}
	}

	save(0)
	var loads []string
	opt := LoadOptions{Index: openIndex(t, t.TempDir(), nil), Resident: true, NoHistory: true,
		OnIndexed: func(l IndexedLoad) { loads = append(loads, l.Snapshot) }}
	s0, err := Open(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s0.Close()
	save(1) // saved, not applied yet
	check("the first load after a save", s0, 0)
	s1, err := Reopen(context.Background(), s0, opt, Changes{Paths: []string{rel}})
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	save(2) // saved again before the reload is queried
	check("a reload (analysed) after a further save", s1, 1)
	check("the older generation", s0, 0)
	s2, err := Reopen(context.Background(), s1, opt, Changes{Paths: []string{rel}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	save(1) // back to a content whose records the chain holds
	s3, err := Reopen(context.Background(), s2, opt, Changes{Paths: []string{rel}})
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	save(0)
	check("a reload (analysed)", s2, 2)
	check("a reload from the records", s3, 1)
	check("the first generation, three saves on", s0, 0)
	if diff := cmp.Diff(loads, []string{snapshotMiss, snapshotMemory, snapshotMemory, snapshotMemory}); diff != "" {
		t.Errorf("loads (-got +want):\n%s", diff)
	}

	// A first load from the index's snapshot reads and checks its files
	// as it pins them.
	s4, err := Reopen(context.Background(), s3, opt, Changes{Paths: []string{rel}})
	if err != nil {
		t.Fatal(err)
	}
	s4.Persist(context.Background())
	s4.Close()
	loads = nil
	warm, err := Open(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer warm.Close()
	save(2)
	check("a load from the snapshot", warm, 0)
	if diff := cmp.Diff(loads, []string{snapshotHit}); diff != "" {
		t.Errorf("loads (-got +want):\n%s", diff)
	}

	// A save between that load and the check: the session reads stale,
	// and the reload after it does not.
	save(0)
	racy := opt
	racy.OnIndexed = func(IndexedLoad) { save(1) }
	torn, err := Open(context.Background(), root, racy)
	if err != nil {
		t.Fatal(err)
	}
	defer torn.Close()
	// Priming reads every file, that one too, and marks nothing: no
	// answer depends on what it read.
	if n, err := torn.Prime(context.Background(), PrimeOptions{}); err != nil || n == 0 {
		t.Errorf("priming the torn session: %d files, %v", n, err)
	}
	if got := torn.Stale(); got != "" {
		t.Errorf("priming marked the session stale for %q", got)
	}
	sessionText(t, torn, q)
	if got := torn.Stale(); got != rel {
		t.Errorf("a file saved before it was checked: Stale() = %q, want %q", got, rel)
	}
	after, err := Reopen(context.Background(), torn, opt, Changes{Paths: []string{rel}})
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	save(0)
	check("the reload after a stale session", after, 1)
	back, err := Reopen(context.Background(), after, opt, Changes{Paths: []string{rel}})
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	save(2)
	check("back to the stale session's content", back, 0)
}

// TestResidentKeepsWalksForContentEdits: a resident reload after edits
// to the content of files it listed reuses the tree's walks (so a file
// created unannounced stays unseen), and any other change walks again.
func TestResidentKeepsWalksForContentEdits(t *testing.T) {
	root := writeTree(t, smallGo)
	opt := LoadOptions{Index: openIndex(t, t.TempDir(), nil), Resident: true, NoHistory: true}
	s, err := Open(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	has := func(s *Session, rel string) bool {
		for _, f := range s.Facts.Files {
			if f.Path == rel {
				return true
			}
		}
		return false
	}
	bodyEdit := func(n string) {
		testfiles.EditFile(t, root, "store/store.go", func(s string) string { return s + "\n// edit " + n + "\n" })
	}
	reopen := func(paths ...string) *Session {
		t.Helper()
		next, err := Reopen(context.Background(), s, opt, Changes{Paths: paths})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		s = next
		return next
	}
	bodyEdit("1")
	reopen("store/store.go") // walks the tree and keeps the walks
	const extra = "store/extra.go"
	if err := os.WriteFile(filepath.Join(root, extra), []byte("package store\n\n// Extra is new.\nfunc Extra() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bodyEdit("2")
	if has(reopen("store/store.go"), extra) {
		t.Errorf("a reload told only of a content edit walked the tree again: it found %s", extra)
	}
	if !has(reopen(extra), extra) {
		t.Errorf("a reload told of a new file did not list it")
	}
	os.Remove(filepath.Join(root, extra))
	bodyEdit("3")
	if has(reopen("store/store.go", extra), extra) {
		t.Errorf("a reload told of a removed file still lists it")
	}
	// A file that becomes a symbolic link is no longer listed.
	link := filepath.Join(root, "cart", "cart.go")
	target := filepath.Join(t.TempDir(), "cart.go")
	data, _ := os.ReadFile(link)
	os.WriteFile(target, data, 0o644)
	os.Remove(link)
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if has(reopen("cart/cart.go"), "cart/cart.go") {
		t.Errorf("a reload told of a file replaced by a symbolic link still lists it as a file")
	}
}
