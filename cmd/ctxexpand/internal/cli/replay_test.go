package cli

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/eval"
)

// writeTestDump writes one instance's dump the way bench --dump-features
// lays it out, with the features replay's hand and bm25 read.
func writeTestDump(t *testing.T, dir, repo, commit string, rec eval.DumpRecord) {
	t.Helper()
	p := filepath.Join(dir, eval.RepoDirName(repo), commit+".json.gz")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if err := json.NewEncoder(zw).Encode(rec); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBenchReplay: --replay re-ranks dumped candidates by their features,
// with no repository, and reports paired differences.
func TestBenchReplay(t *testing.T) {
	dir := t.TempDir()
	features := []string{"hand", "bm25", "hand_rr", "q_entities"}
	// hand puts the gold file first, bm25 second.
	for i, repo := range []string{"a/go", "b/rust"} {
		lang := []string{"go", "rust"}[i]
		writeTestDump(t, dir, repo, strings.Repeat("1", 40), eval.DumpRecord{
			ID: repo + "@1111111111", Repo: repo, Lang: lang, Query: "fix the parser", Gold: []string{"gold.go"}, Features: features,
			Candidates: []eval.DumpCandidate{
				{Path: "gold.go", Label: 1, Scored: true, X: []json.Number{"1", "0.5", "1", "0"}},
				{Path: "other.go", Scored: true, X: []json.Number{"0.5", "1", "0.5", "0"}},
			},
		})
	}
	code, stdout, stderr := run(t, "bench", "--replay", dir, "--rankers", "hand,bm25", "--json", "")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"### All (N=2)", "| hand | 1.00 |", "| bm25 | 0.00 |", "### Paired differences against hand", "| All (N=2) | bm25 | -1.000"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if code, _, stderr := run(t, "bench", "--replay", dir, "--rankers", "nope", "--json", ""); code != ExitUsage || !strings.Contains(stderr, `unknown ranker "nope" for --replay`) {
		t.Errorf("unknown ranker: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run(t, "bench", "--replay", t.TempDir(), "--json", ""); code == ExitOK || !strings.Contains(stderr, "no feature dumps") {
		t.Errorf("empty dump directory: exit %d, %s", code, stderr)
	}
}

// TestBenchReplayQuestionModel: in a replay, the default ranker reads a
// question with --question-model and a fix with --model; with
// --question-model none, questions fall back to the hand weights.
func TestBenchReplayQuestionModel(t *testing.T) {
	dir := t.TempDir()
	features := []string{"hand", "bm25", "hand_rr", "q_entities"}
	// The fix's gold file is first by hand, the question's by bm25.
	writeTestDump(t, dir, "a/fix", strings.Repeat("1", 40), eval.DumpRecord{
		ID: "a/fix@1111111111", Repo: "a/fix", Lang: "go", Query: "fix the parser", Gold: []string{"gold.go"}, Features: features,
		Candidates: []eval.DumpCandidate{
			{Path: "gold.go", Label: 1, Scored: true, X: []json.Number{"1", "0.5", "1", "0"}},
			{Path: "other.go", Scored: true, X: []json.Number{"0.5", "1", "0.5", "0"}},
		},
	})
	writeTestDump(t, dir, "b/question", strings.Repeat("2", 40), eval.DumpRecord{
		ID: "b/question@2222222222", Repo: "b/question", Lang: "go", Query: "how are routes grouped and registered", Gold: []string{"gold.go"}, Features: features,
		Candidates: []eval.DumpCandidate{
			{Path: "gold.go", Label: 1, Scored: true, X: []json.Number{"0.5", "1", "0.5", "0"}},
			{Path: "other.go", Scored: true, X: []json.Number{"1", "0.5", "1", "0"}},
		},
	})
	model := func(name, feature string) string {
		p := filepath.Join(t.TempDir(), name)
		m := `{"version":1,"kind":"linear","features":["` + feature + `"],"weights":[1],"mean":[0],"scale":[1]}`
		if err := os.WriteFile(p, []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fixes, questions := model("fixes.json", "hand"), model("questions.json", "bm25")
	for _, c := range []struct {
		question string
		want     string // the ctxexpand row's hit@1
	}{
		{questions, "| ctxexpand | 1.00 |"},
		{"none", "| ctxexpand | 0.50 |"},
	} {
		code, stdout, stderr := run(t, "bench", "--replay", dir, "--model", fixes, "--question-model", c.question, "--rankers", "ctxexpand,hand", "--json", "")
		if code != ExitOK {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		if !strings.Contains(stdout, c.want) {
			t.Errorf("--question-model %s: report lacks %q:\n%s", c.question, c.want, stdout)
		}
	}
	if code, _, stderr := run(t, "bench", "--dataset", "x.jsonl", "--repos", dir, "--question-model", questions); code != ExitUsage || !strings.Contains(stderr, "--question-model are for --replay") {
		t.Errorf("--question-model without --replay: exit %d, %s", code, stderr)
	}
}
