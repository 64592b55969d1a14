package scip

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// The committed index.scip files of testdata/tssvc and testdata/pysvc were
// made by the npm packages .ci/run installs, at these versions:
//
//	cd testdata/tssvc && scip-typescript index
//	cd testdata/pysvc && scip-python index --project-name pysvc --project-version 1.0.0 --environment ENV
//
// (ENV a JSON file holding [], so that no installed package leaks in).
// Committing them keeps the golden tests deterministic and runnable
// without Node; this test holds them honest by indexing the samples
// again, when the indexers are installed, and comparing the facts.
const (
	scipTypeScriptVersion = "0.4.0"
	scipPythonVersion     = "0.6.6"
)

func TestIndexersReproduceFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the indexers (Node); skipped with -short")
	}
	for _, tc := range []struct {
		repo, tool, version string
		args                []string
	}{
		{"tssvc", "scip-typescript", scipTypeScriptVersion, []string{"index"}},
		{"pysvc", "scip-python", scipPythonVersion, []string{"index", "--project-name", "pysvc", "--project-version", "1.0.0", "--quiet"}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			bin, err := exec.LookPath(tc.tool)
			if err != nil {
				t.Skipf("%s is not installed (npm install -g @sourcegraph/%s@%s, as .ci/run does); the committed index is used as it is", tc.tool, tc.tool, tc.version)
			}
			if out, err := exec.Command(bin, "--version").Output(); err != nil || strings.TrimSpace(string(out)) != tc.version {
				t.Skipf("%s --version says %q (%v), the fixture was made by %s", tc.tool, strings.TrimSpace(string(out)), err, tc.version)
			}
			root := copyDir(t, sample(t, tc.repo))
			out := filepath.Join(t.TempDir(), "fresh.scip")
			args := append(append([]string(nil), tc.args...), "--output", out)
			if tc.tool == "scip-python" {
				env := filepath.Join(t.TempDir(), "env.json")
				if err := os.WriteFile(env, []byte("[]"), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "--environment", env)
			}
			cmd := exec.Command(bin, args...)
			cmd.Dir = root
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s failed: %v\n%s", tc.tool, err, b)
			}
			committed := load(t, root)
			fresh, err := Load(context.Background(), root, Options{Indexes: []string{out}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(factLines(committed.Facts), factLines(fresh.Facts)); diff != "" {
				t.Errorf("the committed %s/index.scip no longer matches what %s %s makes; regenerate it (-committed +fresh):\n%s", tc.repo, tc.tool, tc.version, diff)
			}
		})
	}
}

// factLines renders facts as sorted lines: symbols with spans and kinds,
// edges with kinds.
func factLines(f *analyze.Facts) []string {
	var out []string
	for _, s := range f.Symbols {
		out = append(out, fmt.Sprintf("sym %s %s %s %d-%d@%d", f.Files[s.File].Path, s.Kind, s.QualName(f.Files[s.File].Lang), s.Start, s.End, s.DeclLine))
	}
	for k := range edgeSet(f) {
		out = append(out, "edge "+k)
	}
	sort.Strings(out)
	return out
}
