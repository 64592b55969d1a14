package rank

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/eval"
)

// TestScorePlainIsTheBaseline checks that the index's plain whole-file
// scores are the benchmark baseline's (eval.BM25) on the same tree: same
// documents (source files only), same terms, same formula.
func TestScorePlainIsTheBaseline(t *testing.T) {
	files := map[string]string{
		"service/user.go":      "package service\n\n// FindByEmail looks a user up by email.\nfunc (s *UserService) FindByEmail(email string) (*User, error) {\n\treturn s.repo.GetByEmail(normalize(email))\n}\n",
		"auth/token.go":        "package auth\n\n// Issue signs a session token that expires after ttl.\nfunc Issue(user string, ttl int) string { return sign(user, ttl) }\n",
		"auth/email.go":        "package auth\n\nfunc normalize(email string) string { return strings.ToLower(email) }\n",
		"service/user_test.go": "package service\n\nfunc TestFindByEmail(t *testing.T) { FindByEmail(\"email\") }\n",
		"vendor/x/email.go":    "package x\n\nfunc Email() {}\n",
	}
	root := t.TempDir()
	var f analyze.Facts
	for _, p := range []string{"auth/email.go", "auth/token.go", "service/user.go", "service/user_test.go", "vendor/x/email.go"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		f.AddFile(analyze.File{Path: p, Lang: analyze.LangGo, Category: analyze.Classify(p)})
	}
	f.Normalize()
	src := mapSource(files).content(&f)
	ix, err := BuildIndex(context.Background(), &f, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"find user by email", "normalize the email of a user", "session token expires", "FindByEmail email email", "nothing here"} {
		want, err := eval.NewBM25().Rank(context.Background(), root, eval.Instance{Lang: "go", Query: q}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ix.ScorePlain(q)
		seen := map[string]bool{}
		for _, rf := range want.Files {
			seen[rf.Path] = true
			fid, _ := f.FileByPath(rf.Path)
			if math.Abs(got[fid]-rf.Score) > 1e-9 {
				t.Errorf("%q: %s scores %v, the baseline %v", q, rf.Path, got[fid], rf.Score)
			}
		}
		for i, v := range got {
			if v != 0 && !seen[f.Files[i].Path] {
				t.Errorf("%q: %s scores %v, the baseline does not rank it", q, f.Files[i].Path, v)
			}
		}
	}
}
