package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// gitSignals lists, per ranked file, the contributions and reasons that
// come from version control.
func gitSignals(o *Output) map[string][]string {
	out := map[string][]string{}
	for _, f := range o.Result.Files {
		for _, c := range f.Contribs {
			if c.What == "commits" || c.What == "history" {
				out[f.Path] = append(out[f.Path], c.What)
			}
		}
		for _, r := range f.Reasons {
			if strings.HasPrefix(r, "changed ") {
				out[f.Path] = append(out[f.Path], r)
			}
		}
	}
	return out
}

// TestHistoryOfAFolder: the sample service as a folder of a larger
// checkout, added by one commit. That commit changed every file of the
// folder, so history tells none apart: no file gets a git score or reason
// (make demo runs on such a folder). Once one commit changes the token
// code, that file, and only that one, is said to have changed, and a query
// like the commit's message hears of it.
func TestHistoryOfAFolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top := t.TempDir()
	svc := filepath.Join(top, "services", "users")
	if err := os.MkdirAll(filepath.Dir(svc), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(copyTree(t, filepath.Join(repoRoot(t), "testdata", "gosvc")), svc); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		p := filepath.Join(top, "tools", fmt.Sprintf("t%d.sh", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("echo user service\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, top, "init", "-q")
	git(t, top, "add", ".")
	git(t, top, "commit", "-qm", "users: sample user service with login tokens")

	query := func(q string) *Output {
		t.Helper()
		s, err := Open(context.Background(), svc, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The hand-weighted ranker names the git signals it used; the
		// learned one reads the same values as features (commits, prior)
		// and lists every feature's share, zero-valued ones included.
		out, err := s.Query(context.Background(), Request{Query: q, MaxFiles: 30, Ranker: expand.RankerHand})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	const q = "the login token expires too early"
	if got := gitSignals(query(q)); len(got) != 0 {
		t.Errorf("one commit that added the folder gave git signals:\n%v", got)
	}

	testfiles.EditFile(t, svc, "internal/auth/token.go", func(s string) string { return s + "\n// Tokens expire after the configured TTL.\n" })
	git(t, top, "commit", "-qam", "users: tokens issued at login expire after the configured TTL")
	want := map[string][]string{"internal/auth/token.go": {
		"commits", "history",
		"changed by a similar past commit: users: tokens issued at login expire after the configured TTL",
		"changed in 1 of the last 2 commits",
	}}
	if diff := cmp.Diff(want, gitSignals(query(q))); diff != "" {
		t.Errorf("git signals after a commit to one file (-want +got):\n%s", diff)
	}
}
