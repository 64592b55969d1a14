package diffmode

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNotGit is returned when a directory is not inside a git work tree.
var ErrNotGit = errors.New("not a git repository")

// Git runs git in a directory for diff mode: it produces diffs, resolves
// revisions, reads base versions and extracts trees. Paths are relative
// to Dir (git's --relative view), so Dir may be a subdirectory of the
// work tree, as --root may be.
type Git struct {
	Dir string
}

// run runs git with a fixed, configuration-proof environment.
func (g *Git) run(ctx context.Context, stdout io.Writer, args ...string) error {
	full := append([]string{"-C", g.Dir, "-c", "core.quotePath=true", "--no-pager"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_CONFIG_NOSYSTEM=1")
	var stderr bytes.Buffer
	cmd.Stdout = stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("git is not installed or not on PATH: %w", err)
		}
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if strings.Contains(msg, "not a git repository") {
			return fmt.Errorf("%s: %w", g.Dir, ErrNotGit)
		}
		if msg == "" {
			return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		return fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return nil
}

func (g *Git) output(ctx context.Context, args ...string) ([]byte, error) {
	var b bytes.Buffer
	err := g.run(ctx, &b, args...)
	return b.Bytes(), err
}

// Check reports ErrNotGit when Dir is not in a git work tree.
func (g *Git) Check(ctx context.Context) error {
	out, err := g.output(ctx, "rev-parse", "--is-inside-work-tree")
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(out)) != "true" {
		return fmt.Errorf("%s: %w", g.Dir, ErrNotGit)
	}
	return nil
}

// Prefix is Dir's path below the top of the work tree ("" at the top,
// else ending in "/").
func (g *Git) Prefix(ctx context.Context) (string, error) {
	out, err := g.output(ctx, "rev-parse", "--show-prefix")
	return strings.TrimSpace(string(out)), err
}

// Commit resolves rev to a full commit name.
func (g *Git) Commit(ctx context.Context, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("revision %q must not start with '-'", rev)
	}
	out, err := g.output(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("unknown revision %q: check the name, and fetch it first in a shallow clone", rev)
	}
	return strings.TrimSpace(string(out)), nil
}

// MergeBase is the best common ancestor of two commits.
func (g *Git) MergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := g.output(ctx, "merge-base", a, b)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Range says which two trees to compare. Base "" means HEAD. Head ""
// means the working tree, or the index when Staged.
type Range struct {
	Base   string // a commit name
	Head   string // a commit name, or ""
	Staged bool
	Paths  []string // limit to these paths (git pathspecs), none for all
}

// Diff runs git diff for r with settings that make the output parseable
// whatever the user's configuration: a/ and b/ prefixes, renames found,
// no colour, no external or text-converting drivers, submodules as commit
// lines, three lines of context, paths relative to Dir.
func (g *Git) Diff(ctx context.Context, r Range) ([]byte, error) {
	args := []string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--find-renames",
		"--src-prefix=a/", "--dst-prefix=b/", "--submodule=short", "--unified=3", "--relative", "--full-index"}
	if r.Staged {
		args = append(args, "--cached")
	}
	base := r.Base
	if base == "" {
		base = "HEAD"
	}
	args = append(args, base)
	if r.Head != "" {
		args = append(args, r.Head)
	}
	args = append(args, "--")
	args = append(args, r.Paths...)
	return g.output(ctx, args...)
}

// Subjects are the subjects of the commits in base..head, newest first,
// merges left out, at most max.
func (g *Git) Subjects(ctx context.Context, base, head string, max int) ([]string, error) {
	out, err := g.output(ctx, "log", "--no-merges", "--format=%s", fmt.Sprintf("--max-count=%d", max), base+".."+head)
	if err != nil {
		return nil, err
	}
	var subs []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			subs = append(subs, l)
		}
	}
	return subs, nil
}

// Show reads the file at path (relative to Dir) as of commit rev.
func (g *Git) Show(ctx context.Context, rev, path string) ([]byte, error) {
	return g.output(ctx, "cat-file", "blob", rev+":./"+path)
}

// Blob reads a blob by its (possibly abbreviated) name.
func (g *Git) Blob(ctx context.Context, name string) ([]byte, error) {
	if !isHex(name) || strings.Trim(name, "0") == "" {
		return nil, fmt.Errorf("no blob %q: %w", name, ErrNoBase)
	}
	return g.output(ctx, "cat-file", "blob", name)
}

// WorkTreeMatches reports whether the tracked files of the working tree
// (below Dir) are those of commit rev.
func (g *Git) WorkTreeMatches(ctx context.Context, rev string) (bool, error) {
	err := g.run(ctx, io.Discard, "diff", "--quiet", "--no-ext-diff", "--relative", rev, "--", ".")
	if err == nil {
		return true, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return false, nil
	}
	return false, err
}

// Untracked lists the untracked files below Dir that are not ignored.
func (g *Git) Untracked(ctx context.Context) ([]string, error) {
	out, err := g.output(ctx, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// Extract writes the tree of commit rev below Dir into dst (an empty
// directory): regular files and directories; symbolic links and
// submodules are left out.
func (g *Git) Extract(ctx context.Context, rev, dst string) error {
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return err
	}
	tree := rev + "^{tree}"
	if prefix != "" {
		tree = rev + ":" + strings.TrimSuffix(prefix, "/")
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := g.run(ctx, pw, "archive", "--format=tar", tree)
		pw.CloseWithError(err)
		done <- err
	}()
	exErr := untar(pr, dst)
	if exErr == nil {
		_, _ = io.Copy(io.Discard, pr) // the archive's padding
	}
	pr.CloseWithError(io.ErrClosedPipe)
	runErr := <-done
	if runErr != nil {
		return fmt.Errorf("extracting %s: %w", rev, runErr)
	}
	if exErr != nil {
		return fmt.Errorf("extracting %s: %w", rev, exErr)
	}
	return nil
}

func untar(r io.Reader, dst string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name, ok := cleanPath(strings.TrimSuffix(h.Name, "/"))
		if !ok {
			continue
		}
		target := filepath.Join(dst, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
			if err != nil {
				return err
			}
			if _, err := io.Copy(f, tr); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
		}
	}
}

// RevSource reads bases from commit Rev through git.
func RevSource(g *Git, rev string) Sources {
	return SourcesFunc(func(ctx context.Context, f *File) ([]byte, error) {
		return g.Show(ctx, rev, f.OldPath)
	})
}

// BlobSource reads bases by the blob names of the diff's index lines.
func BlobSource(g *Git) Sources {
	return SourcesFunc(func(ctx context.Context, f *File) ([]byte, error) {
		return g.Blob(ctx, f.OldBlob)
	})
}

// Unstaged reports whether any of paths has changes in the working tree
// that are not staged.
func (g *Git) Unstaged(ctx context.Context, paths []string) (bool, error) {
	args := append([]string{"diff", "--quiet", "--no-ext-diff", "--relative", "--"}, paths...)
	err := g.run(ctx, io.Discard, args...)
	if err == nil {
		return false, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return true, nil
	}
	return false, err
}
