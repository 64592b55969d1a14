package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/ignore"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
	"github.com/ctxexpand/ctxexpand/rank"
)

// copyTree copies the sample repository src into a fresh directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	testfiles.CopyDir(t, src, dst)
	return dst
}

// TestIgnoreRules loads a copy of gosvc whose .gitignore ignores one
// package and whose configured generated patterns name another, once, and
// checks both through Open and Query.
func TestIgnoreRules(t *testing.T) {
	root := copyTree(t, filepath.Join(repoRoot(t), "testdata", "gosvc"))
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("# the auth package is private\ninternal/auth/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ignore.Load(root, ignore.Options{Generated: []string{"internal/models/"}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), root, LoadOptions{Ignore: m.Match, Generated: m.MatchGenerated, IgnoreProblems: m.Problems})
	if err != nil {
		t.Fatal(err)
	}
	s.FixedCommit = "0000000000000000000000000000000000000000"
	t.Run("ignored files never reach the output", func(t *testing.T) { checkIgnoredNeverOutput(t, s) })
	t.Run("configured generated files are demoted", func(t *testing.T) { checkGenerated(t, s) })
}

// checkIgnoredNeverOutput checks every place a path can surface: the
// loaded facts, the ranking, the bundle and @grep results.
func checkIgnoredNeverOutput(t *testing.T, s *Session) {
	for _, f := range s.Facts.Files {
		if strings.HasPrefix(f.Path, "internal/auth/") {
			t.Errorf("ignored file %s was loaded", f.Path)
		}
	}
	queries := []string{
		"the login token expires too early",
		"fix auth.Verify rejecting fresh tokens",
		`where is the token signed @grep:"Token"`,
	}
	for _, q := range queries {
		out, err := s.Query(context.Background(), Request{Query: q, Budget: 16000, MaxFiles: 30, Format: "json", NoNetwork: true})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if len(out.Result.Files) == 0 {
			t.Errorf("%q: nothing ranked; the test would prove nothing", q)
		}
		for _, f := range out.Result.Files {
			if strings.HasPrefix(f.Path, "internal/auth/") {
				t.Errorf("%q: ignored file %s ranked", q, f.Path)
			}
		}
		var doc struct {
			Files []struct{ Path string } `json:"files"`
		}
		if err := json.Unmarshal(out.Bundle, &doc); err != nil {
			t.Fatalf("%q: bundle is not JSON: %v", q, err)
		}
		for _, f := range doc.Files {
			if strings.HasPrefix(f.Path, "internal/auth/") {
				t.Errorf("%q: ignored file %s in the bundle", q, f.Path)
			}
		}
		for _, e := range out.Extras {
			for _, line := range strings.Split(e.Content, "\n") {
				if strings.HasPrefix(line, "internal/auth/") {
					t.Errorf("%q: ignored file in %s results: %s", q, e.Kind, line)
				}
			}
		}
	}
}

// checkGenerated checks that configured generated patterns demote files
// and that request weights reach the ranking.
func checkGenerated(t *testing.T, s *Session) {
	for _, f := range s.Facts.Files {
		gen := strings.HasPrefix(f.Path, "internal/models/")
		if gen != (f.Category == analyze.CatGenerated) {
			t.Errorf("%s: category %v", f.Path, f.Category)
		}
	}
	query := "fix UserService.find_by_email"
	// The hand-weighted ranker multiplies by the category's factor and
	// says so.
	base, err := s.Query(context.Background(), Request{Query: query, MaxFiles: 30, Ranker: expand.RankerHand})
	if err != nil {
		t.Fatal(err)
	}
	if f := fileRank(base, "internal/models/user.go"); f == nil || !containsReason(f.Reasons, "demoted: generated") {
		t.Errorf("internal/models/user.go not demoted as generated: %+v", f)
	}
	w := rank.DefaultWeights
	w.Generated = 0 // a zero factor drops the category from the ranking, whichever the ranker
	for _, ranker := range []string{expand.RankerHand, expand.RankerLearned} {
		noGen, err := s.Query(context.Background(), Request{Query: query, MaxFiles: 30, Weights: w, Ranker: ranker})
		if err != nil {
			t.Fatal(err)
		}
		if len(noGen.Result.Files) == 0 {
			t.Fatalf("%s: nothing ranked", ranker)
		}
		for _, f := range noGen.Result.Files {
			if strings.HasPrefix(f.Path, "internal/models/") {
				t.Errorf("%s: generated file %s ranked with weights.generated = 0", ranker, f.Path)
			}
		}
	}
}

func fileRank(o *Output, path string) *rank.FileRank {
	for i := range o.Result.Files {
		if o.Result.Files[i].Path == path {
			return &o.Result.Files[i].FileRank
		}
	}
	return nil
}

func containsReason(rs []string, sub string) bool {
	for _, r := range rs {
		if strings.Contains(r, sub) {
			return true
		}
	}
	return false
}
