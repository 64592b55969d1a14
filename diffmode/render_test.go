package diffmode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const sampleDiff = `diff --git a/svc/user.go b/svc/user.go
index 3b18e51..a1f0c2d 100644
--- a/svc/user.go
+++ b/svc/user.go
@@ -1,12 +1,12 @@ package svc
 l1
 l2
 l3
-l4
+L4
 l5
 l6
 l7
 l8
 l9
 l10
-l11
+L11
 l12
diff --git a/with space.go b/renamed "q".go
similarity index 90%
rename from with space.go
rename to "renamed \"q\".go"
--- a/with space.go	
+++ "b/renamed \"q\".go"
@@ -1 +1 @@
-x
\ No newline at end of file
+y
\ No newline at end of file
diff --git a/img.png b/img.png
new file mode 100644
Binary files /dev/null and b/img.png differ
`

func TestUnifiedRoundTrip(t *testing.T) {
	d, err := ParseBytes([]byte(sampleDiff), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range d.Files {
		b.WriteString(d.Files[i].Unified(-1))
	}
	again, err := ParseBytes([]byte(b.String()), Options{})
	if err != nil {
		t.Fatalf("reparsing the rendering: %v\n%s", err, b.String())
	}
	ignore := cmpopts.IgnoreFields(File{}, "Line", "OldBlob", "NewBlob", "OldMode", "NewMode")
	if diff := cmp.Diff(d.Files, again.Files, ignore, ignoreHunkLine); diff != "" {
		t.Errorf("round trip (-parsed +reparsed):\n%s\nrendering:\n%s", diff, b.String())
	}
}

func TestUnifiedContext(t *testing.T) {
	d, err := ParseBytes([]byte(sampleDiff), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `diff --git a/svc/user.go b/svc/user.go
--- a/svc/user.go
+++ b/svc/user.go
@@ -3,3 +3,3 @@ package svc
 l3
-l4
+L4
 l5
@@ -10,3 +10,3 @@ package svc
 l10
-l11
+L11
 l12
`
	if diff := cmp.Diff(want, d.Files[0].Unified(1)); diff != "" {
		t.Errorf("one line of context (-want +got):\n%s", diff)
	}
	// Zero context: pure changes, with the numbering of empty sides.
	d2, err := ParseBytes([]byte("--- a/x\n+++ b/x\n@@ -1,3 +1,2 @@\n a\n-b\n c\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want2 := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -2,1 +1,0 @@\n-b\n"
	if diff := cmp.Diff(want2, d2.Files[0].Unified(0)); diff != "" {
		t.Errorf("no context (-want +got):\n%s", diff)
	}
	if _, err := ParseBytes([]byte(d2.Files[0].Unified(0)), Options{}); err != nil {
		t.Errorf("zero-context rendering does not reparse: %v", err)
	}
}

func TestSections(t *testing.T) {
	in := sampleDiff + `diff --git a/go.sum b/go.sum
--- a/go.sum
+++ b/go.sum
@@ -1 +1,2 @@
 a v1
+b v2
diff --git a/mod b/mod
index 1111111..2222222 160000
--- a/mod
+++ b/mod
@@ -1 +1 @@
-Subproject commit 1111111111111111111111111111111111111111
+Subproject commit 2222222222222222222222222222222222222222
`
	d, err := ParseBytes([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int { return len(s) / 4 }
	secs, note := Sections(d, 0, count)
	if note != "" {
		t.Errorf("unlimited: note %q", note)
	}
	var titles []string
	for _, s := range secs {
		titles = append(titles, s.Title)
	}
	wantTitles := []string{"svc/user.go", `with space.go → renamed "q".go (renamed, 90% similar)`, "img.png (added) (binary)", "go.sum", "mod (submodule)"}
	if diff := cmp.Diff(wantTitles, titles); diff != "" {
		t.Errorf("titles (-want +got):\n%s", diff)
	}
	if got := secs[3].Content; got != "+1 -0 at lines 1-2 (dependency lock file; diff not shown)\n" {
		t.Errorf("lock file section = %q", got)
	}
	if got := secs[4].Content; got != "submodule mod moved from 111111111111 to 222222222222\n" {
		t.Errorf("submodule section = %q", got)
	}
	if !strings.Contains(secs[0].Content, "\n l1\n") {
		t.Errorf("full context expected at no limit:\n%s", secs[0].Content)
	}

	// A limit that one line of context meets.
	var long strings.Builder
	long.WriteString("--- a/long.go\n+++ b/long.go\n@@ -1,20 +1,20 @@\n-first\n+FIRST\n")
	for i := 2; i < 20; i++ {
		fmt.Fprintf(&long, " a context line that takes a good many tokens, number %d\n", i)
	}
	long.WriteString("-last\n+LAST\n")
	dl, err := ParseBytes([]byte(long.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	full := count(dl.Files[0].Unified(3))
	ls, note := Sections(dl, full-1, count)
	if !strings.Contains(note, "one line of context") || strings.Contains(ls[0].Content, "number 3\n") || !strings.Contains(ls[0].Content, "number 2\n") {
		t.Errorf("limit %d: note %q, content:\n%s", full-1, note, ls[0].Content)
	}
	// A limit that nothing meets: diffs become line counts.
	secs, note = Sections(d, 20, count)
	if !strings.Contains(note, "2 of 5 files are shown by their line counts") {
		t.Errorf("tight limit: note %q", note)
	}
	if got := secs[0].Content; got != "+2 -2 at lines 1-12 (diff left out for the token budget)\n" {
		t.Errorf("cut section = %q", got)
	}
}
