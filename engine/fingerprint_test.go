package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPortableSettings: the description of a root's settings leaves out
// where the root, the Go installation and the module cache are, and
// keeps everything else.
func TestPortableSettings(t *testing.T) {
	fp := func(root, goroot string) string {
		return "options skip-tests=false\nenv GOROOT=" + goroot + "\nenv GOMODCACHE=/home/x/go/pkg/mod\nenv GOOS=linux\nenv GOWORK=" + root + "/go.work\nfile go.mod 1234\n"
	}
	a := portableSettings("/ci/work/repo", LoadOptions{}, fp("/ci/work/repo", "/opt/go"))
	b := portableSettings("/home/dev/src/repo", LoadOptions{}, fp("/home/dev/src/repo", "/usr/local/go"))
	if a != b {
		t.Errorf("the same settings at other paths differ:\n%s\n%s", a, b)
	}
	c := portableSettings("/ci/work/repo", LoadOptions{}, strings.Replace(fp("/ci/work/repo", "/opt/go"), "GOOS=linux", "GOOS=darwin", 1))
	if a == c || !strings.Contains(firstDifferentLine(a, c), "GOOS") {
		t.Errorf("another GOOS: %s", firstDifferentLine(a, c))
	}
	if d := portableSettings("/ci/work/repo", LoadOptions{Backend: BackendBuiltin}, fp("/ci/work/repo", "/opt/go")); d != a {
		t.Error("the default backend, named or not, describes differently")
	}
	// A SCIP index at the root counts by content, wherever the root is
	// and whatever its file's time.
	withSCIP := func(content string) (string, string) {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, DefaultSCIPIndex), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return root, portableSettings(root, LoadOptions{}, "")
	}
	_, s1 := withSCIP("index one")
	_, s2 := withSCIP("index one")
	_, s3 := withSCIP("index two")
	if s1 != s2 || s1 == s3 || !strings.Contains(s1, "scip index.scip ") {
		t.Errorf("SCIP indexes: same content alike %v, other content apart %v:\n%s", s1 == s2, s1 != s3, s1)
	}
}

// firstDifferentLine is the first line of a that b does not have in the
// same place, or "" when there is none.
func firstDifferentLine(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i, line := range al {
		if i >= len(bl) || bl[i] != line {
			return line
		}
	}
	return ""
}
