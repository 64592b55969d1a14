package pipeline_test

// The end-to-end reliability and security suite drives the real command
// line (cli.Main, in process, or this test binary re-executed as the
// ctxexpand command) on broken, hostile and large inputs. Every run has a
// watchdog: a run that does not return in time fails its test with the
// goroutine dump, instead of hanging the suite. docs/reliability.md lists
// what each test holds.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/cli"
)

// asCLI, set in the environment, makes this test binary run as the
// ctxexpand command: for runs in another process (another GOMAXPROCS,
// another user).
const asCLI = "CTXEXPAND_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(asCLI) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// moduleRoot is the repository's root, where testdata/ lives.
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// result is what one run of the command line gave.
type result struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

func (r result) String() string {
	return fmt.Sprintf("exit %d after %v\n--- stderr:\n%s\n--- stdout (first 2000 bytes):\n%.2000s", r.code, r.took.Round(time.Millisecond), r.stderr, r.stdout)
}

// watchdog is how long any run may take before it counts as a hang. Runs
// take well under a second; the margin is for a loaded CI machine under
// the race detector.
const watchdog = 90 * time.Second

// runCLI runs the command line in process with in-memory IO, failing the
// test with every goroutine's stack if it does not return in time.
func runCLI(t testing.TB, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	start := time.Now()
	go func() { done <- cli.Main(args, strings.NewReader(""), &out, &errb) }()
	select {
	case code := <-done:
		return result{code: code, stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	case <-time.After(watchdog):
		var stacks bytes.Buffer
		pprof.Lookup("goroutine").WriteTo(&stacks, 2)
		t.Fatalf("ctxexpand %q did not return within %v: a hang\n%s", args, watchdog, stacks.String())
		return result{}
	}
}

// execCLI runs the command line in a child process (this test binary as
// ctxexpand), with extra environment and, when cred is set, as another
// user, killed if it does not return in time.
func execCLI(t testing.TB, env []string, cred *syscall.Credential, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), watchdog)
	defer cancel()
	bin := os.Args[0]
	if cred != nil {
		bin = publicCopy(t, bin)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(os.Environ(), asCLI+"=1"), env...)
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("ctxexpand %q did not return within %v: a hang\n%s", args, watchdog, r)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", bin, err)
	}
	return r
}

// publicCopy copies the test binary where any user can run it.
func publicCopy(t testing.TB, bin string) string {
	t.Helper()
	dir := publicDir(t)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "ctxexpand.test")
	if err := os.WriteFile(p, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// publicDir is a fresh directory that any user can read and enter.
func publicDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for d := dir; d != filepath.Dir(d) && strings.HasPrefix(d, os.TempDir()) && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// extract writes a txtar archive's files under dir.
func extract(t testing.TB, dir string, ar *txtar.Archive) {
	t.Helper()
	for _, f := range ar.Files {
		writeFile(t, dir, f.Name, f.Data)
	}
}

func writeFile(t testing.TB, dir, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyDir copies the tree at src to dst.
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// bundleDoc is the part of a JSON bundle the suite reads.
type bundleDoc struct {
	Budget      int      `json:"budget"`
	TotalTokens int      `json:"total_tokens"`
	Notes       []string `json:"notes"`
	Extras      []struct {
		Kind    string `json:"kind"`
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"extras"`
	Files []struct {
		Path     string `json:"path"`
		Category string `json:"category"`
		Rung     string `json:"rung"`
	} `json:"files"`
}

// parseBundle reads a JSON bundle, failing the test when it is not one.
func parseBundle(t testing.TB, r result) bundleDoc {
	t.Helper()
	var doc bundleDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("the output is not a JSON bundle: %v\n%s", err, r)
	}
	return doc
}

func (d bundleDoc) paths() []string {
	var out []string
	for _, f := range d.Files {
		out = append(out, f.Path)
	}
	return out
}
