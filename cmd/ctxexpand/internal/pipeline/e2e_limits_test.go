package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/pipeline"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// bigRepo writes a generated repository: a Go module of pkgs packages of
// files files of 40 functions each, every function calling into the
// previous package, and a Rust crate of as many modules. Loading 100×3 in
// full takes about a second.
func bigRepo(t testing.TB, pkgs, files int) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", []byte("module example.com/big\n\ngo 1.22\n"))
	writeFile(t, dir, "Cargo.toml", []byte("[package]\nname = \"big\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"))
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
			writeFile(t, dir, fmt.Sprintf("p%d/f%d.go", p, f), []byte(b.String()))
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
		writeFile(t, dir, fmt.Sprintf("src/m%d.rs", p), []byte(r.String()))
	}
	writeFile(t, dir, "src/lib.rs", []byte(lib.String()))
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
				r := runCLI(t, "--root", root, "--timeout", timeout, "--format", format, "--budget", "4000", "fix Handle3_2 @grep:\"Handle1_\"")
				checkPartial(t, r, format, timeout)
			})
		}
	}
}

// checkPartial checks a run cut by its time limit: exit 3, the partial
// note on stderr and in the bundle, a bundle that parses, and an end
// within a generous bound of the limit (the point is: no hang).
func checkPartial(t *testing.T, r result, format, timeout string) {
	t.Helper()
	checkSane(t, r)
	if r.code != 3 {
		t.Fatalf("exit %d, want 3 (partial)\n%s", r.code, r)
	}
	if !strings.Contains(r.stderr, "partial result") {
		t.Errorf("stderr does not say the result is partial\n%s", r)
	}
	const note = "partial result: a time limit cut the analysis short"
	switch format {
	case "json":
		doc := parseBundle(t, r)
		if !strings.Contains(strings.Join(doc.Notes, "\n"), note) {
			t.Errorf("the bundle's notes %q lack %q", doc.Notes, note)
		}
	default:
		if !strings.Contains(r.stdout, note) {
			t.Errorf("the %s bundle lacks %q\n%s", format, note, r)
		}
	}
	limit, _ := time.ParseDuration(timeout)
	if r.took > limit+30*time.Second {
		t.Errorf("the run took %v with --timeout %s", r.took, timeout)
	}
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
	r := runCLI(t, "diff", "--root", root, "--timeout", "1ns", "--format", "json")
	if want := "passed before the change was read; raise --timeout"; r.code != 1 || !strings.Contains(r.stderr, want) || r.stdout != "" {
		t.Errorf("--timeout 1ns: want exit 1 and %q\n%s", want, r)
	}
	// Long enough for git, too short for loading: a partial bundle. On
	// a machine slow enough for git to take that long, the clear error.
	for _, timeout := range []string{"150ms", "400ms"} {
		r := runCLI(t, "diff", "--root", root, "--timeout", timeout, "--format", "json", "--budget", "4000")
		t.Logf("%s: exit %d after %v", timeout, r.code, r.took)
		if r.code == 1 && strings.Contains(r.stderr, "passed before the change was read") {
			t.Logf("--timeout %s: git was slower than the limit", timeout)
			continue
		}
		checkPartial(t, r, "json", timeout)
	}
}

// TestBudgetNeverExceeded: whatever the format, query and budget, the
// bundle's own token count and a recount of the bytes written are within
// the budget. A few runs go through the command line; the many
// combinations go through one loaded session per repository, the same
// code the command line runs after loading.
func TestBudgetNeverExceeded(t *testing.T) {
	counter, err := tokenize.New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	formats := []string{"markdown", "json", "xml", "plain"}
	check := func(t *testing.T, what string, out []byte, reported, budget int) {
		t.Helper()
		n := counter.Count(string(out))
		if n > budget || reported > budget {
			t.Errorf("%s: %d tokens written (the bundle says %d), budget %d", what, n, reported, budget)
		}
		if n == 0 {
			t.Errorf("%s: empty output", what)
		}
	}
	t.Run("command line", func(t *testing.T) {
		root := filepath.Join(moduleRoot(t), "testdata", "rustsvc")
		for _, format := range formats {
			r := runCLI(t, "--root", root, "--format", format, "--budget", "700", "fix UserService::find_by_email @grep:\"fn \"")
			checkSane(t, r)
			if r.code != 0 {
				t.Fatalf("%s: exit %d\n%s", format, r.code, r)
			}
			check(t, format, []byte(r.stdout), 0, 700)
		}
		// A budget below the smallest document is an error that says what
		// to do, not an oversized bundle.
		r := runCLI(t, "--root", root, "--budget", "5", "fix UserService::find_by_email")
		if r.code != 1 || !strings.Contains(r.stderr, "raise the budget") || r.stdout != "" {
			t.Errorf("budget 5: want exit 1, no output and advice\n%s", r)
		}
	})
	queries := []string{
		"fix UserService.find_by_email",
		"the session token expires too early @grep:\"expir\"",
		"how does the app start",
	}
	budgets := []int{90, 250, 800, 2500, 9000}
	for _, repo := range []string{"gosvc", "rustsvc"} {
		t.Run(repo, func(t *testing.T) {
			s, err := pipeline.Open(context.Background(), filepath.Join(moduleRoot(t), "testdata", repo), pipeline.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range queries {
				for _, format := range formats {
					for _, budget := range budgets {
						out, err := s.Query(context.Background(), pipeline.Request{Query: q, Budget: budget, Format: format, Tokenizer: "o200k", NoNetwork: true})
						what := fmt.Sprintf("%q %s %d", q, format, budget)
						if err != nil {
							if strings.Contains(err.Error(), "raise the budget") {
								continue // too small for this format's frame
							}
							t.Fatalf("%s: %v", what, err)
						}
						check(t, what, out.Bundle, out.BundleResult.TotalTokens, budget)
					}
				}
			}
		})
	}
}

// TestLargeQuery: a query of a megabyte (more than a command line can
// carry, so in process) is analysed from its start, with a note.
func TestLargeQuery(t *testing.T) {
	root := filepath.Join(moduleRoot(t), "testdata", "rustsvc")
	q := "fix UserService::find_by_email " + strings.Repeat("and also this ", 80_000)
	r := runCLI(t, "--root", root, "--format", "json", "--budget", "2000", q)
	checkSane(t, r)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r)
	}
	if want := "query longer than 64 KiB: only its start was analysed"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q\n%.3000s", want, r.stderr)
	}
	parseBundle(t, r)
}
