package mcpserver

import (
	"context"
	"errors"
	"os/exec"
	"strings"

	"github.com/ctxexpand/ctxexpand/diffmode"
)

// checkRev refuses revisions that could be read as options and those git
// does not know, and returns the commit a known one names.
func checkRev(ctx context.Context, g *diffmode.Git, name, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, " \t\n\x00") {
		return "", toolErrorf("%s %q is not a revision: give a branch, tag or commit such as main, v1.2.0, HEAD~3 or a commit hash", name, rev)
	}
	c, err := g.Commit(ctx, rev)
	if err != nil {
		return "", toolErrorf("%s %q names no commit in this repository: give a branch, tag or commit such as main, HEAD~3 or a commit hash", name, rev)
	}
	return c, nil
}

// inGitRepo says whether g's directory is inside a git work tree.
func inGitRepo(ctx context.Context, g *diffmode.Git) error {
	err := g.Check(ctx)
	if errors.Is(err, exec.ErrNotFound) {
		return toolErrorf("%v", err)
	}
	if err != nil {
		return toolErrorf("%s is not inside a git work tree: diff_context needs git history; use expand_context instead", g.Dir)
	}
	return nil
}
