package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/clitest"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// bigRepo writes a generated repository: a Go module of pkgs packages of
// files files of 40 functions each, every function calling into the
// previous package, and a Rust crate of as many modules. Loading 100×3 in
// full takes about a second.
func bigRepo(t testing.TB, pkgs, files int) string {
	t.Helper()
	dir := t.TempDir()
	testfiles.WriteFile(t, dir, "go.mod", []byte("module example.com/big\n\ngo 1.22\n"))
	testfiles.WriteFile(t, dir, "Cargo.toml", []byte("[package]\nname = \"big\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"))
	var lib strings.Builder
	for p := range pkgs {
		for f := range files {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\n", p)
			if p > 0 {
				fmt.Fprintf(&b, "import \"example.com/big/p%d\"\n\n", p-1)
			}
			for fn := range 40 {
				fmt.Fprintf(&b, "// Handle%d_%d handles request %d of file %d.\nfunc Handle%d_%d(n int) int {\n", f, fn, fn, f, f, fn)
				if p > 0 {
					fmt.Fprintf(&b, "\treturn p%d.Handle%d_%d(n+1) + %d\n}\n\n", p-1, f, fn, fn)
				} else {
					fmt.Fprintf(&b, "\treturn n * %d\n}\n\n", fn)
				}
			}
			testfiles.WriteFile(t, dir, fmt.Sprintf("p%d/f%d.go", p, f), []byte(b.String()))
		}
		fmt.Fprintf(&lib, "pub mod m%d;\n", p)
		var r strings.Builder
		for fn := range 8 {
			if p > 0 {
				fmt.Fprintf(&r, "pub fn handle_%d(n: u32) -> u32 { crate::m%d::handle_%d(n + 1) }\n", fn, p-1, fn)
			} else {
				fmt.Fprintf(&r, "pub fn handle_%d(n: u32) -> u32 { n * %d }\n", fn, fn)
			}
		}
		testfiles.WriteFile(t, dir, fmt.Sprintf("src/m%d.rs", p), []byte(r.String()))
	}
	testfiles.WriteFile(t, dir, "src/lib.rs", []byte(lib.String()))
	return dir
}

// TestTimeoutPartial: a time limit far shorter than the load of a large
// tree ends the run with exit 3 and a well-formed bundle marked partial,
// in every format, whatever stage the limit falls in, and never hangs.
func TestTimeoutPartial(t *testing.T) {
	root := bigRepo(t, 100, 3)
	for _, timeout := range []string{"1ns", "30ms", "300ms"} {
		for _, format := range []string{"json", "markdown", "xml", "plain"} {
			t.Run(timeout+"/"+format, func(t *testing.T) {
				r := clitest.Run(t, "--root", root, "--timeout", timeout, "--format", format, "--budget", "4000", "fix Handle3_2 @grep:\"Handle1_\"")
				checkPartial(t, r, format, timeout)
			})
		}
	}
}

// checkPartial checks a run cut by its time limit: exit 3, the partial
// note on stderr and in the bundle, a bundle that parses, and an end
// within a generous bound of the limit (the point is: no hang).
func checkPartial(t *testing.T, r clitest.Result, format, timeout string) {
	t.Helper()
	clitest.CheckSane(t, r)
	if r.Code != 3 {
		t.Fatalf("exit %d, want 3 (partial)\n%s", r.Code, r)
	}
	if !strings.Contains(r.Stderr, "partial result") {
		t.Errorf("stderr does not say the result is partial\n%s", r)
	}
	const note = "partial result: a time limit cut the analysis short"
	switch format {
	case "json":
		doc := clitest.ParseBundle(t, r)
		if !strings.Contains(strings.Join(doc.Notes, "\n"), note) {
			t.Errorf("the bundle's notes %q lack %q", doc.Notes, note)
		}
	default:
		if !strings.Contains(r.Stdout, note) {
			t.Errorf("the %s bundle lacks %q\n%s", format, note, r)
		}
	}
	limit, _ := time.ParseDuration(timeout)
	if r.Took > limit+30*time.Second {
		t.Errorf("the run took %v with --timeout %s", r.Took, timeout)
	}
}

