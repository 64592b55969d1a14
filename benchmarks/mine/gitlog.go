package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// commit is one commit of a first-parent walk, with its diff against its
// first parent.
type commit struct {
	ID      string
	Parents []string
	Date    time.Time // committer date
	Author  string    // "Name <email>"
	Message string
	Changes []change
}

// logFormat puts a record separator before each commit and NUL between its
// header fields; with -z, git ends the message with NUL and lists the
// changed files as "STATUS\0PATH\0" pairs.
const logFormat = "%x1e%H%x00%P%x00%cI%x00%aN <%aE>%x00%B%x00"

// walk lists the first-parent history of head in gitDir, newest first,
// back to since, calling fn for each commit. Merge commits are diffed
// against their first parent, so a merged pull request is one change.
// Renames are reported as a deletion and an addition.
func walk(ctx context.Context, gitDir, head string, since time.Time, fn func(commit) error) error {
	args := []string{"--git-dir=" + gitDir, "log", "--first-parent", "--diff-merges=first-parent",
		"--no-renames", "--name-status", "-z", "--format=" + logFormat}
	if !since.IsZero() {
		args = append(args, "--since="+since.Format(time.RFC3339))
	}
	args = append(args, head, "--")
	cmd := exec.CommandContext(ctx, "git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("running git log in %s: %w", gitDir, err)
	}
	werr := readLog(out, fn)
	if werr != nil {
		_ = cmd.Process.Kill()
		_, _ = io.Copy(io.Discard, out)
	}
	if err := cmd.Wait(); err != nil && werr == nil {
		return fmt.Errorf("git log in %s: %w: %s", gitDir, err, strings.TrimSpace(stderr.String()))
	}
	return werr
}

// readLog parses the output of git log with logFormat.
func readLog(r io.Reader, fn func(commit) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		start := 0
		if len(data) > 0 && data[0] == 0x1e {
			start = 1
		}
		if i := bytes.IndexByte(data[start:], 0x1e); i >= 0 {
			return start + i, data[start : start+i], nil
		}
		if atEOF && len(data) > start {
			return len(data), data[start:], nil
		}
		if atEOF {
			return len(data), nil, nil
		}
		return 0, nil, nil
	})
	for sc.Scan() {
		rec := sc.Bytes()
		if len(rec) == 0 {
			continue
		}
		c, err := parseRecord(string(rec))
		if err != nil {
			return err
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	return sc.Err()
}

// parseRecord parses one commit of logFormat output.
func parseRecord(rec string) (commit, error) {
	f := strings.Split(rec, "\x00")
	if len(f) < 5 {
		return commit{}, fmt.Errorf("git log record has %d fields, want at least 5: %.80q", len(f), rec)
	}
	date, err := time.Parse(time.RFC3339, f[2])
	if err != nil {
		return commit{}, fmt.Errorf("commit %s: date %q: %w", f[0], f[2], err)
	}
	c := commit{ID: f[0], Parents: strings.Fields(f[1]), Date: date.UTC(), Author: f[3], Message: f[4]}
	var toks []string
	for _, t := range f[5:] {
		if t = strings.TrimLeft(t, "\n"); t != "" {
			toks = append(toks, t)
		}
	}
	for i := 0; i+1 < len(toks); i += 2 {
		st := toks[i]
		if st == "" {
			continue
		}
		c.Changes = append(c.Changes, change{Status: st[0], Path: toks[i+1]})
	}
	return c, nil
}

// lsTree lists the paths of the files of rev's tree, and those of them
// whose blobs the repository lacks (a snapshot may leave out its largest
// files; a checkout then lacks them and is otherwise complete).
func lsTree(ctx context.Context, gitDir, rev string) (paths, missing []string, err error) {
	out, err := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "ls-tree", "-r", "-l", "-z", rev).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("listing the tree of %s in %s: %w", rev, gitDir, err)
	}
	for _, e := range strings.Split(string(out), "\x00") {
		// "MODE TYPE OBJECT SIZE\tPATH"; SIZE is "BAD" for a missing blob.
		meta, p, ok := strings.Cut(e, "\t")
		if !ok {
			continue
		}
		if f := strings.Fields(meta); len(f) == 4 && f[1] == "blob" && f[3] == "BAD" {
			missing = append(missing, p)
		}
		paths = append(paths, p)
	}
	return paths, missing, nil
}

// specHead is the full id of the commit a repository's history is mined
// from: the list's pinned commit, else the git directory's HEAD.
func specHead(ctx context.Context, gitDir string, spec repoSpec) (string, error) {
	if spec.Head == "" {
		return revParse(ctx, gitDir, "HEAD")
	}
	return revParse(ctx, gitDir, spec.Head)
}

// revParse resolves rev to a full commit id.
func revParse(ctx context.Context, gitDir, rev string) (string, error) {
	out, err := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "rev-parse", "--verify", "--quiet", rev+"^{commit}").Output()
	if err != nil {
		return "", fmt.Errorf("%s has no commit %s: fetch the repository again or fix its line in the list", gitDir, rev)
	}
	return strings.TrimSpace(string(out)), nil
}

// fileHead returns the first bytes (up to 4 KiB) of path in rev's tree.
func fileHead(ctx context.Context, gitDir, rev, path string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "cat-file", "blob", rev+":"+path).Output()
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s in %s: %w", path, rev, gitDir, err)
	}
	if len(out) > 4096 {
		out = out[:4096]
	}
	return out, nil
}
