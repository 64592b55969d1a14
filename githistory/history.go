package githistory

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// Options configures Load. The zero value reads the last 3000 commits that
// touched the root, computes the change prior over the most recent 500,
// and gives no weight to commits that changed more than 50 files or more
// than half of the root's files.
type Options struct {
	// MaxCommits is how many of the most recent non-merge commits that
	// touched the root are read.
	MaxCommits int
	// PriorCommits is how many of those (the most recent) count for Prior.
	PriorCommits int
	// MaxFilesPerCommit gives no weight to commits that touch more files
	// than this anywhere in the repository (mass renames, reformatting,
	// vendoring): they say nothing about any one file.
	MaxFilesPerCommit int
	// MaxTreeShare gives no weight to commits that touch more than this
	// share of the files tracked under the root (the commit that added a
	// sample folder, a licence header on every file): a change to nearly
	// everything tells no file apart from the others. 0 means 0.5.
	MaxTreeShare float64
	// Git is the git executable; "" means "git" on PATH.
	Git string
}

// Commit is one commit as history sees it: its message and the files it
// changed under the root (relative to it). A commit that touched too much
// of the repository or of the root (see Options) keeps its message but no
// files: it weighs nothing.
type Commit struct {
	Subject string
	Message string // subject and body
	Files   []string
}

// Stats is the recent history of a tree.
type Stats struct {
	// Commits are the commits read, newest first.
	Commits []Commit
	// PriorCommits is how many of them count for Touches.
	PriorCommits int
	// Touches counts, per path relative to the root, the commits among
	// the most recent PriorCommits that changed it.
	Touches map[string]int
	// TreeFiles is how many files are tracked under the root at HEAD.
	TreeFiles int
	maxLog    float64

	indexOnce sync.Once
	msgIndex  *messageIndex // built on first use by Similar
}

// Field separators of the log format: a record starts with \x1e, the
// message ends with \x1f, and the changed files follow, one per line.
const (
	recordSep = "\x1e"
	fieldSep  = "\x1f"
)

// Load reads the recent history of the tree at root. When root is a
// folder inside a larger checkout, only the commits that touched the
// folder count, and only their files under it, with paths relative to
// root. A root that is not in a git checkout, or a machine without git,
// gives empty stats and no error; only a cancelled ctx is an error.
func Load(ctx context.Context, root string, opt Options) (*Stats, error) {
	opt = opt.withDefaults()
	st := &Stats{Touches: map[string]int{}, PriorCommits: opt.PriorCommits}
	out, err := gitLog(ctx, root, opt)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return st, nil // not a checkout, no git, no commits: no history
	}
	parse(out, opt, st)
	return st, nil
}

// withDefaults fills the zero fields of Options.
func (opt Options) withDefaults() Options {
	if opt.MaxCommits <= 0 {
		opt.MaxCommits = 3000
	}
	if opt.PriorCommits <= 0 {
		opt.PriorCommits = 500
	}
	if opt.MaxFilesPerCommit <= 0 {
		opt.MaxFilesPerCommit = 50
	}
	if opt.MaxTreeShare <= 0 {
		opt.MaxTreeShare = 0.5
	}
	return opt
}

// gitLog asks git for what parse reads (cache.go keeps it): a header
// with the root's place in the checkout and the number of files tracked
// under it, then the log of the commits that touched the root, each with
// every file it changed anywhere in the repository (--full-diff), so that
// a commit's breadth is judged on the whole change.
func gitLog(ctx context.Context, root string, opt Options) ([]byte, error) {
	prefix, err := runGit(ctx, root, opt.Git, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	tree, err := runGit(ctx, root, opt.Git, "ls-tree", "-r", "-z", "--name-only", "HEAD", "--", ".")
	if err != nil {
		return nil, err
	}
	log, err := runGit(ctx, root, opt.Git, "log", "-n", fmt.Sprint(opt.MaxCommits), "--no-merges", "--name-only", "--no-color",
		"--format=tformat:"+recordSep+"%s%n%b"+fieldSep, "--full-diff", "--", ".")
	if err != nil {
		return nil, err
	}
	out := fmt.Appendf(nil, "%s%s%d%s", strings.TrimSpace(string(prefix)), fieldSep, bytes.Count(tree, []byte{0}), fieldSep)
	return append(out, log...), nil
}

// runGit runs one git command in root with paths unquoted, renames off and
// no locks taken.
func runGit(ctx context.Context, root, git string, args ...string) ([]byte, error) {
	if git == "" {
		git = "git"
	}
	args = append([]string{"-C", root, "-c", "core.quotePath=false", "-c", "diff.renames=false", "-c", "log.showSignature=false"}, args...)
	cmd := exec.CommandContext(ctx, git, args...)
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	return cmd.Output()
}

// parse reads what gitLog wrote. A commit keeps only its files under the
// root, relative to it, and none at all when it changed more than
// MaxFilesPerCommit files in the repository or more than MaxTreeShare of
// the files under the root: such a commit weighs nothing, for the prior
// as for similar past changes.
func parse(out []byte, opt Options, st *Stats) {
	prefix, rest, ok := bytes.Cut(out, []byte(fieldSep))
	if !ok {
		return
	}
	tree, log, ok := bytes.Cut(rest, []byte(fieldSep))
	if !ok {
		return
	}
	st.TreeFiles, _ = strconv.Atoi(string(tree))
	maxInRoot := opt.MaxFilesPerCommit
	if st.TreeFiles > 0 {
		maxInRoot = min(maxInRoot, int(opt.MaxTreeShare*float64(st.TreeFiles)))
	}
	for _, rec := range bytes.Split(log, []byte(recordSep)) {
		msg, files, ok := bytes.Cut(rec, []byte(fieldSep))
		if !ok {
			continue
		}
		c := Commit{Message: strings.TrimSpace(string(msg))}
		c.Subject, _, _ = strings.Cut(c.Message, "\n")
		total := 0
		for _, line := range strings.Split(string(files), "\n") {
			if line = strings.TrimSpace(line); line == "" {
				continue
			}
			total++
			if rel, ok := strings.CutPrefix(line, string(prefix)); ok {
				c.Files = append(c.Files, rel)
			}
		}
		if total > opt.MaxFilesPerCommit || len(c.Files) > maxInRoot {
			c.Files = nil
		}
		st.Commits = append(st.Commits, c)
	}
	for i, c := range st.Commits {
		if i == st.PriorCommits {
			break
		}
		for _, f := range c.Files {
			st.Touches[f]++
		}
	}
	for _, n := range st.Touches {
		st.maxLog = math.Max(st.maxLog, math.Log1p(float64(n)))
	}
}

// Prior is the file's share of recent change, from 0 (untouched in the
// most recent PriorCommits commits) to 1 (the most changed file), on a log
// scale so that a file changed in every commit does not dwarf one changed
// in a few.
func (s *Stats) Prior(path string) float64 {
	if s == nil || s.maxLog == 0 {
		return 0
	}
	return math.Log1p(float64(s.Touches[path])) / s.maxLog
}

// NumPrior is how many commits the prior counts.
func (s *Stats) NumPrior() int { return min(len(s.Commits), s.PriorCommits) }
