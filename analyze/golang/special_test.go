package golang

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialGoFiles loads a module holding a named pipe called x.go, a
// link to another pipe outside the repository and a link to a file
// outside it whose first token is a secret. go list would block forever
// on either pipe and quote the secret in its error; the loader stubs all
// three out, so the load finishes, the regular file is analysed and no
// problem quotes the secret.
func TestSpecialGoFiles(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("TOPSECRETTOKEN = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeFile(t, root, "go.mod", []byte("module example.com/special\n\ngo 1.22\n"))
	writeFile(t, root, "small.go", []byte("package special\n\nfunc Small() int { return 1 }\n"))
	if err := syscall.Mkfifo(filepath.Join(root, "x.go"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(outside, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"y.go": filepath.Join(outside, "pipe"), "z.go": secret} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	facts, err := Load(ctx, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil || facts.Partial {
		t.Fatalf("the load ran into its time limit: go list blocked on a pipe")
	}
	var paths []string
	for _, f := range facts.Files {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, " ") != "small.go" {
		t.Errorf("files = %v, want [small.go]", paths)
	}
	var notes []string
	for _, p := range facts.Problems {
		notes = append(notes, p.String())
		if strings.Contains(p.Msg, "TOPSECRETTOKEN") {
			t.Errorf("a problem quotes the file behind a link: %s", p)
		}
	}
	want := "x.go: skipped: not a regular file (a named pipe)"
	if !strings.Contains(strings.Join(notes, "\n"), want) {
		t.Errorf("problems %q lack %q", notes, want)
	}
}
