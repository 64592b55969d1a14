package e2e

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/clitest"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// determinismRepos are the repositories the determinism tests run on: the
// Rust sample and a generated Go module (a chain of packages, one
// importing the standard library, loaded in a fraction of a second). The
// Go sample, whose standard-library dependencies take seconds to check
// under the race detector, is covered by TestDeterministic (two
// independent loads).
func determinismRepos(t *testing.T) map[string]string {
	return map[string]string{
		"rustsvc": filepath.Join(testfiles.ModuleRoot(t), "testdata", "rustsvc"),
		"gen":     bigRepo(t, 12, 2),
	}
}

var determinismQueries = map[string]string{
	"rustsvc": "fix UserService::find_by_email returning the wrong user @grep:\"fn find\"",
	"gen":     "fix Handle1_7 in p6",
}

// TestSameOutputEveryRun: 20 runs in one process give byte-identical
// bundles and notes, in JSON and in markdown (the Go module: 10 each).
func TestSameOutputEveryRun(t *testing.T) {
	for name, root := range determinismRepos(t) {
		runs := 20
		if name == "gen" {
			runs = 10
		}
		for _, format := range []string{"json", "markdown"} {
			t.Run(name+"/"+format, func(t *testing.T) {
				var first clitest.Result
				for i := range runs {
					r := clitest.Run(t, "--root", root, "--format", format, "--budget", "5000", determinismQueries[name])
					clitest.CheckSane(t, r)
					if r.Code != 0 {
						t.Fatalf("exit %d\n%s", r.Code, r)
					}
					if i == 0 {
						first = r
						continue
					}
					if r.Stdout != first.Stdout || r.Stderr != first.Stderr {
						t.Fatalf("run %d differs from run 1 (-first +this):\n%s%s", i+1,
							cmp.Diff(first.Stdout, r.Stdout), cmp.Diff(first.Stderr, r.Stderr))
					}
				}
			})
		}
	}
}

// TestSameOutputAnyGOMAXPROCS: the command in child processes with
// GOMAXPROCS 1, 2 and 8 gives the JSON bundle and notes the in-process run
// gives. (Markdown renders the same loaded facts; TestSameOutputEveryRun
// covers it. Child processes of a race-instrumented binary are slow.)
func TestSameOutputAnyGOMAXPROCS(t *testing.T) {
	for name, root := range determinismRepos(t) {
		t.Run(name, func(t *testing.T) {
			args := []string{"--root", root, "--format", "json", "--budget", "5000", determinismQueries[name]}
			want := clitest.Run(t, args...)
			if want.Code != 0 {
				t.Fatalf("in process: exit %d\n%s", want.Code, want)
			}
			for _, procs := range []int{1, 2, 8} {
				got := clitest.Exec(t, []string{fmt.Sprintf("GOMAXPROCS=%d", procs)}, nil, args...)
				if got.Code != 0 {
					t.Fatalf("GOMAXPROCS=%d: exit %d\n%s", procs, got.Code, got)
				}
				if got.Stdout != want.Stdout || got.Stderr != want.Stderr {
					t.Errorf("GOMAXPROCS=%d differs from the in-process run (-in process +child):\n%s%s", procs,
						cmp.Diff(want.Stdout, got.Stdout), cmp.Diff(want.Stderr, got.Stderr))
				}
			}
		})
	}
}
