package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// reviewInstances are review instances over the shop fixture: the fix of
// cart/cart.go (commit 2) asking for its test, and the change of
// payment/refund.go (commit 3) asking for the file that changed with it.
func (fx fixtures) reviewInstances() []Instance {
	shop := fx.commits["acme/shop"]
	return []Instance{
		{
			ID: "acme/shop@" + shop[1][:10] + "#tests", Repo: "acme/shop", Lang: "go", Kind: KindDiff,
			Commit: shop[1], Base: shop[0], DiffFiles: []string{"cart/cart.go"},
			GoldFiles: []string{"cart/cart_test.go"},
		},
		{
			ID: "acme/shop@" + shop[2][:10] + "#cochange", Repo: "acme/shop", Lang: "go", Kind: KindDiff,
			Commit: shop[2], Base: shop[1], DiffFiles: []string{"payment/refund.go"},
			GoldFiles: []string{"payment/charge.go"},
		},
	}
}

// TestReviewCheckout: a review's tree is its base with the change to its
// diff files, and nothing else, left uncommitted; the next instance of a
// rolling checkout gets a clean tree again.
func TestReviewCheckout(t *testing.T) {
	fx := buildFixtures(t)
	mirror := filepath.Join(fx.reposDir, "acme+shop", "repo")
	for _, rolling := range []bool{false, true} {
		co := &Checkouts{ReposDir: fx.reposDir, WorkDir: t.TempDir(), Rolling: rolling}
		for _, inst := range fx.reviewInstances() {
			res, err := co.Prepare(context.Background(), inst)
			if err != nil {
				t.Fatalf("rolling=%v %s: %v", rolling, inst.ID, err)
			}
			if got := runGit(t, res.Dir, "rev-parse", "HEAD"); got != inst.Base {
				t.Errorf("rolling=%v %s: HEAD = %s, want the base %s", rolling, inst.ID, got, inst.Base)
			}
			if got := runGit(t, res.Dir, "diff", "--name-only", "HEAD"); got != strings.Join(inst.DiffFiles, "\n") {
				t.Errorf("rolling=%v %s: changed files = %q, want %q", rolling, inst.ID, got, inst.DiffFiles)
			}
			for _, p := range inst.DiffFiles {
				got, err := os.ReadFile(filepath.Join(res.Dir, p))
				if err != nil {
					t.Fatal(err)
				}
				if want := runGit(t, mirror, "show", inst.Commit+":"+p); strings.TrimSpace(string(got)) != want {
					t.Errorf("rolling=%v %s: %s is not the commit's version", rolling, inst.ID, p)
				}
			}
			if got := runGit(t, res.Dir, "diff", "--cached", "--name-only"); got != "" {
				t.Errorf("rolling=%v %s: the change is staged (%q); a review's change is in the work tree", rolling, inst.ID, got)
			}
		}
		// A fix instance after the reviews sees a clean base.
		fix := fx.instances()[0]
		res, err := co.Prepare(context.Background(), fix)
		if err != nil {
			t.Fatal(err)
		}
		if got := runGit(t, res.Dir, "status", "--porcelain", "--untracked-files=all"); got != "" {
			t.Errorf("rolling=%v: the checkout after a review is not clean: %q", rolling, got)
		}
	}
}

// TestReviewScoring: a review scores test files, never the files under
// review, and the name-matching baseline finds the test named after the
// changed file and nothing for a change without one.
func TestReviewScoring(t *testing.T) {
	fx := buildFixtures(t)
	insts := fx.reviewInstances()
	files := func(ps ...string) []RankedFile {
		var out []RankedFile
		for _, p := range ps {
			out = append(out, RankedFile{Path: p})
		}
		return out
	}
	got, _ := scoredList(files("cart/cart.go", "cart/cart_test.go", "payment/charge.go", "vendor/example.com/money/money.go"), insts[0])
	if diff := cmp.Diff([]string{"cart/cart_test.go", "payment/charge.go"}, got); diff != "" {
		t.Errorf("scored files of a review (-want +got):\n%s", diff)
	}
	if got, _ := scoredList(files("cart/cart_test.go", "cart/cart.go"), Instance{Lang: "go"}); !slices.Equal(got, []string{"cart/cart.go"}) {
		t.Errorf("a fix scores %v, want source files only", got)
	}

	rep, err := Run(context.Background(), Options{
		ReposDir: fx.reposDir, WorkDir: t.TempDir(),
		Instances: insts, Budgets: []int{1000},
	}, []Ranker{NewNames()})
	if err != nil {
		t.Fatal(err)
	}
	var top [][]string
	for _, ir := range rep.Instances {
		var ps []string
		for _, f := range ir.Results[0].Top {
			ps = append(ps, f.Path)
		}
		top = append(top, ps)
	}
	if diff := cmp.Diff([][]string{{"cart/cart_test.go"}, nil}, top); diff != "" {
		t.Errorf("names baseline (-want +got):\n%s", diff)
	}
	if hit := rep.Instances[0].Results[0].Scores.Hit[0]; hit != 1 {
		t.Errorf("names hit@1 on the test instance = %v, want 1", hit)
	}
}

func TestReviewValidation(t *testing.T) {
	fx := buildFixtures(t)
	in := fx.reviewInstances()[0]
	if err := in.Validate(); err != nil {
		t.Fatalf("a review without a query is valid: %v", err)
	}
	in.DiffFiles = nil
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "diff_files") {
		t.Errorf("a review without diff_files: %v, want an error naming diff_files", err)
	}
	fix := fx.instances()[0]
	fix.DiffFiles = []string{"cart/cart.go"}
	if err := fix.Validate(); err == nil || !strings.Contains(err.Error(), "only for kind diff") {
		t.Errorf("a fix with diff_files: %v, want an error", err)
	}
}
