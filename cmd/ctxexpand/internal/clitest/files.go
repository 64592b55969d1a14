package clitest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// publicCopy copies the test binary where any user can run it.
func publicCopy(t testing.TB, bin string) string {
	t.Helper()
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(testfiles.PublicDir(t), "ctxexpand.test")
	if err := os.WriteFile(p, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}
