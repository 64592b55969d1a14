package githistory

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestParse(t *testing.T) {
	out := []byte("@@\n\na.go\nb/c.go\n@@\n\na.go\n@@\n\n" + manyFiles(60) + "@@\n")
	st := &Stats{Touches: map[string]int{}}
	parse(out, 50, st)
	if st.Commits != 4 {
		t.Errorf("commits = %d, want 4", st.Commits)
	}
	if st.Touches["a.go"] != 2 || st.Touches["b/c.go"] != 1 || st.Touches["f0.go"] != 0 {
		t.Errorf("touches = %v; the 60-file commit must be skipped", st.Touches)
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

func manyFiles(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		s += "f" + string(rune('0'+i%10)) + ".go\n"
	}
	return s
}

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
	run("init", "-q")
	write("svc/a.go", "package svc\n")
	write("svc/b.go", "package svc\n")
	run("add", ".")
	run("commit", "-qm", "one")
	write("svc/a.go", "package svc // changed\n")
	run("commit", "-qam", "two")

	st, err := Load(context.Background(), filepath.Join(dir, "svc"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Commits != 2 || st.Touches["a.go"] != 2 || st.Touches["b.go"] != 1 {
		t.Errorf("stats = %d commits, %v; want paths relative to the subdirectory", st.Commits, st.Touches)
	}
	empty, err := Load(context.Background(), t.TempDir(), Options{})
	if err != nil || empty.Commits != 0 || empty.Prior("a.go") != 0 {
		t.Errorf("non-repository: %+v, %v; want empty stats and no error", empty, err)
	}
}
