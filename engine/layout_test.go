package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadingFiles are the files that open and load a repository (doc.go,
// "# Layout"). Every other file of the package answers queries.
var loadingFiles = []string{
	"session.go", "load.go", "lsp.go", "scip.go", "history.go", "deadline.go", "log.go", "configload.go",
	"indexed.go", "indexrun.go", "fingerprint.go", "lexstore.go", "tokens.go", "residentload.go", "reopen.go", "source.go",
}

// TestLoadingStandsAlone keeps the dependency between the package's two
// halves one way: the loading files build without any querying file, so
// index orchestration has one home and the querying files only use what
// a Session holds.
func TestLoadingStandsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the loading files with the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	all, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range loadingFiles {
		if !slices.Contains(all, f) {
			t.Errorf("%s is listed as a loading file but is not in the package; update loadingFiles and doc.go", f)
		}
	}
	cmd := exec.Command(goTool, append([]string{"build", "-o", os.DevNull}, loadingFiles...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the loading files do not build without the querying ones (%v): a loading file uses a querying one; move what it uses to the loading side\n%s", err, strings.TrimSpace(string(out)))
	}
}
