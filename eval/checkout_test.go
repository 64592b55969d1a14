package eval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckoutHasNoFutureHistory(t *testing.T) {
	fx := buildFixtures(t)
	inst := fx.instances()[0] // base is the first commit, the fix the second
	co := &Checkouts{ReposDir: fx.reposDir, WorkDir: t.TempDir()}
	res, err := co.Prepare(context.Background(), inst)
	if err != nil {
		t.Fatal(err)
	}
	dir := res.Dir
	if got := runGit(t, dir, "rev-parse", "HEAD"); got != inst.Base {
		t.Fatalf("HEAD = %s, want base %s", got, inst.Base)
	}
	// Everything reachable from any ref, HEAD or reflog is the base alone.
	if got := runGit(t, dir, "rev-list", "--all", "--reflog"); got != inst.Base {
		t.Errorf("reachable commits = %q, want only the base", got)
	}
	if _, err := gitOut(dir, "merge-base", "--is-ancestor", inst.Commit, "HEAD"); err == nil {
		t.Errorf("the fix commit is an ancestor of HEAD")
	}
	for _, cmd := range [][]string{{"for-each-ref"}, {"reflog", "--all"}, {"tag"}} {
		if got := runGit(t, dir, cmd...); got != "" {
			t.Errorf("git %s = %q, want nothing", strings.Join(cmd, " "), got)
		}
	}
	// The fix's content is not in the tree.
	src, err := os.ReadFile(filepath.Join(dir, "cart", "cart.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(src), "math.Round") {
		t.Errorf("cart/cart.go holds the fix")
	}
}

func TestCheckoutReuseAndRebuild(t *testing.T) {
	fx := buildFixtures(t)
	inst := fx.instances()[1]
	co := &Checkouts{ReposDir: fx.reposDir, WorkDir: t.TempDir()}
	ctx := context.Background()
	prepare := func() CheckoutResult {
		t.Helper()
		res, err := co.Prepare(ctx, inst)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := prepare()
	if first.Reused {
		t.Fatalf("first checkout reported as reused")
	}
	if want := filepath.Join(co.WorkDir, "acme+shop", inst.Base); first.Dir != want {
		t.Errorf("checkout dir = %s, want %s", first.Dir, want)
	}
	if again := prepare(); !again.Reused || again.Dir != first.Dir {
		t.Errorf("second Prepare = %+v, want the cached checkout reused", again)
	}

	// Each way of spoiling the checkout makes the next Prepare rebuild it.
	spoil := []struct {
		name string
		do   func(dir string)
	}{
		{"untracked file", func(dir string) {
			os.WriteFile(filepath.Join(dir, "notes.go"), []byte("package x"), 0o644)
		}},
		{"edited file", func(dir string) {
			os.WriteFile(filepath.Join(dir, "cart", "cart.go"), []byte("package cart"), 0o644)
		}},
		{"moved HEAD", func(dir string) { runGit(t, dir, "checkout", "-q", "--detach", fx.commits["acme/shop"][0]) }},
		{"ref added", func(dir string) { runGit(t, dir, "update-ref", "refs/heads/leak", "HEAD") }},
		{"git dir removed", func(dir string) { os.RemoveAll(filepath.Join(dir, ".git")) }},
	}
	for _, sp := range spoil {
		t.Run(sp.name, func(t *testing.T) {
			sp.do(first.Dir)
			res := prepare()
			if res.Reused {
				t.Fatalf("spoiled checkout was reused")
			}
			if got := runGit(t, res.Dir, "status", "--porcelain", "--untracked-files=all"); got != "" {
				t.Errorf("rebuilt checkout is not clean: %q", got)
			}
			if got := runGit(t, res.Dir, "rev-parse", "HEAD"); got != inst.Base {
				t.Errorf("rebuilt HEAD = %s, want %s", got, inst.Base)
			}
			if again := prepare(); !again.Reused {
				t.Errorf("rebuilt checkout is not reused")
			}
		})
	}
	// No temporary directories are left behind.
	entries, _ := os.ReadDir(filepath.Join(co.WorkDir, "acme+shop"))
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("work dir holds %v, want the one checkout", names)
	}
}

func TestCheckoutMissingBlob(t *testing.T) {
	fx := buildFixtures(t)
	inst := fx.instances()[0]
	mirror := filepath.Join(fx.reposDir, "acme+shop", "repo")
	// Mirrors may lack their largest blobs; remove one (a loose object,
	// since local clones keep objects loose).
	blob := runGit(t, mirror, "rev-parse", inst.Base+":testdata/prices.json")
	if err := os.Remove(filepath.Join(mirror, "objects", blob[:2], blob[2:])); err != nil {
		t.Fatalf("removing the blob: %v", err)
	}
	co := &Checkouts{ReposDir: fx.reposDir, WorkDir: t.TempDir()}
	for _, wantReused := range []bool{false, true} {
		res, err := co.Prepare(context.Background(), inst)
		if err != nil {
			t.Fatal(err)
		}
		want := CheckoutResult{Dir: res.Dir, Reused: wantReused, Missing: []string{"testdata/prices.json"}}
		if diff := cmp.Diff(want, res); diff != "" {
			t.Errorf("Prepare (-want +got):\n%s", diff)
		}
	}
}

func TestCheckoutErrors(t *testing.T) {
	fx := buildFixtures(t)
	insts := fx.instances()
	co := &Checkouts{ReposDir: fx.reposDir, WorkDir: t.TempDir()}
	if _, err := co.Prepare(context.Background(), insts[3]); !errors.Is(err, ErrRepoMissing) {
		t.Errorf("missing repository: err = %v, want ErrRepoMissing", err)
	}
	bad := insts[0]
	bad.Base = strings.Repeat("3", 40)
	_, err := co.Prepare(context.Background(), bad)
	if err == nil || !strings.Contains(err.Error(), "checking out acme/shop at 333333333333") {
		t.Errorf("unknown base: err = %v, want a checkout error naming it", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(co.WorkDir, "acme+shop")); len(entries) != 0 {
		t.Errorf("a failed checkout left %d entries behind", len(entries))
	}
	if _, err := (&Checkouts{}).Prepare(context.Background(), insts[0]); err == nil {
		t.Errorf("Prepare without directories succeeded")
	}
}

// TestRollingCheckout moves one checkout per repository from base to base
// (forwards and back) and checks each time that only the base and its
// ancestors are reachable and that nothing of another base is left.
func TestRollingCheckout(t *testing.T) {
	fx := buildFixtures(t)
	insts := fx.instances()
	co := &Checkouts{ReposDir: fx.reposDir, WorkDir: t.TempDir(), Rolling: true}
	ctx := context.Background()
	var dir string
	for i, inst := range []Instance{insts[0], insts[1], insts[0]} {
		res, err := co.Prepare(ctx, inst)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			dir = res.Dir
			if res.Reused {
				t.Errorf("the first checkout says it was reused")
			}
		} else if res.Dir != dir || !res.Reused {
			t.Errorf("checkout %d: %+v, want the rolling directory %s reused", i, res, dir)
		}
		if got := runGit(t, dir, "rev-parse", "HEAD"); got != inst.Base {
			t.Fatalf("checkout %d: HEAD = %s, want %s", i, got, inst.Base)
		}
		want := runGit(t, dir, "rev-list", "HEAD")
		if got := runGit(t, dir, "rev-list", "--all", "--reflog", "HEAD"); got != want {
			t.Errorf("checkout %d: reachable commits %q, want the base's history %q", i, got, want)
		}
		if got := runGit(t, dir, "status", "--porcelain", "--untracked-files=all"); got != "" {
			t.Errorf("checkout %d: tree not clean: %q", i, got)
		}
		// A stray file left by a ranker is removed by the next move.
		if err := os.WriteFile(filepath.Join(dir, "stray.txt"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
