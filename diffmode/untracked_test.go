package diffmode_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/diffmode"
)

func TestAddedHunks(t *testing.T) {
	add := func(text string, noNewline bool) diffmode.Line {
		return diffmode.Line{Op: diffmode.OpAdd, Text: text, NoNewline: noNewline}
	}
	tests := []struct {
		name, text string
		want       []diffmode.Hunk
	}{
		{"empty", "", nil},
		{"lines", "package a\n\nfunc A() {}\n", []diffmode.Hunk{{NewStart: 1, NewLines: 3, Lines: []diffmode.Line{add("package a", false), add("", false), add("func A() {}", false)}}}},
		{"no final newline", "a\nb", []diffmode.Hunk{{NewStart: 1, NewLines: 2, Lines: []diffmode.Line{add("a", false), add("b", true)}}}},
		{"crlf", "a\r\nb\r\n", []diffmode.Hunk{{NewStart: 1, NewLines: 2, Lines: []diffmode.Line{add("a", false), add("b", false)}}}},
	}
	for _, tc := range tests {
		got := diffmode.AddedHunks(tc.text)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
		// The hunk must render and read back as git would write it.
		f := diffmode.File{NewPath: "a.go", Status: diffmode.Added, NewMode: "100644", Hunks: got}
		d, err := diffmode.ParseBytes([]byte(f.Unified(3)), diffmode.Options{})
		if err != nil || len(d.Files) != 1 {
			t.Errorf("%s: rendered diff does not parse: %v\n%s", tc.name, err, f.Unified(3))
			continue
		}
		if diff := cmp.Diff(got, d.Files[0].Hunks, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Line" }, cmp.Ignore())); diff != "" {
			t.Errorf("%s: round trip (-made +parsed):\n%s", tc.name, diff)
		}
	}
}
