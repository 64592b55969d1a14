package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ctxexpand/ctxexpand/diffmode"
)

// Names is the review baseline a reviewer gets from file names alone: for
// each file under review, the test files named after it
// (diffmode.NamesTest: foo.go → foo_test.go; a Rust module foo →
// tests/foo.rs, tests/foo_tests.rs). Files are ranked by the order of
// the files under review and then by path, and packed whole into each
// budget. It ranks nothing for an instance that is not a review.
type Names struct{}

// NewNames returns the name-matching baseline.
func NewNames() *Names { return &Names{} }

// Name implements Ranker.
func (*Names) Name() string { return "names" }

// Rank implements Ranker.
func (*Names) Rank(ctx context.Context, root string, inst Instance, budgets []int) (Ranking, error) {
	out := Ranking{Bundles: map[int][]string{}}
	if inst.Kind != KindDiff {
		return out, nil
	}
	tests, err := listFiles(ctx, root, func(rel string) bool { return IsTestSource(rel, inst.Lang) })
	if err != nil {
		return Ranking{}, fmt.Errorf("listing test files: %w", err)
	}
	seen := map[string]bool{}
	var paths []string
	var sizes []int64
	for _, f := range inst.DiffFiles {
		for _, t := range tests {
			if seen[t] || !diffmode.NamesTest(f, t, inst.Lang) {
				continue
			}
			seen[t] = true
			st, err := os.Stat(filepath.Join(root, filepath.FromSlash(t)))
			if err != nil {
				continue
			}
			paths = append(paths, t)
			sizes = append(sizes, st.Size())
			out.Files = append(out.Files, RankedFile{Path: t, Score: 1 / float64(len(out.Files)+1), Reasons: []string{"named after " + f}})
		}
	}
	out.Bundles = PackWholeFiles(paths, sizes, budgets)
	return out, nil
}
