package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctxexpand/ctxexpand/eval"
)

// checkDataset measures how faithfully the mining rules rebuild an existing
// dataset (the dev split): for each of its instances it reads the commit
// from ROOT, applies the rules and the commit-shaped cleaning, and reports
// the instances whose query or files come out different, then the totals.
// It reads the dataset's repositories only to compare; nothing is written.
func checkDataset(ctx context.Context, file, root string, w io.Writer) error {
	insts, err := eval.LoadDataset(file)
	if err != nil {
		return err
	}
	sameQuery, kept, sameFiles := 0, 0, 0
	for _, in := range insts {
		gitDir := filepath.Join(root, eval.RepoDirName(in.Repo), "repo")
		if fi, err := os.Stat(filepath.Join(gitDir, ".git")); err == nil && fi.IsDir() {
			gitDir = filepath.Join(gitDir, ".git")
		}
		out, err := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "log", "-1", "--first-parent",
			"--diff-merges=first-parent", "--no-renames", "--name-status", "-z", "--format="+logFormat, in.Commit).Output()
		if err != nil {
			return fmt.Errorf("%s: reading commit %s in %s: %w", in.ID, in.Commit, gitDir, err)
		}
		c, err := parseRecord(strings.TrimPrefix(string(out), "\x1e"))
		if err != nil {
			return fmt.Errorf("%s: %w", in.ID, err)
		}
		if m, ok := parseMessage(c.Message); ok && commitQuery(m) == in.Query {
			sameQuery++
		} else {
			fmt.Fprintf(w, "%s: query differs\n  dataset %q\n  mined   %q\n", in.ID, in.Query, commitQuery(m))
		}
		got, reason := candidate(c, repoSpec{Repo: in.Repo, Lang: in.Lang}, shapeCommit)
		if reason == "" {
			got, reason, err = finish(ctx, gitDir, got)
			if err != nil {
				return err
			}
		}
		if reason != "" {
			fmt.Fprintf(w, "%s: not kept: %s\n", in.ID, reason)
			continue
		}
		kept++
		if slices.Equal(got.GoldFiles, in.GoldFiles) && slices.Equal(got.TestFiles, in.TestFiles) &&
			slices.Equal(got.AddedFiles, in.AddedFiles) {
			sameFiles++
		} else {
			fmt.Fprintf(w, "%s: files differ: gold %v tests %v added %v; dataset gold %v tests %v added %v\n",
				in.ID, got.GoldFiles, got.TestFiles, got.AddedFiles, in.GoldFiles, in.TestFiles, in.AddedFiles)
		}
	}
	fmt.Fprintf(w, "%d instances: same query %d, kept by the rules %d, same gold, test and added files %d\n",
		len(insts), sameQuery, kept, sameFiles)
	return nil
}
