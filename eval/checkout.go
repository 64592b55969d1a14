package eval

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// ErrRepoMissing is returned when a dataset repository is not in REPOS_DIR.
var ErrRepoMissing = errors.New("repository not found")

// Checkouts prepares and caches one checkout per (repository, base commit).
// A checkout is a shared clone of ReposDir/OWNER+NAME/repo detached at the
// base commit, with every ref deleted and the reflog expired, so that no
// commit after the base is reachable from anything in it. Its zero value is
// not usable: ReposDir and WorkDir are required.
type Checkouts struct {
	// ReposDir holds each repository's git directory, with full history, as
	// OWNER+NAME/repo.
	ReposDir string
	// WorkDir holds the cached checkouts as OWNER+NAME/BASE.
	WorkDir string
	// Git is the git executable; empty means "git" on PATH.
	Git string
	// Rolling keeps one checkout per repository, WorkDir/OWNER+NAME/rolling,
	// and moves it to each instance's base in turn (checkout, clean,
	// reflog expired), instead of one directory per base. Analysing many
	// commits of a repository then reuses the on-disk index of one root,
	// whose per-file and per-package entries carry over from commit to
	// commit. The caller must not use a rolling checkout of a repository
	// for two instances at once (see Run).
	Rolling bool

	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// CheckoutResult says where an instance's tree is and whether the cache had it.
type CheckoutResult struct {
	Dir    string
	Reused bool
	// Missing lists files of the base tree whose content is absent from the
	// repository's object store (mirrors may leave out their largest
	// blobs); the checkout lacks them and is otherwise complete.
	Missing []string
}

// Prepare returns a verified checkout of inst.Base, building or rebuilding
// it when the cache has none or the cached one is not at the right commit,
// not clean or still holds refs. Concurrent calls for the same checkout
// wait for each other; different checkouts proceed in parallel. Processes
// may share a work directory: a checkout appears under its final name only
// once complete. Rankers must not modify checkouts: a spoiled one is
// deleted and rebuilt by the next Prepare, whoever else is reading it.
func (c *Checkouts) Prepare(ctx context.Context, inst Instance) (CheckoutResult, error) {
	if c.ReposDir == "" || c.WorkDir == "" {
		return CheckoutResult{}, errors.New("checkouts need a repositories directory and a work directory")
	}
	gitDir := filepath.Join(c.ReposDir, RepoDirName(inst.Repo), "repo")
	if _, err := os.Stat(gitDir); err != nil {
		return CheckoutResult{}, fmt.Errorf("%s: %w at %s: put a clone with full history there (git clone --mirror https://github.com/%s %s)",
			inst.Repo, ErrRepoMissing, gitDir, inst.Repo, gitDir)
	}
	absWork, err := filepath.Abs(c.WorkDir)
	if err != nil {
		return CheckoutResult{}, fmt.Errorf("resolving work directory: %w", err)
	}
	dir := filepath.Join(absWork, RepoDirName(inst.Repo), inst.Base)
	if c.Rolling {
		dir = filepath.Join(absWork, RepoDirName(inst.Repo), "rolling")
	} else if inst.Kind == KindDiff {
		dir = filepath.Join(absWork, RepoDirName(inst.Repo), inst.Base+"-review-"+reviewKey(inst))
	}

	unlock := c.lock(dir)
	defer unlock()
	if inst.Kind == KindDiff {
		return c.prepareReview(ctx, gitDir, dir, inst)
	}

	if c.Rolling {
		if _, err := os.Stat(dir); err == nil {
			missing, err := c.move(ctx, dir, inst.Base)
			if err == nil {
				return CheckoutResult{Dir: dir, Reused: true, Missing: missing}, nil
			}
			if ctx.Err() != nil {
				return CheckoutResult{}, ctx.Err()
			}
			if err := os.RemoveAll(dir); err != nil {
				return CheckoutResult{}, fmt.Errorf("removing broken checkout %s: %w", dir, err)
			}
		}
		missing, err := c.build(ctx, gitDir, dir, inst.Base)
		if err != nil {
			return CheckoutResult{}, fmt.Errorf("checking out %s at %.12s: %w", inst.Repo, inst.Base, err)
		}
		return CheckoutResult{Dir: dir, Missing: missing}, nil
	}

	if _, err := os.Stat(dir); err == nil {
		if missing, err := c.verify(ctx, dir, inst.Base); err == nil {
			return CheckoutResult{Dir: dir, Reused: true, Missing: missing}, nil
		} else if ctx.Err() != nil {
			return CheckoutResult{}, ctx.Err()
		}
		if err := os.RemoveAll(dir); err != nil {
			return CheckoutResult{}, fmt.Errorf("removing stale checkout %s: %w", dir, err)
		}
	}
	missing, err := c.build(ctx, gitDir, dir, inst.Base)
	if err != nil {
		return CheckoutResult{}, fmt.Errorf("checking out %s at %.12s: %w", inst.Repo, inst.Base, err)
	}
	return CheckoutResult{Dir: dir, Missing: missing}, nil
}

// prepareReview makes dir the tree of a review instance: a checkout of
// inst.Base (moved there when rolling, built afresh otherwise) with the
// changes inst.Commit made to inst.DiffFiles applied and left uncommitted,
// as a change under review is: modified and deleted files in the work
// tree, added files marked with intent to add, so that git diff shows
// them all. The caller holds dir's lock.
func (c *Checkouts) prepareReview(ctx context.Context, gitDir, dir string, inst Instance) (CheckoutResult, error) {
	var missing []string
	var err error
	reused := false
	if _, serr := os.Stat(dir); serr == nil && c.Rolling {
		missing, err = c.move(ctx, dir, inst.Base)
		reused = err == nil
	}
	if !reused {
		if ctx.Err() != nil {
			return CheckoutResult{}, ctx.Err()
		}
		if err := os.RemoveAll(dir); err != nil {
			return CheckoutResult{}, fmt.Errorf("removing checkout %s: %w", dir, err)
		}
		if missing, err = c.build(ctx, gitDir, dir, inst.Base); err != nil {
			return CheckoutResult{}, fmt.Errorf("checking out %s at %.12s: %w", inst.Repo, inst.Base, err)
		}
	}
	if err := c.applyChange(ctx, dir, inst); err != nil {
		// A half-applied change must not be taken for a clean base.
		os.RemoveAll(dir)
		return CheckoutResult{}, fmt.Errorf("applying %.12s's change to %s: %w", inst.Commit, strings.Join(inst.DiffFiles, ", "), err)
	}
	return CheckoutResult{Dir: dir, Reused: reused, Missing: missing}, nil
}

// applyChange writes inst.Commit's version of each of inst.DiffFiles into
// the checkout at dir (removing those the commit deleted) without
// committing or staging it.
func (c *Checkouts) applyChange(ctx context.Context, dir string, inst Instance) error {
	list := func(commit string) (map[string]bool, error) {
		out, err := c.git(ctx, dir, append([]string{"ls-tree", "-r", "--name-only", "-z", commit, "--"}, inst.DiffFiles...)...)
		if err != nil {
			return nil, err
		}
		set := map[string]bool{}
		for _, p := range strings.Split(out, "\x00") {
			if p != "" {
				set[p] = true
			}
		}
		return set, nil
	}
	atCommit, err := list(inst.Commit)
	if err != nil {
		return err
	}
	atBase, err := list(inst.Base)
	if err != nil {
		return err
	}
	var write, added []string
	for _, p := range inst.DiffFiles {
		switch {
		case atCommit[p]:
			write = append(write, p)
			if !atBase[p] {
				added = append(added, p)
			}
		case atBase[p]:
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
	}
	if len(write) == 0 {
		return nil
	}
	if _, err := c.git(ctx, dir, append([]string{"checkout", "--quiet", inst.Commit, "--"}, write...)...); err != nil {
		return err
	}
	// Unstaged, as an edit in progress is; new files stay visible to git
	// diff through intent-to-add.
	if _, err := c.git(ctx, dir, append([]string{"reset", "--quiet", "--"}, write...)...); err != nil {
		return err
	}
	if len(added) > 0 {
		if _, err := c.git(ctx, dir, append([]string{"add", "--intent-to-add", "--"}, added...)...); err != nil {
			return err
		}
	}
	return nil
}

// reviewKey names a review instance's checkout: its commit and files.
func reviewKey(inst Instance) string {
	h := sha256.Sum256([]byte(inst.Commit + "\x00" + strings.Join(inst.DiffFiles, "\x00")))
	return hex.EncodeToString(h[:6])
}

// lock serialises work on one checkout directory.
func (c *Checkouts) lock(dir string) func() {
	c.mu.Lock()
	if c.locks == nil {
		c.locks = map[string]*sync.Mutex{}
	}
	m := c.locks[dir]
	if m == nil {
		m = &sync.Mutex{}
		c.locks[dir] = m
	}
	c.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// build clones into a temporary sibling and renames it into place, so an
// interrupted build never leaves a half-made checkout under the final name.
func (c *Checkouts) build(ctx context.Context, gitDir, dir, base string) ([]string, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	// git clone accepts the empty directory MkdirTemp made.
	if _, err := c.git(ctx, "", "clone", "--quiet", "--shared", "--no-checkout", gitDir, tmp); err != nil {
		return nil, err
	}
	// A blob missing from the object store makes checkout complain but
	// succeed; verify lists such files.
	if _, err := c.git(ctx, tmp, "checkout", "--quiet", "--detach", base); err != nil {
		return nil, err
	}
	if err := c.deleteRefs(ctx, tmp); err != nil {
		return nil, err
	}
	if _, err := c.git(ctx, tmp, "reflog", "expire", "--expire=now", "--all"); err != nil {
		return nil, err
	}
	missing, err := c.verify(ctx, tmp, base)
	if err != nil {
		return nil, fmt.Errorf("new checkout fails verification: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process sharing the work directory may have built the
		// same checkout meanwhile; use it if it verifies.
		if m, verr := c.verify(ctx, dir, base); verr == nil {
			return m, nil
		}
		return nil, err
	}
	ok = true
	return missing, nil
}

// move turns the rolling checkout dir to base: a forced detached
// checkout, untracked files removed, refs deleted and the reflog (which
// would remember the commit it came from) expired, then verified.
func (c *Checkouts) move(ctx context.Context, dir, base string) ([]string, error) {
	if _, err := c.git(ctx, dir, "checkout", "--quiet", "--force", "--detach", base); err != nil {
		return nil, err
	}
	if _, err := c.git(ctx, dir, "clean", "-ffdxq"); err != nil {
		return nil, err
	}
	if err := c.deleteRefs(ctx, dir); err != nil {
		return nil, err
	}
	if _, err := c.git(ctx, dir, "reflog", "expire", "--expire=now", "--all"); err != nil {
		return nil, err
	}
	return c.verify(ctx, dir, base)
}

// deleteRefs removes every ref (branches, remote-tracking refs, tags) in
// one update-ref transaction.
func (c *Checkouts) deleteRefs(ctx context.Context, dir string) error {
	refs, err := c.git(ctx, dir, "for-each-ref", "--format=%(refname)")
	if err != nil {
		return err
	}
	var stdin strings.Builder
	for _, r := range strings.Fields(refs) {
		fmt.Fprintf(&stdin, "delete %s\n", r)
	}
	if stdin.Len() == 0 {
		return nil
	}
	_, err = c.gitIn(ctx, dir, stdin.String(), "update-ref", "--no-deref", "--stdin")
	return err
}

// verify checks that dir is the top of its own work tree, detached at
// base, clean and without refs. Clean means no change and no untracked
// file, except that a file whose blob the object store lacks may be
// absent; verify returns those files, sorted.
func (c *Checkouts) verify(ctx context.Context, dir, base string) ([]string, error) {
	top, err := c.git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	if !sameDir(strings.TrimSpace(top), dir) {
		return nil, fmt.Errorf("%s is not a work tree of its own (top is %s)", dir, strings.TrimSpace(top))
	}
	head, err := c.git(ctx, dir, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	if h := strings.TrimSpace(head); h != base {
		return nil, fmt.Errorf("HEAD is %s, want %s", h, base)
	}
	refs, err := c.git(ctx, dir, "for-each-ref", "--format=%(refname)")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(refs) != "" {
		return nil, fmt.Errorf("refs remain: %s", strings.Fields(refs)[0])
	}
	status, err := c.git(ctx, dir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=no")
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, entry := range strings.Split(status, "\x00") {
		if entry == "" {
			continue
		}
		p, deleted := strings.CutPrefix(entry, " D ")
		if !deleted {
			return nil, fmt.Errorf("work tree is not clean: %q", entry)
		}
		if _, err := c.git(ctx, dir, "cat-file", "-e", "HEAD:"+p); err == nil {
			return nil, fmt.Errorf("work tree is not clean: %s was deleted", p)
		} else if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		missing = append(missing, p)
	}
	sort.Strings(missing)
	return missing, nil
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

func (c *Checkouts) git(ctx context.Context, dir string, args ...string) (string, error) {
	return c.gitIn(ctx, dir, "", args...)
}

// gitIn runs git in dir with stdin and returns its standard output; the
// error carries git's standard error.
func (c *Checkouts) gitIn(ctx context.Context, dir, stdin string, args ...string) (string, error) {
	bin := c.Git
	if bin == "" {
		bin = "git"
	}
	sub := args[0]
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", sub, msg)
	}
	return out.String(), nil
}
