package githistory

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Reusing the log across runs.
//
// Reading 3,000 commits with the files each changed is most of what a
// warm ctxexpand run costs on a checkout with history (about 0.2 s of CPU
// on tokio, against 0.05 s for everything else). The log only depends on
// the commit at HEAD, the root's place in the checkout and how many commits
// are read (the weighing of commits happens when it is parsed), so
// LoadCached keeps its output in a Cache under those and asks git only for
// HEAD (git rev-parse) when it has it.

// Cache keeps data between runs (the pipeline passes the on-disk index).
type Cache interface {
	Get(key [32]byte) ([]byte, bool)
	Put(key [32]byte, data []byte)
}

// logCacheVersion changes with the log's format (gitLog) or parse.
const logCacheVersion = 2

// LoadCached is Load with the log kept in c, keyed by HEAD's commit, the
// root and the options. Without a commit at HEAD (no checkout, no git, an
// empty repository) it is Load.
func LoadCached(ctx context.Context, root string, opt Options, c Cache) (*Stats, error) {
	opt = opt.withDefaults()
	head, err := headCommit(ctx, root, opt.Git)
	if c == nil || err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return Load(ctx, root, opt)
	}
	abs, _ := filepath.Abs(root)
	key := sha256.Sum256(fmt.Appendf(nil, "githistory %d\x00%s\x00%s\x00%d", logCacheVersion, head, abs, opt.MaxCommits))
	out, ok := c.Get(key)
	if !ok {
		out, err = gitLog(ctx, root, opt)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return &Stats{Touches: map[string]int{}, PriorCommits: opt.PriorCommits}, nil
		}
		c.Put(key, out)
	}
	st := &Stats{Touches: map[string]int{}, PriorCommits: opt.PriorCommits}
	parse(out, opt, st)
	return st, nil
}

// headCommit is the commit HEAD names in the checkout holding root.
func headCommit(ctx context.Context, root, git string) (string, error) {
	if git == "" {
		git = "git"
	}
	cmd := exec.CommandContext(ctx, git, "-C", root, "rev-parse", "--verify", "--quiet", "HEAD")
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	if err != nil {
		return "", err
	}
	h := strings.TrimSpace(string(out))
	if h == "" {
		return "", fmt.Errorf("no commit at HEAD")
	}
	return h, nil
}
