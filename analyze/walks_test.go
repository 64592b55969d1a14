package analyze

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWalksKeepUntilForget: a walk kept under a key runs once until
// Forget, keys do not share results, a stopped walk is not kept, and the
// nil Walks walks every time.
func TestWalksKeepUntilForget(t *testing.T) {
	var w Walks
	runs := map[string]int{}
	walk := func(key string, keep bool) func() (int, bool) {
		return func() (int, bool) { runs[key]++; return runs[key], keep }
	}
	for range 3 {
		if got := Walked(&w, "a", walk("a", true)); got != 1 {
			t.Fatalf("kept walk a gave %d, want its first result 1", got)
		}
	}
	if got := Walked(&w, "b", walk("b", true)); got != 1 || runs["b"] != 1 {
		t.Errorf("walk b under its own key: got %d after %d runs, want 1 after 1", got, runs["b"])
	}
	Walked(&w, "stopped", walk("stopped", false))
	Walked(&w, "stopped", walk("stopped", false))
	if runs["stopped"] != 2 {
		t.Errorf("a walk that was stopped ran %d times in two calls, want 2 (not kept)", runs["stopped"])
	}
	w.Forget()
	if got := Walked(&w, "a", walk("a", true)); got != 2 {
		t.Errorf("after Forget, walk a gave %d, want a second run (2)", got)
	}
	var none *Walks
	none.Forget()
	Walked(none, "a", walk("a", true))
	Walked(none, "a", walk("a", true))
	if runs["a"] != 4 {
		t.Errorf("the nil Walks ran walk a %d times in all, want 4", runs["a"])
	}
}

// TestWalksDropAWalkOverlappingForget: a walk that began before a Forget
// is returned to its caller but not kept, since it may have seen the
// tree as it was.
func TestWalksDropAWalkOverlappingForget(t *testing.T) {
	var w Walks
	n := 0
	Walked(&w, "k", func() (int, bool) { n++; w.Forget(); return n, true })
	if got := Walked(&w, "k", func() (int, bool) { n++; return n, true }); got != 2 {
		t.Errorf("the walk after one that overlapped Forget gave %d, want a fresh run (2)", got)
	}
}

// TestWalksListFiles: the kept listing is the tree as it was when first
// listed, until Forget.
func TestWalksListFiles(t *testing.T) {
	root := t.TempDir()
	write := func(rel string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a.go")
	var w Walks
	ctx := context.Background()
	first, _, err := w.ListFiles(ctx, root, "go", WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	write("b/b.go")
	kept, _, _ := w.ListFiles(ctx, root, "go", WalkOptions{})
	if !slices.Equal(kept, []string{"a/a.go"}) || !slices.Equal(first, kept) {
		t.Errorf("kept listing %q, want the first one, [a/a.go]", kept)
	}
	w.Forget()
	again, _, _ := w.ListFiles(ctx, root, "go", WalkOptions{})
	if want := []string{"a/a.go", "b/b.go"}; !slices.Equal(again, want) {
		t.Errorf("after Forget: %q, want %q", again, want)
	}
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	var w2 Walks
	w2.ListFiles(stopped, root, "go", WalkOptions{})
	if got, _, _ := w2.ListFiles(ctx, root, "go", WalkOptions{}); len(got) != 2 {
		t.Errorf("a listing stopped by its context was kept: the next gave %q", got)
	}
}
