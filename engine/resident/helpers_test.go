package resident_test

import (
	"testing"

	"github.com/ctxexpand/ctxexpand/ignore"
)

// ignoreMatcher loads root's ignore rules as the command line does.
func ignoreMatcher(t *testing.T, root string) func(string, bool) bool {
	t.Helper()
	m, err := ignore.Load(root, ignore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m.Match
}
