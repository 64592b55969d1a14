package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepoPath reads paths as agents write them: relative, "./"-prefixed,
// absolute under the root; those that leave the root are refused.
func TestRepoPath(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "a", "b.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in, want, err string
	}{
		{in: "a/b.go", want: "a/b.go"},
		{in: "./a/b.go", want: "a/b.go"},
		{in: filepath.Join(root, "a", "b.go"), want: "a/b.go"},
		{in: "a/../a/b.go", want: "a/b.go"},
		{in: "../x.go", err: "outside the repository"},
		{in: "/etc/passwd", err: "outside the repository"},
	}
	for _, tc := range tests {
		got, err := repoPath(root, tc.in)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || !strings.Contains(gotErr, tc.err) || (tc.err == "") != (err == nil) {
			t.Errorf("repoPath(%q) = %q, %v; want %q, error with %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}
