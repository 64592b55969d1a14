package githistory

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os/exec"
	"strings"
)

// Options configures Load. The zero value reads the last 500 commits.
type Options struct {
	// MaxCommits is how many of the most recent non-merge commits are read.
	MaxCommits int
	// MaxFilesPerCommit skips commits that touch more files than this
	// (mass renames, reformatting, vendoring): they say nothing about any
	// one file.
	MaxFilesPerCommit int
	// Git is the git executable; "" means "git" on PATH.
	Git string
}

// Stats is the recent history of a tree.
type Stats struct {
	// Commits is the number of commits read.
	Commits int
	// Touches counts, per path relative to the root, the commits read
	// that changed it.
	Touches map[string]int
	maxLog  float64
}

// Load reads the recent history of the tree at root (paths are relative
// to root even when it is a subdirectory of the checkout). A root that is
// not in a git checkout, or a machine without git, gives empty stats and
// no error; only a cancelled ctx is an error.
func Load(ctx context.Context, root string, opt Options) (*Stats, error) {
	if opt.MaxCommits <= 0 {
		opt.MaxCommits = 500
	}
	if opt.MaxFilesPerCommit <= 0 {
		opt.MaxFilesPerCommit = 50
	}
	git := opt.Git
	if git == "" {
		git = "git"
	}
	st := &Stats{Touches: map[string]int{}}
	cmd := exec.CommandContext(ctx, git, "-C", root,
		"-c", "core.quotePath=false", "-c", "diff.renames=false",
		"log", "-n", fmt.Sprint(opt.MaxCommits), "--no-merges", "--name-only",
		"--format=tformat:@@", "--relative", "--", ".")
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return st, nil // not a checkout, no git, no commits: no history
	}
	parse(out, opt.MaxFilesPerCommit, st)
	return st, nil
}

// parse reads `git log --name-only --format=tformat:@@` output.
func parse(out []byte, maxFiles int, st *Stats) {
	var files []string
	flush := func() {
		if files == nil {
			return
		}
		st.Commits++
		if len(files) <= maxFiles {
			for _, f := range files {
				st.Touches[f]++
			}
		}
		files = files[:0]
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "@@":
			flush()
			files = []string{}
		case line != "" && files != nil:
			files = append(files, line)
		}
	}
	flush()
	for _, n := range st.Touches {
		st.maxLog = math.Max(st.maxLog, math.Log1p(float64(n)))
	}
}

// Prior is the file's share of recent change, from 0 (untouched in the
// commits read) to 1 (the most changed file), on a log scale so that a
// file changed in every commit does not dwarf one changed in a few.
func (s *Stats) Prior(path string) float64 {
	if s == nil || s.maxLog == 0 {
		return 0
	}
	return math.Log1p(float64(s.Touches[path])) / s.maxLog
}
