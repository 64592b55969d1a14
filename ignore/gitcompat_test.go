package ignore

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// writeTree extracts a txtar archive into dir.
func writeTree(t testing.TB, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// kept walks root the way a loader does, pruning ignored directories, and
// returns the files the matcher keeps.
func kept(t testing.TB, m *Matcher, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" || m.Match(rel, true) {
				return filepath.SkipDir
			}
			return nil
		}
		if !m.Match(rel, false) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// gitKept asks git which untracked files of the repository at dir it does
// not ignore, with no user or system configuration.
func gitKept(t testing.TB, dir string) []string {
	t.Helper()
	run := func(args ...string) []byte {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return out
	}
	run("init", "-q")
	var files []string
	for _, f := range strings.Split(string(run("ls-files", "--others", "--exclude-standard", "-z")), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	return files
}

// gitScenarios are trees whose ignore rules exercise the corners where
// other Go gitignore matchers part from git.
var gitScenarios = map[string]string{
	"basics": `
-- .gitignore --
# logs and build output
*.log
build/
!important.log
/root-only.txt
thing/
-- a.log --
-- important.log --
-- root-only.txt --
-- sub/root-only.txt --
-- build/out.go --
-- src/build/gen.go --
-- thing --
-- src/main.go --
`,
	"negated-parent-dir": `
-- .gitignore --
*.tmp
!keep/
-- keep/a.tmp --
-- keep/a.go --
-- b.tmp --
`,
	"cannot-reinclude-inside-ignored-dir": `
-- .gitignore --
logs/
!logs/keep.txt
data/*
!data/keep.txt
-- logs/keep.txt --
-- logs/other.txt --
-- data/keep.txt --
-- data/other.txt --
-- data/deep/keep.txt --
`,
	"double-star": `
-- .gitignore --
a/**/b/c
**/deep
x/**
!x/keep.go
-- a/b/x/b/c --
-- a/b/c --
-- a/b/x/c --
-- q/r/deep --
-- deep/file.go --
-- x/drop.go --
-- x/keep.go --
-- x/sub/keep.go --
`,
	"classes-and-escapes": `
-- .gitignore --
[!0-9].dat
v[[:digit:]]*.go
\#hash
\!bang
sp\ 
[]a].txt
-- x.dat --
-- 7.dat --
-- v1.go --
-- vx.go --
-- #hash --
-- !bang --
-- sp --
-- ].txt --
-- a.txt --
-- b.txt --
`,
	"nested": `
-- .gitignore --
*.gen
-- sub/.gitignore --
!*.gen
/local.txt
deeper/x.txt
-- a.gen --
-- sub/a.gen --
-- sub/local.txt --
-- sub/deeper/local.txt --
-- sub/deeper/x.txt --
-- sub/deeper/more/x.txt --
-- local.txt --
`,
	"info-exclude": `
-- .git/info/exclude --
*.secret
-- .gitignore --
!visible.secret
-- a.secret --
-- visible.secret --
-- sub/b.secret --
`,
}

// TestMatchesGit compares the matcher with git on every scenario.
func TestMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for name, archive := range gitScenarios {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, archive)
			m, err := Load(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := kept(t, m, dir)
			want := gitKept(t, dir)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("kept files differ from git's (-git +ours):\n%s", diff)
			}
		})
	}
}

// TestMatchesGitRandom compares the matcher with git on random rules over
// a small alphabet, where the corners of "**", anchoring, negation and
// nesting meet. The seed is fixed so that a failure reproduces.
func TestMatchesGitRandom(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if testing.Short() {
		t.Skip("runs git many times")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	names := []string{"a", "b", "ab"}
	segs := []string{"a", "b", "ab", "*", "**", "?", "[ab]", "[!a]*", "a*"}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	pattern := func() string {
		n := 1 + rng.IntN(3)
		var parts []string
		for range n {
			parts = append(parts, pick(segs))
		}
		p := strings.Join(parts, "/")
		if rng.IntN(4) == 0 {
			p = "/" + p
		}
		if rng.IntN(4) == 0 {
			p += "/"
		}
		if rng.IntN(3) == 0 {
			p = "!" + p
		}
		return p
	}
	for i := range 25 {
		var b strings.Builder
		files := map[string]bool{}
		for range 14 {
			depth := 1 + rng.IntN(4)
			var parts []string
			for range depth {
				parts = append(parts, pick(names))
			}
			files[strings.Join(parts, "/")+".f"] = true
		}
		rules := map[string][]string{"": nil, "a": nil, "b/a": nil}
		for dir := range rules {
			for range 1 + rng.IntN(4) {
				rules[dir] = append(rules[dir], pattern())
			}
		}
		for _, dir := range sortedKeys(rules) {
			name := ".gitignore"
			if dir != "" {
				name = dir + "/.gitignore"
			}
			fmt.Fprintf(&b, "-- %s --\n%s\n", name, strings.Join(rules[dir], "\n"))
		}
		for _, f := range sortedKeys(files) {
			fmt.Fprintf(&b, "-- %s --\n", f)
		}
		dir := t.TempDir()
		writeTree(t, dir, b.String())
		m, err := Load(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, want := kept(t, m, dir), gitKept(t, dir)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("case %d differs from git (-git +ours):\n%s\ntree:\n%s", i, diff, b.String())
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
