package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// benchRepo makes OWNER+NAME/repo under reposDir from a sample repository:
// a base commit holding the sample as it is, then a fix commit that edits
// one file. It returns the two commit hashes.
func benchRepo(t *testing.T, reposDir, name, sample, fixFile, fixLine string) (base, fix string) {
	t.Helper()
	dir := filepath.Join(reposDir, name, "repo")
	src := filepath.Join("..", "..", "..", "..", "testdata", sample)
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
			"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-qm", "base")
	base = git("rev-parse", "HEAD")
	f, err := os.OpenFile(filepath.Join(dir, fixFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, fixLine)
	f.Close()
	git("commit", "-qam", "the fix")
	return base, git("rev-parse", "HEAD")
}

// benchDataset builds the Go and Rust sample repositories under a new
// repositories folder and a dataset of one fix in each; both queries name
// the symbol to fix.
func benchDataset(t *testing.T) (repos, dataset string) {
	t.Helper()
	repos = t.TempDir()
	goBase, goFix := benchRepo(t, repos, "acme+usersvc", "gosvc", "internal/service/user.go", "// checked")
	rsBase, rsFix := benchRepo(t, repos, "acme+user-svc", "rustsvc", "src/service.rs", "// checked")
	var ds bytes.Buffer
	for _, in := range []map[string]any{
		{"id": "acme/usersvc@" + goFix[:10], "repo": "acme/usersvc", "lang": "go", "commit": goFix, "base": goBase,
			"query": "fix UserService.find_by_email", "gold_files": []string{"internal/service/user.go"}, "test_files": []string{}},
		{"id": "acme/user-svc@" + rsFix[:10], "repo": "acme/user-svc", "lang": "rust", "commit": rsFix, "base": rsBase,
			"query": "UserService::find_by_email misses mixed-case addresses", "gold_files": []string{"src/service.rs"}, "test_files": []string{}},
	} {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		ds.Write(append(b, '\n'))
	}
	dataset = filepath.Join(t.TempDir(), "small.jsonl")
	if err := os.WriteFile(dataset, ds.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return repos, dataset
}

// TestBenchCommand runs `ctxexpand bench` end to end on a small dataset
// over git repositories built from the samples: checkouts, every ranker,
// the markdown table, the JSON and the chart.
func TestBenchCommand(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repos, dataset := benchDataset(t)
	work := t.TempDir()
	out := t.TempDir()
	jsonOut, chart := filepath.Join(out, "r.json"), filepath.Join(out, "r.png")
	code, stdout, stderr := run(t, "bench", "--dataset", dataset, "--repos", repos, "--work", work,
		"--rankers", "bm25,ctxexpand,ctxexpand-focused", "--json", jsonOut, "--chart", chart)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"### All (N=2)", "### Go (N=1)", "### Rust (N=1)", "| bm25 |", "| ctxexpand |", "| ctxexpand-focused |", "inc@16k"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	// Both instances name the symbol to fix: ctxexpand must put the gold
	// file first (hit@1 = 1.00 in every group).
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "| ctxexpand |") && !strings.HasPrefix(line, "| ctxexpand | 1.00 |") {
			t.Errorf("ctxexpand row %q, want hit@1 1.00", line)
		}
	}
	var rep struct {
		Instances []struct {
			ID      string `json:"id"`
			Results []struct {
				Ranker string `json:"ranker"`
				Gold   []struct {
					Path string `json:"path"`
					Rank int    `json:"rank"`
				} `json:"gold"`
			} `json:"results"`
		} `json:"instances"`
	}
	b, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("results JSON: %v", err)
	}
	if len(rep.Instances) != 2 || len(rep.Instances[0].Results) != 3 {
		t.Fatalf("results JSON has %d instances, want 2 with 3 rankers each", len(rep.Instances))
	}
	png, err := os.ReadFile(chart)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("chart is not a PNG: %v", err)
	}
	// A second run reuses the checkouts.
	code, _, stderr = run(t, "bench", "--dataset", dataset, "--repos", repos, "--work", work, "--rankers", "bm25", "--json", "", "--chart", "")
	if code != ExitOK || !strings.Contains(stderr, "2 reused") {
		t.Errorf("second run: exit %d, stderr %q; want the checkouts reused", code, stderr)
	}
}

// TestBenchTextWeights compares named sets of query.TextWeights: bm25 and
// one row per set, each loaded once per commit; a file that is not such a
// set is a usage error.
func TestBenchTextWeights(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repos, dataset := benchDataset(t)
	weights := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(weights, []byte(`{"plain": {"Title": 1, "Code": 1, "Foreign": 0.5, "Output": 0.5, "SynonymTerms": 40, "EntityProse": 1, "EntityCode": 1, "EntityPlain": 1},
		"title": {"Title": 2, "Code": 0.5, "Foreign": 0.25, "Output": 0.25, "SynonymTerms": 40, "EntityProse": 0.5, "EntityCode": 0.3, "EntityPlain": 0.5}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, "bench", "--dataset", dataset, "--repos", repos, "--work", t.TempDir(), "--text-weights", weights, "--json", "", "--chart", "")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, row := range []string{"| bm25 |", "| ctxexpand-tw-plain | 1.00 |", "| ctxexpand-tw-title | 1.00 |"} {
		if !strings.Contains(stdout, row) {
			t.Errorf("table lacks %q:\n%s", row, stdout)
		}
	}
	if err := os.WriteFile(weights, []byte(`["not", "a", "set"]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "bench", "--dataset", dataset, "--repos", repos, "--work", t.TempDir(), "--text-weights", weights); code != ExitUsage || !strings.Contains(stderr, "named query.TextWeights") {
		t.Errorf("bad weights file: exit %d, stderr %q; want a usage error", code, stderr)
	}
}
