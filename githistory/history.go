package githistory

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"sync"
)

// Options configures Load. The zero value reads the last 3000 commits and
// computes the change prior over the most recent 500.
type Options struct {
	// MaxCommits is how many of the most recent non-merge commits are read.
	MaxCommits int
	// PriorCommits is how many of those (the most recent) count for Prior.
	PriorCommits int
	// MaxFilesPerCommit skips commits that touch more files than this
	// (mass renames, reformatting, vendoring): they say nothing about any
	// one file.
	MaxFilesPerCommit int
	// Git is the git executable; "" means "git" on PATH.
	Git string
}

// Commit is one commit as history sees it: its message and the files it
// changed (relative to the root).
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
	maxLog  float64

	indexOnce sync.Once
	msgIndex  *messageIndex // built on first use by Similar
}

// Field separators of the log format: a record starts with \x1e, the
// message ends with \x1f, and the changed files follow, one per line.
const (
	recordSep = "\x1e"
	fieldSep  = "\x1f"
)

// Load reads the recent history of the tree at root (paths are relative
// to root even when it is a subdirectory of the checkout). A root that is
// not in a git checkout, or a machine without git, gives empty stats and
// no error; only a cancelled ctx is an error.
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
	parse(out, opt.MaxFilesPerCommit, st)
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
	return opt
}

// gitLog runs the git log that Load parses (cache.go keeps its output).
func gitLog(ctx context.Context, root string, opt Options) ([]byte, error) {
	git := opt.Git
	if git == "" {
		git = "git"
	}
	cmd := exec.CommandContext(ctx, git, "-C", root,
		"-c", "core.quotePath=false", "-c", "diff.renames=false", "-c", "log.showSignature=false",
		"log", "-n", fmt.Sprint(opt.MaxCommits), "--no-merges", "--name-only", "--no-color",
		"--format=tformat:"+recordSep+"%s%n%b"+fieldSep, "--relative", "--", ".")
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	return cmd.Output()
}

// parse reads the log written with the format of Load. Commits touching
// more than maxFiles files keep their message but no files.
func parse(out []byte, maxFiles int, st *Stats) {
	for _, rec := range bytes.Split(out, []byte(recordSep)) {
		msg, files, ok := bytes.Cut(rec, []byte(fieldSep))
		if !ok {
			continue
		}
		c := Commit{Message: strings.TrimSpace(string(msg))}
		c.Subject, _, _ = strings.Cut(c.Message, "\n")
		for _, line := range strings.Split(string(files), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				c.Files = append(c.Files, line)
			}
		}
		if len(c.Files) > maxFiles {
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
