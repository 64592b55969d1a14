package tokenize

import (
	"strings"
	"testing"
)

// TestCountAroundFindsInner: a text counted under one header is found in
// the memo under another, and counted right; a calibrated counter, which
// does not add up, counts whole.
func TestCountAroundFindsInner(t *testing.T) {
	code := strings.Repeat("func F() error {\n\tif err := g(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n", 8)
	frame := func(header string) (string, int, int) {
		text := header + "```go\n" + code + "```\n"
		lo := len(header) + len("```go\n")
		return text, lo, lo + len(code)
	}
	for _, name := range []string{"o200k", "estimate", "claude"} {
		c, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		m := NewMemo(0)
		w := m.Wrap(c)
		a, lo, hi := frame("## a.go (score 0.91)\nWhy: seed\n\n")
		CountAround(w, a, lo, hi)
		before := m.Stats().Hits
		b, lo, hi := frame("## a.go (score 0.37, explicit)\nWhy: calls F, named in the query\n\n")
		if got, want := CountAround(w, b, lo, hi), c.Count(b); got != want {
			t.Errorf("%s: %d, whole %d", name, got, want)
		}
		hits := m.Stats().Hits - before
		if Additive(c) != (hits > 0) {
			t.Errorf("%s (adds up: %v): %d hits under the second header", name, Additive(c), hits)
		}
	}
}
