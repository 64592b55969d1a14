package githistory

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/query"
	"github.com/google/go-cmp/cmp"
)

// logOf writes commits the way gitLog does, for a root at the top of a
// checkout of 1000 files.
func logOf(commits ...Commit) []byte {
	return logIn("", 1000, commits...)
}

// logIn writes commits the way gitLog does for a root at prefix holding
// tree files; the commits' files are relative to the top of the checkout.
func logIn(prefix string, tree int, commits ...Commit) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s%d%s", prefix, fieldSep, tree, fieldSep)
	for _, c := range commits {
		fmt.Fprintf(&b, "%s%s\n%s\n", recordSep, c.Message, fieldSep)
		for _, f := range c.Files {
			b.WriteString(f + "\n")
		}
	}
	return []byte(b.String())
}

func TestParse(t *testing.T) {
	var many []string
	for i := 0; i < 60; i++ {
		many = append(many, fmt.Sprintf("gen/f%02d.go", i))
	}
	out := logOf(
		Commit{Message: "auth: shorten token expiry\n\nThe TTL was an hour.", Files: []string{"a.go", "b/c.go"}},
		Commit{Message: "auth: fix token check", Files: []string{"a.go"}},
		Commit{Message: "regenerate everything", Files: many},
	)
	st := &Stats{Touches: map[string]int{}, PriorCommits: 500}
	parse(out, Options{}.withDefaults(), st)
	if len(st.Commits) != 3 {
		t.Fatalf("commits = %d, want 3", len(st.Commits))
	}
	if diff := cmp.Diff("auth: shorten token expiry", st.Commits[0].Subject); diff != "" {
		t.Errorf("subject (-want +got):\n%s", diff)
	}
	if st.Touches["a.go"] != 2 || st.Touches["b/c.go"] != 1 || st.Touches["gen/f00.go"] != 0 || st.Commits[2].Files != nil {
		t.Errorf("touches = %v; the 60-file commit must not count", st.Touches)
	}
	if p := st.Prior("a.go"); p != 1 {
		t.Errorf("Prior(a.go) = %v, want 1", p)
	}
	if p := st.Prior("b/c.go"); p <= 0 || p >= 1 {
		t.Errorf("Prior(b/c.go) = %v, want between 0 and 1", p)
	}
	if p := st.Prior("never.go"); p != 0 {
		t.Errorf("Prior(never.go) = %v, want 0", p)
	}
}

func TestSimilar(t *testing.T) {
	st := &Stats{Touches: map[string]int{}, PriorCommits: 500}
	parse(logOf(
		Commit{Message: "xdsclient: close watchers on shutdown", Files: []string{"xds/client.go", "xds/watch.go"}},
		Commit{Message: "docs: typo", Files: []string{"README.md"}},
		Commit{Message: "xdsclient: retry ADS stream after error", Files: []string{"xds/ads.go"}},
		Commit{Message: "http: handle 1xx responses", Files: []string{"http/client.go"}},
	), Options{}.withDefaults(), st)
	plan := query.Analyze("xdsclient: fix race in watcher cleanup")
	votes := st.Similar(plan.Terms)
	if votes["xds/watch.go"].Score != 1 || votes["xds/client.go"].Score != 1 {
		t.Errorf("votes = %+v; the watcher commit should lead", votes)
	}
	if votes["xds/ads.go"].Score <= 0 || votes["xds/ads.go"].Score >= 1 {
		t.Errorf("xds/ads.go = %+v, want a smaller share (the area matches, not the words)", votes["xds/ads.go"])
	}
	if _, ok := votes["http/client.go"]; ok {
		t.Errorf("an unrelated commit voted: %+v", votes)
	}
	if got := votes["xds/watch.go"].Best; got != "xdsclient: close watchers on shutdown" {
		t.Errorf("best commit = %q", got)
	}
	var empty *Stats
	if empty.Similar(plan.Terms) != nil {
		t.Error("nil stats must give no votes")
	}
}

// TestLoadSubdirectoryAndNonRepo: a root inside a larger checkout sees
// only the commits that touched it, with its own files relative to it;
// commits that changed most of the root, or a great many files anywhere,
// weigh nothing (the commit that added the folder says nothing about any
// one of its files).
func TestLoadSubdirectoryAndNonRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string, files ...string) {
		t.Helper()
		for _, f := range files {
			write(f, "// "+msg+"\n")
		}
		run("add", ".")
		run("commit", "-qm", msg)
	}
	svc := []string{"svc/a.go", "svc/b.go", "svc/c.go", "svc/d.go", "svc/e.go", "svc/f.go"}
	var other []string
	for i := 0; i < 60; i++ {
		other = append(other, fmt.Sprintf("other/f%02d.go", i))
	}
	run("init", "-q")
	commit("import everything", append(append([]string(nil), svc...), other...)...)
	commit("svc: fix a", "svc/a.go")
	commit("svc: fix a and b\n\nwith a body", "svc/a.go", "svc/b.go")
	commit("reformat the repository", append([]string{"svc/c.go"}, other[:55]...)...)
	commit("svc: licence header", svc[:4]...)
	commit("other: unrelated", "other/f00.go")

	st, err := Load(context.Background(), filepath.Join(dir, "svc"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, c := range st.Commits {
		subjects = append(subjects, fmt.Sprintf("%s %v", c.Subject, c.Files))
	}
	want := []string{
		"svc: licence header []",     // 4 of the root's 6 files
		"reformat the repository []", // 56 files in the repository
		"svc: fix a and b [a.go b.go]",
		"svc: fix a [a.go]",
		"import everything []",
	}
	if diff := cmp.Diff(want, subjects); diff != "" {
		t.Errorf("commits of svc/ (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"a.go": 2, "b.go": 1}, st.Touches); diff != "" {
		t.Errorf("touches (-want +got):\n%s", diff)
	}
	if st.TreeFiles != 6 || !strings.Contains(st.Commits[2].Message, "with a body") {
		t.Errorf("tree files = %d, commit = %+v", st.TreeFiles, st.Commits[2])
	}
	if p := st.Prior("c.go"); p != 0 {
		t.Errorf("Prior(c.go) = %v; only commits that weigh nothing touched it", p)
	}
	votes := st.Similar(query.Analyze("svc: licence header on the reformatted repository").Terms)
	if _, ok := votes["c.go"]; ok {
		t.Errorf("commits that weigh nothing voted: %+v", votes)
	}

	empty, err := Load(context.Background(), t.TempDir(), Options{})
	if err != nil || len(empty.Commits) != 0 || empty.Prior("a.go") != 0 {
		t.Errorf("non-repository: %+v, %v; want empty stats and no error", empty, err)
	}
}
