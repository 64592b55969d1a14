package rust

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// TestWorkersSameFacts loads each sample repository with one worker and
// with several, and with GOMAXPROCS 1 and 8, and wants the same facts:
// the same files, symbols, edges (in the same order), imports and
// problems. With CTXEXPAND_RUST_BENCH_ROOT set (see BenchmarkLoad), that
// repository is compared too.
func TestWorkersSameFacts(t *testing.T) {
	roots := map[string]string{
		"rustsvc": "../../testdata/rustsvc",
		"rustws":  "../../testdata/rustws",
	}
	archives, _ := filepath.Glob("testdata/scenarios/*.txtar")
	for _, name := range []string{"rust_deep_modules_macros", "rust_syntax_errors", "cargo_ws_missing_member", "mixed_go_rust_broken"} {
		archives = append(archives, filepath.Join("../../testdata/broken", name+".txtar"))
	}
	for _, file := range archives {
		root, _ := extractTxtar(t, file)
		roots[filepath.Base(file)] = root
	}
	if dir := os.Getenv("CTXEXPAND_RUST_BENCH_ROOT"); dir != "" {
		roots["external"] = dir
	}
	for name, root := range roots {
		t.Run(name, func(t *testing.T) {
			want := loadDir(t, root, Options{Workers: 1})
			if len(want.Files) == 0 {
				t.Fatalf("no files loaded from %s", root)
			}
			for _, workers := range []int{2, 3, 8} {
				compareFacts(t, "Workers=1", want, loadDir(t, root, Options{Workers: workers}))
			}
			for _, procs := range []int{1, 8} {
				old := runtime.GOMAXPROCS(procs)
				got := loadDir(t, root, Options{})
				runtime.GOMAXPROCS(old)
				compareFacts(t, "Workers=1", want, got)
			}
		})
	}
}

func compareFacts(t *testing.T, what string, want, got *analyze.Facts) {
	t.Helper()
	opt := cmpopts.EquateEmpty()
	for _, c := range []struct {
		table     string
		want, got any
	}{
		{"files", want.Files, got.Files},
		{"symbols", want.Symbols, got.Symbols},
		{"edges", want.Edges, got.Edges},
		{"imports", want.Imports, got.Imports},
		{"problems", want.Problems, got.Problems},
	} {
		if diff := cmp.Diff(c.want, c.got, opt); diff != "" {
			t.Errorf("%s differ from %s's (-want +got):\n%s", c.table, what, diff)
		}
	}
	if want.Partial != got.Partial {
		t.Errorf("Partial = %v, %s gave %v", got.Partial, what, want.Partial)
	}
}
