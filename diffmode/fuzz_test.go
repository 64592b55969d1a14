package diffmode

import (
	"strings"
	"testing"
)

func render(d *Diff) string {
	var b strings.Builder
	for i := range d.Files {
		b.WriteString(d.Files[i].Unified(-1))
	}
	return b.String()
}

// FuzzParseDiff checks that no input makes Parse panic, that a parsed
// diff keeps the counts its hunk headers state, and that rendering a
// parsed diff and parsing it again is stable.
func FuzzParseDiff(f *testing.F) {
	f.Add(sampleDiff)
	f.Add("--- a/x\n+++ b/x\n@@ -1,3 +1,2 @@\n a\n-b\n c\n\\ No newline at end of file\n")
	f.Add("diff --git \"a/q\\\"x\" \"b/q\\\"x\"\nnew file mode 100644\n--- /dev/null\n+++ \"b/q\\\"x\"\n@@ -0,0 +1 @@\n+z\n")
	f.Add("diff --git a/m b/m\nindex 1..2 160000\n--- a/m\n+++ b/m\n@@ -1 +1 @@\n-Subproject commit 1\n+Subproject commit 2\n")
	f.Add("diff --git a/b.bin b/b.bin\nGIT binary patch\nliteral 3\nKcmZQz00031\n\nliteral 0\nHcmV?d00001\n\n")
	f.Add("diff --cc m.go\n@@@ -1 -1 +1 @@@\n++x\n")
	f.Add("--- a/e.go\r\n+++ b/e.go\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ParseBytes([]byte(in), Options{MaxLines: 5000})
		if err != nil {
			return
		}
		for _, fl := range d.Files {
			for _, h := range fl.Hunks {
				var o, n int
				for _, l := range h.Lines {
					if l.Op != OpAdd {
						o++
					}
					if l.Op != OpDel {
						n++
					}
				}
				if o != h.OldLines || n != h.NewLines {
					t.Fatalf("hunk at line %d states -%d +%d but holds -%d +%d", h.Line, h.OldLines, h.NewLines, o, n)
				}
				_ = h.Runs()
				_ = trimContext(h, 1)
			}
			_ = fl.Title()
		}
		once := render(d)
		d2, err := ParseBytes([]byte(once), Options{MaxLines: 1 << 20})
		if err != nil {
			t.Fatalf("the rendering of a parsed diff does not parse: %v\ninput:\n%q\nrendering:\n%q", err, in, once)
		}
		if twice := render(d2); twice != once {
			t.Fatalf("rendering is not stable:\nfirst:\n%q\nsecond:\n%q", once, twice)
		}
	})
}
