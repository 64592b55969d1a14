// Command mine builds a localization dataset from the history of public
// repositories: each kept commit is an instance in the JSON-lines schema of
// the benchmark's dev split (../shared/bench/README.md; eval.Instance),
// with the cleaned commit message as the query and the source files the
// commit modified as the answer.
//
// Usage:
//
//	go run ./benchmarks/mine -repos benchmarks/data/train-repos.txt \
//	    -root /work/bench/train-repos -exclude ../shared/bench/dev.jsonl \
//	    -out benchmarks/data/train.jsonl
//
// Each line of the -repos file is "owner/name lang [commit]"; the commit
// pins the head of the history that is mined (without it, the mirror's HEAD
// is used and reported, so that the line can be pinned). Repositories are
// read from ROOT/owner+name/repo, a git directory with full history.
// Repositories named in an -exclude file (a dataset or a repository list)
// are refused, so that training never sees the dev split's repositories.
//
// With -check DATASET, it mines nothing and reports instead how faithfully
// its rules rebuild an existing dataset, such as the dev split.
//
// -shape commit (the default) makes the dev split's queries: the subject
// and the body's first prose paragraph. -shape issue keeps only commits
// whose description reads as a bug report (a long body with output,
// traces, logs, commands, versions or reproduction steps) and makes the
// whole description the query.
//
// -shape doc mines no history: it makes pseudo-questions from the
// documented declarations of the tree at each repository's head, one per
// file, the first doc sentence with the declared name taken out as the
// query and the declaring file as the answer, asked at a commit made on
// top of the head without those comments (docq.go). -shape readme makes
// them from the sections of the head's markdown that name source files,
// by path or by a declared name in code marks: the heading or first
// sentence without those names as the query, the files as the answer
// (readmeq.go).
//
// The output is deterministic for a pinned list: the same commits, in the
// same order, byte for byte. A summary per repository goes to standard
// error, or as a markdown table to -summary.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/eval"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mine:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("mine", flag.ContinueOnError)
	fl.SetOutput(stderr)
	reposFile := fl.String("repos", "", "repository list: `FILE` of \"owner/name lang [commit]\" lines")
	root := fl.String("root", os.Getenv("CTXEXPAND_TRAIN_REPOS"), "`DIR` holding owner+name/repo git directories (default $CTXEXPAND_TRAIN_REPOS)")
	exclude := fl.String("exclude", "", "comma-separated datasets (.jsonl) or repository lists whose repositories must not be mined")
	shape := fl.String("shape", shapeCommit, "query shape: commit, issue, doc or readme")
	maxPer := fl.Int("max-per-repo", 150, "keep at most `N` instances a repository (0: all)")
	sinceS := fl.String("since", "2019-01-01", "mine commits from this `DATE` on")
	outFile := fl.String("out", "", "write the dataset to `FILE` (default standard output)")
	summary := fl.String("summary", "", "write a markdown table of counts per repository to `FILE`")
	check := fl.String("check", "", "instead of mining, report how faithfully the rules rebuild the dataset `FILE` (its repositories under -root)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *check != "" {
		if *root == "" {
			return errors.New("-check needs -root DIR, the folder of the dataset's repositories")
		}
		return checkDataset(ctx, *check, *root, stdout)
	}
	if *reposFile == "" || *root == "" {
		return errors.New("need -repos FILE and -root DIR (or $CTXEXPAND_TRAIN_REPOS); see the benchmarks README for the commands")
	}
	if *shape != shapeCommit && *shape != shapeIssue && *shape != shapeDoc && *shape != shapeReadme {
		return fmt.Errorf("-shape %q: use %q, %q, %q or %q", *shape, shapeCommit, shapeIssue, shapeDoc, shapeReadme)
	}
	since, err := time.Parse("2006-01-02", *sinceS)
	if err != nil {
		return fmt.Errorf("-since %q: want YYYY-MM-DD", *sinceS)
	}
	specs, err := readRepoList(*reposFile)
	if err != nil {
		return err
	}
	banned := map[string]string{}
	for _, f := range strings.Split(*exclude, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		repos, err := reposOf(f)
		if err != nil {
			return err
		}
		for _, r := range repos {
			banned[strings.ToLower(r)] = f
		}
	}
	for _, s := range specs {
		if f, ok := banned[strings.ToLower(s.Repo)]; ok {
			return fmt.Errorf("%s is in %s, which -exclude names: take it out of %s", s.Repo, f, *reposFile)
		}
	}
	opt := options{Shape: *shape, MaxPerRepo: *maxPer, Since: since}
	var all []eval.Instance
	var results []repoResult
	for _, s := range specs {
		gitDir := filepath.Join(*root, eval.RepoDirName(s.Repo), "repo")
		if fi, err := os.Stat(filepath.Join(gitDir, ".git")); err == nil && fi.IsDir() {
			gitDir = filepath.Join(gitDir, ".git") // a clone with a work tree
		}
		mine := mineRepo
		switch opt.Shape {
		case shapeDoc:
			mine = mineDocs
		case shapeReadme:
			mine = mineReadme
		}
		res, err := mine(ctx, gitDir, s, opt)
		if err != nil {
			return fmt.Errorf("mining %s: %w", s.Repo, err)
		}
		if s.Head == "" {
			fmt.Fprintf(stderr, "unpinned: %s %s %s\n", s.Repo, s.Lang, res.Head)
		}
		fmt.Fprintf(stderr, "%-32s %-4s %s %6d  eligible %5d  kept %4d\n",
			s.Repo, s.Lang, walkedWord(opt.Shape), res.Walked, res.Eligible, len(res.Instances))
		results = append(results, res)
		all = append(all, res.Instances...)
	}
	var buf bytes.Buffer
	for _, inst := range all {
		line, err := json.Marshal(inst)
		if err != nil {
			return err
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if *outFile == "" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return err
		}
	} else if err := os.WriteFile(*outFile, buf.Bytes(), 0o644); err != nil {
		return err
	}
	if *summary != "" {
		if err := os.WriteFile(*summary, []byte(summaryTable(results, opt.Shape)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readRepoList reads "owner/name lang [commit]" lines; '#' starts a comment.
func readRepoList(file string) ([]repoSpec, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the repository list: %w", err)
	}
	var specs []repoSpec
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 2 || len(f) > 3 || (f[1] != eval.LangGo && f[1] != eval.LangRust) || !strings.Contains(f[0], "/") {
			return nil, fmt.Errorf("%s:%d: want \"owner/name go|rust [commit]\", got %q", file, i+1, strings.TrimSpace(line))
		}
		if seen[strings.ToLower(f[0])] {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", file, i+1, f[0])
		}
		seen[strings.ToLower(f[0])] = true
		s := repoSpec{Repo: f[0], Lang: f[1]}
		if len(f) == 3 {
			s.Head = f[2]
		}
		specs = append(specs, s)
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("%s lists no repository", file)
	}
	return specs, nil
}

// reposOf lists the repositories of a dataset (.jsonl: the repo field of
// each line) or of a repository list (the first word of each line).
func reposOf(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("reading -exclude: %w", err)
	}
	defer f.Close()
	var repos []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "{") {
			var r struct {
				Repo string `json:"repo"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			repos = append(repos, r.Repo)
			continue
		}
		repos = append(repos, strings.Fields(line)[0])
	}
	return repos, sc.Err()
}

// summaryTable is a markdown table of the instances kept per repository
// and language, with totals.
func summaryTable(results []repoResult, shape string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| repository | lang | head | %s | eligible | kept |\n| --- | --- | --- | ---: | ---: | ---: |\n", walkedWord(shape))
	byLang := map[string][2]int{}
	sorted := append([]repoResult(nil), results...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Spec.Lang != sorted[j].Spec.Lang {
			return sorted[i].Spec.Lang < sorted[j].Spec.Lang
		}
		return strings.ToLower(sorted[i].Spec.Repo) < strings.ToLower(sorted[j].Spec.Repo)
	})
	for _, r := range sorted {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d |\n", r.Spec.Repo, r.Spec.Lang, r.Head[:10], r.Walked, r.Eligible, len(r.Instances))
		c := byLang[r.Spec.Lang]
		c[0]++
		c[1] += len(r.Instances)
		byLang[r.Spec.Lang] = c
	}
	total := [2]int{}
	for _, l := range []string{eval.LangGo, eval.LangRust} {
		c := byLang[l]
		fmt.Fprintf(&b, "| **%s: %d repositories** | | | | | **%d** |\n", l, c[0], c[1])
		total[0] += c[0]
		total[1] += c[1]
	}
	fmt.Fprintf(&b, "| **all: %d repositories** | | | | | **%d** |\n", total[0], total[1])
	return b.String()
}

// walkedWord names what a shape's miner walks: commits, documented
// declarations for -shape doc, markdown sections for -shape readme.
func walkedWord(shape string) string {
	switch shape {
	case shapeDoc:
		return "documented declarations"
	case shapeReadme:
		return "markdown sections"
	}
	return "commits walked"
}
