package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/clitest"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// Markers planted in places no output may ever show.
const (
	outsideMarker = "OUTSIDE-SECRET-MARKER"
	ignoredMarker = "IGNORED-SECRET-MARKER"
	envMarker     = "ENV-SECRET-MARKER"
	gitMarker     = "GIT-CREDENTIAL-MARKER"
)

// secretRepo writes a repository beside a directory outside it holding a
// secret, with links from inside to it, git-ignored secrets inside, and a
// git configuration holding a checkout's credential.
func secretRepo(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	testfiles.WriteFile(t, base, "outside/secret.go", []byte("package outside\n\nconst Token = \""+outsideMarker+"\"\n"))
	testfiles.WriteFile(t, base, "outside/notes.md", []byte("# "+outsideMarker+"\n"))
	testfiles.WriteFile(t, root, "go.mod", []byte("module example.com/sec\n\ngo 1.22\n"))
	testfiles.WriteFile(t, root, "small.go", []byte("package sec\n\n// Small reads the token.\nfunc Small() string { return \"token\" }\n"))
	testfiles.WriteFile(t, root, ".gitignore", []byte("secrets/\n*.env\n"))
	testfiles.WriteFile(t, root, "secrets/key.go", []byte("package secrets\n\n// Key is the token.\nconst Key = \""+ignoredMarker+"\"\n"))
	testfiles.WriteFile(t, root, "ci.env", []byte("TOKEN="+envMarker+"\n"))
	testfiles.WriteFile(t, root, ".git/config", []byte("[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic "+gitMarker+"\n"))
	testfiles.WriteFile(t, root, ".git/HEAD", []byte("ref: refs/heads/main\n"))
	testfiles.MustSymlink(t, filepath.Join("..", "outside", "secret.go"), filepath.Join(root, "link.go"))
	testfiles.MustSymlink(t, filepath.Join("..", "outside"), filepath.Join(root, "linkdir"))
	testfiles.MustSymlink(t, filepath.Join(base, "outside", "notes.md"), filepath.Join(root, "docs", "abs.md"))
	return root
}

// TestSecretsNeverInOutput: references that climb out of the root with
// "..", name absolute paths outside it, go through links pointing out,
// name git-ignored files or git's own .git, or search for the secrets,
// all leave the markers out of everything written, stdout and stderr.
func TestSecretsNeverInOutput(t *testing.T) {
	root := secretRepo(t)
	outside := filepath.Join(filepath.Dir(root), "outside")
	refs := []string{
		"@../outside/secret.go",
		"@" + filepath.Join(outside, "secret.go"),
		"@" + root + "/../outside/secret.go",
		"@link.go",
		"@linkdir/secret.go",
		"@linkdir/",
		"@docs/abs.md",
		"@../../../../../../etc/passwd",
		"@/etc/passwd",
		"@~/.ssh/id_rsa",
		"@secrets/key.go",
		"@secrets/",
		"@ci.env",
		"@key.go",
		"@.git/config",
		"@./.git/config",
		"@.git/",
		`@grep:"SECRET-MARKER"`,
		`@grep:"(?i)token"`,
		`@search:"MARKER"`,
		"@Key",
		"@outside.Token",
		"@url:file://" + filepath.Join(outside, "secret.go"),
	}
	markers := []string{outsideMarker, ignoredMarker, envMarker, gitMarker}
	for _, format := range []string{"json", "markdown"} {
		for _, ref := range refs {
			t.Run(format+"/"+ref, func(t *testing.T) {
				r := clitest.Run(t, "--root", root, "--format", format, "--budget", "6000", "--no-network", "fix Small, the token reader "+ref)
				clitest.CheckSane(t, r)
				if r.Code != 0 {
					t.Fatalf("exit %d\n%s", r.Code, r)
				}
				for _, m := range markers {
					if strings.Contains(r.Stdout, m) || strings.Contains(r.Stderr, m) {
						t.Errorf("the output holds %s\n%s", m, r)
					}
				}
				if !strings.Contains(r.Stdout, "small.go") {
					t.Errorf("small.go is missing; the run proves nothing\n%s", r)
				}
			})
		}
	}
	// The query words alone (no reference) must not surface the ignored
	// Key either.
	r := clitest.Run(t, "--root", root, "--format", "json", "fix Key the secrets token")
	if strings.Contains(r.Stdout, ignoredMarker) || strings.Contains(r.Stdout, "secrets/key.go") {
		t.Errorf("an ignored file reached the bundle\n%s", r)
	}
}

// TestGrepStaysLinear: catastrophic-backtracking patterns over long lines
// finish: Go's regexp is RE2, linear in the input. The bound is the
// watchdog, far above the milliseconds this takes; BenchmarkReDoSPatterns
// in package refs measures it.
func TestGrepStaysLinear(t *testing.T) {
	dir := t.TempDir()
	testfiles.WriteFile(t, dir, "go.mod", []byte("module example.com/r\n\ngo 1.22\n"))
	testfiles.WriteFile(t, dir, "r.go", []byte("package r\n\n// Match is here.\nfunc Match() int { return 1 }\n"))
	var data strings.Builder
	for range 20 {
		data.WriteString(strings.Repeat("a", 100_000) + "!\n")
	}
	testfiles.WriteFile(t, dir, "data.txt", []byte(data.String()))
	for _, pat := range []string{`(a+)+$`, `(a|aa)*c`, `(.*a){25}`, `^(a?){30}a{30}$`, `(a*)*b`, `((a+)|(a+))+x`} {
		r := clitest.Run(t, "--root", dir, "--format", "json", "fix Match @grep:\""+pat+"\"")
		clitest.CheckSane(t, r)
		if r.Code != 0 {
			t.Errorf("%s: exit %d\n%s", pat, r.Code, r)
		}
	}
}

// TestNoWriteOutsideOutput: a run writes nothing in the repository and
// nothing but the --output file: the repository's listing, sizes, modes
// and times are the same before and after.
func TestNoWriteOutsideOutput(t *testing.T) {
	root := secretRepo(t)
	before := snapshot(t, root)
	out := filepath.Join(t.TempDir(), "bundle.json")
	r := clitest.Run(t, "--root", root, "--format", "json", "-o", out, "fix Small @grep:\"token\" @small.go")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("no output file: %v", err)
	}
	if after := snapshot(t, root); after != before {
		t.Errorf("the run changed the repository:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// snapshot lists every path under root with its size and mode.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(&b, "%s %d %v %d\n", rel, info.Size(), info.Mode(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
