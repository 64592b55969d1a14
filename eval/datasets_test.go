package eval

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShippedDatasets loads the datasets under benchmarks/data and holds
// the rules they were made by: the question set names a kind for every
// instance and none of the repositories held out for questions; dev-train
// is drawn from the training split.
func TestShippedDatasets(t *testing.T) {
	dir := filepath.Join("..", "benchmarks", "data")
	load := func(name string) []Instance {
		t.Helper()
		insts, err := LoadDataset(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return insts
	}
	heldOut := map[string]bool{"gin-gonic/gin": true, "spf13/cobra": true, "go-chi/chi": true,
		"tokio-rs/tokio": true, "serde-rs/serde": true, "tokio-rs/axum": true}
	questions := load("questions-dev.jsonl")
	if len(questions) < 150 {
		t.Errorf("%d questions, want at least 150", len(questions))
	}
	for _, q := range questions {
		if q.Kind != "question" && q.Kind != "lookup" {
			t.Errorf("%s: kind %q", q.ID, q.Kind)
		}
		if heldOut[q.Repo] {
			t.Errorf("%s: %s is held out for questions", q.ID, q.Repo)
		}
	}
	// The training split: big enough (issue 21: 12,000 commits of 70
	// repositories), and none of it from a repository we are judged on,
	// a dev repository or an issue-text dev repository.
	judged := map[string]bool{"restic/restic": true, "syncthing/syncthing": true,
		"helix-editor/helix": true, "tokio-rs/tracing": true, "sharkdp/fd": true,
		"rayon-rs/rayon": true, "tokio-rs/bytes": true}
	for _, in := range load("issues-dev.jsonl") {
		judged[in.Repo] = true
	}
	// ../shared is beside a developer's checkout, not in CI's clone.
	if dev, err := LoadDataset(filepath.Join("..", "..", "shared", "bench", "dev.jsonl")); err == nil {
		for _, in := range dev {
			judged[in.Repo] = true
		}
	}
	train := map[string]bool{}
	trainRepos := map[string]bool{}
	for _, in := range load("train.jsonl") {
		train[in.ID] = true
		trainRepos[in.Repo] = true
		if judged[in.Repo] {
			t.Errorf("%s: %s must not be in the training split", in.ID, in.Repo)
		}
	}
	if len(train) < 12000 || len(trainRepos) < 70 {
		t.Errorf("training split: %d commits of %d repositories, want at least 12,000 of 70", len(train), len(trainRepos))
	}
	devTrain := map[string]bool{}
	for _, in := range load("dev-train.jsonl") {
		if !train[in.ID] {
			t.Errorf("%s: in dev-train but not in the training split", in.ID)
		}
		devTrain[in.ID] = true
	}
	reviews := load("diff-dev.jsonl")
	if len(reviews) < 400 {
		t.Errorf("%d reviews, want at least 400", len(reviews))
	}
	for _, in := range reviews {
		commit, task, _ := strings.Cut(in.ID, "#")
		if in.Kind != KindDiff || !devTrain[commit] || (task != "tests" && task != "cochange") {
			t.Errorf("%s: kind %q; want a review (#tests or #cochange) of a dev-train commit", in.ID, in.Kind)
		}
		for _, g := range in.GoldFiles {
			if slices.Contains(in.DiffFiles, g) {
				t.Errorf("%s: %s is both under review and an answer", in.ID, g)
			}
		}
	}
}
