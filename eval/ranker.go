package eval

import (
	"context"
	"fmt"
	"path"
	"runtime/debug"
)

// Ranker is a localization method under evaluation. With more than one
// job, Rank is called concurrently on different instances.
type Ranker interface {
	// Name labels the ranker in reports; it must be unique within a run.
	Name() string
	// Rank analyses the checkout at root for inst.Query and returns
	// repository-relative, slash-separated paths, best first, with the
	// reasons for each, and for each budget in budgets (tokens) the files
	// whose relevant content made it into the bundle of that size.
	//
	// inst carries the query and the tree's identity only: the gold files,
	// the fix commit and everything derived from the fix are removed
	// before a ranker sees it.
	Rank(ctx context.Context, root string, inst Instance, budgets []int) (Ranking, error)
}

// Ranking is a ranker's answer for one instance.
type Ranking struct {
	// Files are ranked best first. Non-source files and repeats are
	// dropped before scoring, so a ranker may include tests as context.
	Files []RankedFile
	// Bundles maps each requested budget to the files whose relevant
	// content is in the bundle built with that many tokens. A budget that
	// is missing counts as an empty bundle.
	Bundles map[int][]string
	// FeatureNames and Candidates are the feature vectors of the files a
	// learned ranker scores, when the ranker was asked for them (for
	// training data; see Options.DumpDir).
	FeatureNames []string
	Candidates   []Candidate
	// Functions are the functions the ranker ranks, best first; nil when
	// it ranks files only (the runner then derives an order, funcs.go).
	Functions []RankedFunc
	// Shown maps each budget to the lines of each file that its bundle
	// shows; nil means that the bundles hold whole files.
	Shown map[int]map[string][]LineRange
}

// Candidate is a file a learned ranker scores, with its features in
// Ranking.FeatureNames order.
type Candidate struct {
	Path     string
	Features []float64
}

// RankedFile is one ranked path with the ranker's reasons for it.
type RankedFile struct {
	Path    string   `json:"path"`
	Score   float64  `json:"score"`
	Reasons []string `json:"reasons,omitempty"`
	// Contribs are the named parts of the score (each feature's
	// contribution for a learned ranker), strongest first.
	Contribs []Contrib `json:"contribs,omitempty"`
}

// Contrib is one named part of a file's score.
type Contrib struct {
	What   string  `json:"what"`
	Value  float64 `json:"value"`
	Detail string  `json:"detail,omitempty"`
}

// Paths returns the ranked paths in order.
func (r Ranking) Paths() []string {
	out := make([]string, len(r.Files))
	for i, f := range r.Files {
		out[i] = f.Path
	}
	return out
}

// scoredList cleans a ranker's paths for scoring: each path cleaned, paths
// that do not count for inst dropped (scoredFor), repeats dropped (the
// first occurrence keeps its place). It returns the kept paths and, for
// each, its index in the ranker's list.
func scoredList(files []RankedFile, inst Instance) ([]string, []int) {
	var out []string
	var idx []int
	seen := map[string]bool{}
	for i, f := range files {
		p := normPath(f.Path)
		if p == "" || seen[p] || !scoredFor(p, inst) {
			continue
		}
		seen[p] = true
		out = append(out, p)
		idx = append(idx, i)
	}
	return out, idx
}

// normPath cleans a ranker-supplied path; it returns "" for paths that are
// absolute or leave the root.
func normPath(p string) string {
	if p == "" {
		return ""
	}
	c := path.Clean(p)
	if !cleanRel(c) {
		return ""
	}
	return c
}

// safeRank calls r.Rank, turning a panic into an error so that one broken
// instance cannot sink the run.
func safeRank(ctx context.Context, r Ranker, root string, inst Instance, budgets []int) (rk Ranking, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("ranker %s panicked: %v\n%s", r.Name(), p, debug.Stack())
		}
	}()
	return r.Rank(ctx, root, inst, budgets)
}
