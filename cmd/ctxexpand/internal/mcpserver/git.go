package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// errNoGit marks a failure to run git at all.
var errNoGit = errors.New("git is not available")

// git runs git in dir with args and returns its standard output, read up
// to limit bytes (0: no limit), and whether it was cut. Color, external
// diff drivers, text conversion and path quoting of non-ASCII names are
// turned off so the output parses the same everywhere.
func git(ctx context.Context, dir string, limit int64, args ...string) ([]byte, bool, error) {
	full := append([]string{"-c", "core.quotePath=false", "-c", "color.ui=never", "--no-pager"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, err
	}
	if err := cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("%w: %v; install git or put it on PATH", errNoGit, err)
	}
	var r io.Reader = stdout
	if limit > 0 {
		r = io.LimitReader(stdout, limit+1)
	}
	out, readErr := io.ReadAll(r)
	cut := limit > 0 && int64(len(out)) > limit
	if cut {
		out = out[:limit]
		io.Copy(io.Discard, stdout) // let git finish writing
	}
	waitErr := cmd.Wait()
	if readErr != nil {
		return out, cut, readErr
	}
	if waitErr != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = waitErr.Error()
		}
		return out, cut, fmt.Errorf("git %s: %s", args[0], firstLine(msg))
	}
	return out, cut, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// checkRev refuses revisions that could be read as options and those git
// does not know, and returns the commit a known one names.
func checkRev(ctx context.Context, dir, name, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, " \t\n\x00") {
		return "", toolErrorf("%s %q is not a revision: give a branch, tag or commit such as main, v1.2.0, HEAD~3 or a commit hash", name, rev)
	}
	out, _, err := git(ctx, dir, 0, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if errors.Is(err, errNoGit) {
		return "", toolErrorf("%v", err)
	}
	if err != nil {
		return "", toolErrorf("%s %q names no commit in this repository: give a branch, tag or commit such as main, HEAD~3 or a commit hash", name, rev)
	}
	return strings.TrimSpace(string(out)), nil
}

// inGitRepo says whether dir is inside a git work tree.
func inGitRepo(ctx context.Context, dir string) error {
	out, _, err := git(ctx, dir, 0, "rev-parse", "--is-inside-work-tree")
	if errors.Is(err, errNoGit) {
		return toolErrorf("%v", err)
	}
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		return toolErrorf("%s is not inside a git work tree: diff_context needs git history; use expand_context instead", dir)
	}
	return nil
}
