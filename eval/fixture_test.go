package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Fixture repositories live in testdata/repos/NAME/NN.txtar: each archive
// is one commit, its comment the commit message, its files written over
// the tree before committing. buildFixtures turns them into mirrors laid
// out like a real REPOS_DIR (acme+NAME/repo) and returns the commit ids of
// each repository in order.

type fixtures struct {
	reposDir string
	commits  map[string][]string // "acme/shop" → commit ids, oldest first
}

// gitEnv isolates git from the user's configuration and pins identities
// and dates, for every git the test and the code under test run.
func gitEnv(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Fixture")
	t.Setenv("GIT_AUTHOR_EMAIL", "fixture@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "Fixture")
	t.Setenv("GIT_COMMITTER_EMAIL", "fixture@example.com")
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitOut(dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

func buildFixtures(t *testing.T) fixtures {
	t.Helper()
	gitEnv(t)
	tmp := t.TempDir()
	fx := fixtures{reposDir: filepath.Join(tmp, "repos"), commits: map[string][]string{}}
	names, err := os.ReadDir("testdata/repos")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		name := n.Name()
		src := filepath.Join(tmp, "src", name)
		if err := os.MkdirAll(src, 0o755); err != nil {
			t.Fatal(err)
		}
		runGit(t, src, "init", "-q", "-b", "main")
		steps, _ := filepath.Glob(filepath.Join("testdata/repos", name, "*.txtar"))
		sort.Strings(steps)
		for i, step := range steps {
			ar, err := txtar.ParseFile(step)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				p := filepath.Join(src, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			runGit(t, src, "add", "-A")
			date := fmt.Sprintf("2024-01-0%dT10:00:00Z", i+1)
			t.Setenv("GIT_AUTHOR_DATE", date)
			t.Setenv("GIT_COMMITTER_DATE", date)
			runGit(t, src, "commit", "-q", "-m", strings.TrimSpace(string(ar.Comment)))
			fx.commits["acme/"+name] = append(fx.commits["acme/"+name], runGit(t, src, "rev-parse", "HEAD"))
		}
		runGit(t, src, "tag", "v1")
		mirror := filepath.Join(fx.reposDir, "acme+"+name, "repo")
		runGit(t, tmp, "clone", "-q", "--mirror", src, mirror)
	}
	return fx
}

// instances returns the fixture dataset: two Go fixes in acme/shop, one
// Rust fix in acme/tool, and one instance of a repository that is missing.
func (fx fixtures) instances() []Instance {
	shop, tool := fx.commits["acme/shop"], fx.commits["acme/tool"]
	return []Instance{
		{
			ID: "acme/shop@" + shop[1][:10], Repo: "acme/shop", Lang: "go",
			Commit: shop[1], Base: shop[0],
			Query:     "cart: fix discount rounding in Total",
			GoldFiles: []string{"cart/cart.go"}, TestFiles: []string{"cart/cart_test.go"},
		},
		{
			ID: "acme/shop@" + shop[2][:10], Repo: "acme/shop", Lang: "go",
			Commit: shop[2], Base: shop[1],
			Query:     "payment: refund must not exceed the charged amount",
			GoldFiles: []string{"payment/charge.go", "payment/refund.go"},
		},
		{
			ID: "acme/tool@" + tool[1][:10], Repo: "acme/tool", Lang: "rust",
			Commit: tool[1], Base: tool[0],
			Query:     "parser: handle empty input without panicking",
			GoldFiles: []string{"src/parser.rs"},
		},
		{
			ID: "acme/gone@1111111111", Repo: "acme/gone", Lang: "go",
			Commit: strings.Repeat("1", 40), Base: strings.Repeat("2", 40),
			Query: "anything", GoldFiles: []string{"main.go"},
		},
	}
}

// writeDataset writes instances as a JSON-lines file and returns its path.
func writeDataset(t *testing.T, insts []Instance) string {
	t.Helper()
	var b strings.Builder
	for _, in := range insts {
		line, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "dataset.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