// TestTimeoutOtherEntryPoints: ctxexpand graph, and expansion through a
// language server (--backend lsp, when gopls is installed), honour the
// limit the same way: exit 3, a partial result, no hang.
func TestTimeoutOtherEntryPoints(t *testing.T) {
	root := bigRepo(t, 40, 2)
	r := clitest.Run(t, "graph", "--root", root, "--timeout", "30ms", "fix Handle1_2")
	clitest.CheckSane(t, r)
	if r.Code != 3 || !strings.Contains(r.Stderr, "partial result") || r.Stdout == "" {
		t.Errorf("graph: want exit 3, a drawing and the partial note\n%s", r)
	}
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Log("gopls is not installed: --backend lsp not tried")
		return
	}
	r = clitest.Run(t, "--backend", "lsp", "--root", root, "--timeout", "200ms", "--format", "json", "fix Handle1_2")
	checkPartial(t, r, "json", "200ms")
}

// TestDiffTimeoutPartial: the same for ctxexpand diff, whose mapping
// stage runs between loading and the query.
func TestDiffTimeoutPartial(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := bigRepo(t, 100, 3)
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", "-A")
	gitRun("commit", "-q", "-m", "initial")
	for p := range 40 {
		f := filepath.Join(root, fmt.Sprintf("p%d/f0.go", p))
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(strings.Replace(string(data), "n+1", "n+2", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Too short to even read the change from git: nothing can be done,
	// and the error says so.
	r := clitest.Run(t, "diff", "--root", root, "--timeout", "1ns", "--format", "json")
	if want := "passed before the change was read; raise --timeout"; r.Code != 1 || !strings.Contains(r.Stderr, want) || r.Stdout != "" {
		t.Errorf("--timeout 1ns: want exit 1 and %q\n%s", want, r)
	}
	// Long enough for git, too short for loading: a partial bundle. On
	// a machine slow enough for git to take that long, the clear error.
	for _, timeout := range []string{"150ms", "400ms"} {
		r := clitest.Run(t, "diff", "--root", root, "--timeout", timeout, "--format", "json", "--budget", "4000")
		t.Logf("%s: exit %d after %v", timeout, r.Code, r.Took)
		if r.Code == 1 && strings.Contains(r.Stderr, "passed before the change was read") {
			t.Logf("--timeout %s: git was slower than the limit", timeout)
			continue
		}
		checkPartial(t, r, "json", timeout)
	}
}

// TestBudgetNeverExceeded: whatever the format, the bytes the command
// line writes, recounted with the tokenizer, are within the budget; a
// budget below the smallest document is an error that says what to do.
// (TestBudgetMatrix in package engine runs the many combinations of
// query, format and budget on one loaded session.)
func TestBudgetNeverExceeded(t *testing.T) {
	counter, err := tokenize.New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(testfiles.ModuleRoot(t), "testdata", "rustsvc")
	for _, format := range []string{"markdown", "json", "xml", "plain"} {
		for _, budget := range []int{300, 700, 3000} {
			r := clitest.Run(t, "--root", root, "--format", format, "--budget", fmt.Sprint(budget), "fix UserService::find_by_email @grep:\"fn \"")
			clitest.CheckSane(t, r)
			if r.Code != 0 {
				t.Fatalf("%s %d: exit %d\n%s", format, budget, r.Code, r)
			}
			if n := counter.Count(r.Stdout); n > budget || n == 0 {
				t.Errorf("%s: %d tokens written, budget %d", format, n, budget)
			}
		}
	}
	r := clitest.Run(t, "--root", root, "--budget", "5", "fix UserService::find_by_email")
	if r.Code != 1 || !strings.Contains(r.Stderr, "raise the budget") || r.Stdout != "" {
		t.Errorf("budget 5: want exit 1, no output and advice\n%s", r)
	}
}

// TestLargeQuery: a query of a megabyte (more than a command line can
// carry, so in process) is analysed from its start, with a note.
func TestLargeQuery(t *testing.T) {
	root := filepath.Join(testfiles.ModuleRoot(t), "testdata", "rustsvc")
	q := "fix UserService::find_by_email " + strings.Repeat("and also this ", 80_000)
	r := clitest.Run(t, "--root", root, "--format", "json", "--budget", "2000", q)
	clitest.CheckSane(t, r)
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r)
	}
	if want := "query longer than 64 KiB: only its start was analysed"; !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr lacks %q\n%.3000s", want, r.Stderr)
	}
	clitest.ParseBundle(t, r)
}
