package diffmode

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignoreLine leaves diff line numbers out of comparisons of whole files.
var ignoreLine = cmpopts.IgnoreFields(File{}, "Line")
var ignoreHunkLine = cmpopts.IgnoreFields(Hunk{}, "Line")

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []File
	}{
		{
			name: "modified",
			in: `diff --git a/svc/user.go b/svc/user.go
index 3b18e51..a1f0c2d 100644
--- a/svc/user.go
+++ b/svc/user.go
@@ -10,4 +10,5 @@ func (s *S) Find() {
 	a := 1
-	b := 2
+	b := 3
+	c := 4
 	return
 }
`,
			want: []File{{
				OldPath: "svc/user.go", NewPath: "svc/user.go", OldMode: "100644", NewMode: "100644",
				OldBlob: "3b18e51", NewBlob: "a1f0c2d",
				Hunks: []Hunk{{OldStart: 10, OldLines: 4, NewStart: 10, NewLines: 5, Section: "func (s *S) Find() {", Lines: []Line{
					{Op: OpContext, Text: "\ta := 1"}, {Op: OpDel, Text: "\tb := 2"}, {Op: OpAdd, Text: "\tb := 3"},
					{Op: OpAdd, Text: "\tc := 4"}, {Op: OpContext, Text: "\treturn"}, {Op: OpContext, Text: "}"},
				}}},
			}},
		},
		{
			name: "new and deleted files",
			in: `diff --git a/new.go b/new.go
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+package x
+var A = 1
diff --git a/old.go b/old.go
deleted file mode 100755
index e69de29..0000000
--- a/old.go
+++ /dev/null
@@ -1 +0,0 @@
-package x
diff --git a/empty.txt b/empty.txt
new file mode 100644
index 0000000..e69de29
`,
			want: []File{
				{NewPath: "new.go", Status: Added, NewMode: "100644", OldBlob: "0000000", NewBlob: "e69de29",
					Hunks: []Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 2, Lines: []Line{{Op: OpAdd, Text: "package x"}, {Op: OpAdd, Text: "var A = 1"}}}}},
				{OldPath: "old.go", Status: Deleted, OldMode: "100755", OldBlob: "e69de29", NewBlob: "0000000",
					Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 0, NewLines: 0, Lines: []Line{{Op: OpDel, Text: "package x"}}}}},
				{NewPath: "empty.txt", Status: Added, NewMode: "100644", OldBlob: "0000000", NewBlob: "e69de29"},
			},
		},
		{
			name: "rename, copy and mode change",
			in: `diff --git a/a/x.go b/b/y.go
similarity index 100%
rename from a/x.go
rename to b/y.go
diff --git a/lib.rs b/lib2.rs
similarity index 91%
copy from lib.rs
copy to lib2.rs
index 1111111..2222222
--- a/lib.rs
+++ b/lib2.rs
@@ -1 +1 @@
-fn a() {}
+fn b() {}
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
`,
			want: []File{
				{OldPath: "a/x.go", NewPath: "b/y.go", Status: Renamed, Similarity: 100},
				{OldPath: "lib.rs", NewPath: "lib2.rs", Status: Copied, Similarity: 91, OldBlob: "1111111", NewBlob: "2222222",
					Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{{Op: OpDel, Text: "fn a() {}"}, {Op: OpAdd, Text: "fn b() {}"}}}}},
				{OldPath: "run.sh", NewPath: "run.sh", OldMode: "100644", NewMode: "100755"},
			},
		},
		{
			name: "binary files and a binary patch",
			in: `diff --git a/logo.png b/logo.png
index 1234567..89abcde 100644
Binary files a/logo.png and b/logo.png differ
diff --git a/icon.bin b/icon.bin
new file mode 100644
index 0000000000000000000000000000000000000000..d3c2b1a
GIT binary patch
literal 12
TcmZ?wbhEHbRA5kGWN-!m4
literal 0
HcmV?d00001

diff --git a/after.go b/after.go
--- a/after.go
+++ b/after.go
@@ -1 +1 @@
-a
+b
`,
			want: []File{
				{OldPath: "logo.png", NewPath: "logo.png", OldMode: "100644", NewMode: "100644", OldBlob: "1234567", NewBlob: "89abcde", Binary: true},
				{NewPath: "icon.bin", Status: Added, NewMode: "100644", OldBlob: "0000000000000000000000000000000000000000", NewBlob: "d3c2b1a", Binary: true},
				{OldPath: "after.go", NewPath: "after.go", Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{{Op: OpDel, Text: "a"}, {Op: OpAdd, Text: "b"}}}}},
			},
		},
		{
			name: "submodule",
			in: `diff --git a/vendor/lib b/vendor/lib
index 4a5b6c7..8d9e0f1 160000
--- a/vendor/lib
+++ b/vendor/lib
@@ -1 +1 @@
-Subproject commit 4a5b6c7d8e9f00112233445566778899aabbccdd
+Subproject commit 8d9e0f1a2b3c44556677889900aabbccddeeff00-dirty
`,
			want: []File{{OldPath: "vendor/lib", NewPath: "vendor/lib", OldMode: "160000", NewMode: "160000", OldBlob: "4a5b6c7", NewBlob: "8d9e0f1",
				Submodule: true, OldCommit: "4a5b6c7d8e9f00112233445566778899aabbccdd", NewCommit: "8d9e0f1a2b3c44556677889900aabbccddeeff00-dirty",
				Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{
					{Op: OpDel, Text: "Subproject commit 4a5b6c7d8e9f00112233445566778899aabbccdd"},
					{Op: OpAdd, Text: "Subproject commit 8d9e0f1a2b3c44556677889900aabbccddeeff00-dirty"}}}}}},
		},
		{
			name: "no newline at end of file",
			in: `diff --git a/n.txt b/n.txt
--- a/n.txt
+++ b/n.txt
@@ -1,2 +1,2 @@
 keep
-old
\ No newline at end of file
+new
\ No newline at end of file
`,
			want: []File{{OldPath: "n.txt", NewPath: "n.txt", Hunks: []Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Lines: []Line{
				{Op: OpContext, Text: "keep"}, {Op: OpDel, Text: "old", NoNewline: true}, {Op: OpAdd, Text: "new", NoNewline: true}}}}}},
		},
		{
			name: "quoted names",
			in: `diff --git "a/dir/tab\there.go" "b/dir/caf\303\251 \"q\".go"
similarity index 80%
rename from "dir/tab\there.go"
rename to "dir/caf\303\251 \"q\".go"
diff --git a/with space.go b/with space.go
--- a/with space.go	
+++ b/with space.go	
@@ -1 +1 @@
-x
+y
`,
			want: []File{
				{OldPath: "dir/tab\there.go", NewPath: "dir/café \"q\".go", Status: Renamed, Similarity: 80},
				{OldPath: "with space.go", NewPath: "with space.go", Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{{Op: OpDel, Text: "x"}, {Op: OpAdd, Text: "y"}}}}},
			},
		},
		{
			name: "plain diff -u with timestamps, and a diff -ru pair",
			in: `--- main.go	2024-01-02 10:00:00.000000000 +0100
+++ main.go	2024-01-02 10:05:00.000000000 +0100
@@ -3 +3 @@
-a
+b
diff -ru old/pkg/a.go new/pkg/a.go
--- old/pkg/a.go	2024-01-01
+++ new/pkg/a.go	2024-01-01
@@ -1,0 +2 @@
+added
`,
			want: []File{
				{OldPath: "main.go", NewPath: "main.go", Hunks: []Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1, Lines: []Line{{Op: OpDel, Text: "a"}, {Op: OpAdd, Text: "b"}}}}},
				{OldPath: "pkg/a.go", NewPath: "pkg/a.go", Hunks: []Hunk{{OldStart: 1, OldLines: 0, NewStart: 2, NewLines: 1, Lines: []Line{{Op: OpAdd, Text: "added"}}}}},
			},
		},
		{
			name: "mail around the diff, --no-prefix names",
			in: `From 1234 Mon Sep 17 00:00:00 2001
Subject: [PATCH] fix it
---
 x.go | 2 +-
 1 file changed

diff --git internal/x.go internal/x.go
index 1111111..2222222 100644
--- internal/x.go
+++ internal/x.go
@@ -1 +1 @@
-a
+b
-- 
2.43.0
`,
			want: []File{{OldPath: "internal/x.go", NewPath: "internal/x.go", OldMode: "100644", NewMode: "100644", OldBlob: "1111111", NewBlob: "2222222",
				Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{{Op: OpDel, Text: "a"}, {Op: OpAdd, Text: "b"}}}}}},
		},
		{
			name: "empty lines as context",
			in:   "--- a/e.go\n+++ b/e.go\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n",
			want: []File{{OldPath: "e.go", NewPath: "e.go", Hunks: []Hunk{{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 3, Lines: []Line{
				{Op: OpContext, Text: "a"}, {Op: OpContext, Text: ""}, {Op: OpDel, Text: "b"}, {Op: OpAdd, Text: "c"}}}}}},
		},
		{name: "empty input", in: ""},
		{name: "no diff at all", in: "just some text\nand more\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseBytes([]byte(tt.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, d.Files, ignoreLine, ignoreHunkLine, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if d.Truncated {
				t.Errorf("truncated: %s", d.Limit)
			}
		})
	}
}

func TestParseCRLF(t *testing.T) {
	in := "diff --git a/w.go b/w.go\r\n--- a/w.go\r\n+++ b/w.go\r\n@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n"
	d, err := ParseBytes([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !d.CRLF {
		t.Error("CRLF not noticed")
	}
	want := []Line{{Op: OpContext, Text: "a"}, {Op: OpDel, Text: "b"}, {Op: OpAdd, Text: "c"}}
	if diff := cmp.Diff(want, d.Files[0].Hunks[0].Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestParseLineNumbers(t *testing.T) {
	in := "intro\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d\n"
	d, err := ParseBytes([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := d.Files[0]
	if got := []int{f.Line, f.Hunks[0].Line, f.Hunks[1].Line}; !cmp.Equal(got, []int{2, 5, 8}) {
		t.Errorf("lines = %v, want [2 5 8]", got)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string // part of the message
		files    int    // files parsed before the problem
	}{
		{"bad hunk header", "--- a/x\n+++ b/x\n@@ -1,2 +1 @\n", 3, "no closing @@", 0},
		{"bad range", "--- a/x\n+++ b/x\n@@ -a,2 +1 @@\n", 3, "bad start", 0},
		{"short hunk", "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n", 6, "ends early", 0},
		{"stray line", "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n*b\n", 5, "unexpected line", 0},
		{"too many removed", "--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n-a\n-b\n+c\n", 5, "past the old count", 0},
		{"hunk outside a file", "hello\n@@ -1 +1 @@\n-a\n+b\n", 2, "outside a file", 0},
		{"absolute path", "--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n", 1, "not relative", 0},
		{"climbing path", "diff --git a/../x b/../x\n--- a/../x\n+++ b/../x\n", 1, "not relative", 0},
		{"combined hunk", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@@ -1 -1 +1 @@@\n", 4, "combined", 0},
		{"bad quote", "diff --git \"a/x b/x\n", 1, "unterminated", 0},
		{"rename without to", "diff --git a/x b/y\nrename from x\n", 1, "needs both", 0},
		{"error after a good file", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n", 10, "ends early", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseBytes([]byte(tt.in), Options{})
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("error = %v, want line %d and %q", err, tt.line, tt.msg)
			}
			if d == nil || len(d.Files) != tt.files {
				t.Errorf("partial files = %v, want %d", d, tt.files)
			}
		})
	}
}

func TestParseCombinedSkipped(t *testing.T) {
	in := "diff --cc m.go\nindex 1,2..3\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n -b\n++c\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
	d, err := ParseBytes([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Combined != 1 || len(d.Files) != 1 || d.Files[0].NewPath != "x" {
		t.Errorf("combined = %d, files = %+v", d.Combined, d.Files)
	}
}

// bigDiff is n files of one changed line each.
func bigDiff(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("diff --git a/f" + itoa(i) + ".go b/f" + itoa(i) + ".go\n--- a/f" + itoa(i) + ".go\n+++ b/f" + itoa(i) + ".go\n@@ -1 +1 @@\n-a\n+b\n")
	}
	return b.String()
}

func itoa(i int) string { return fmt.Sprintf("%03d", i) }

func TestParseLimits(t *testing.T) {
	in := bigDiff(50) // 6 lines a file
	tests := []struct {
		name      string
		opt       Options
		files     int
		limitWord string
	}{
		{"files", Options{MaxFiles: 10}, 10, "files"},
		{"lines", Options{MaxLines: 100}, 16, "lines"},  // 16 whole files in 96 lines; the 17th is cut
		{"bytes", Options{MaxBytes: 1000}, 12, "bytes"}, // 77 bytes a file
		{"none", Options{}, 50, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(strings.NewReader(in), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Files) != tt.files {
				t.Errorf("files = %d, want %d", len(d.Files), tt.files)
			}
			if d.Truncated != (tt.limitWord != "") || !strings.Contains(d.Limit, tt.limitWord) {
				t.Errorf("truncated = %v, limit = %q; want one naming %q", d.Truncated, d.Limit, tt.limitWord)
			}
			for _, f := range d.Files {
				if len(f.Hunks) != 1 || len(f.Hunks[0].Lines) != 2 {
					t.Fatalf("a kept file is incomplete: %+v", f)
				}
			}
		})
	}
}

func TestRuns(t *testing.T) {
	d, err := ParseBytes([]byte(`--- a/x
+++ b/x
@@ -10,7 +10,5 @@
 a
-b
-c
+C
 d
-e
 f
 g
@@ -30,0 +29,2 @@
+n1
+n2
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []Run
	for _, h := range d.Files[0].Hunks {
		got = append(got, h.Runs()...)
	}
	want := []Run{
		{Old: []int{11, 12}, New: []int{11}, NewText: []string{"C"}, At: 11},
		{Old: []int{14}, At: 13},
		{New: []int{29, 30}, NewText: []string{"n1", "n2"}, At: 29},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
}

func TestTitleAndStat(t *testing.T) {
	f := File{OldPath: "a.go", NewPath: "b.go", Status: Renamed, Similarity: 92, OldMode: "100644", NewMode: "100755",
		Hunks: []Hunk{{Lines: []Line{{Op: OpAdd}, {Op: OpAdd}, {Op: OpDel}, {Op: OpContext}}}}}
	if got, want := f.Title(), "a.go → b.go (renamed, 92% similar) (mode 100644 → 100755)"; got != want {
		t.Errorf("Title = %q, want %q", got, want)
	}
	if a, r := f.Stat(); a != 2 || r != 1 {
		t.Errorf("Stat = %d, %d", a, r)
	}
}

func TestRelative(t *testing.T) {
	in := "--- a/svc/x.go\n+++ b/svc/x.go\n@@ -1 +1 @@\n-a\n+b\n--- a/other/y.go\n+++ b/other/y.go\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/svc/new.go\n@@ -0,0 +1 @@\n+n\n"
	d, err := ParseBytes([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := d.Relative("svc/"); n != 1 {
		t.Errorf("dropped %d files, want 1", n)
	}
	var got []string
	for _, f := range d.Files {
		got = append(got, f.OldPath+"|"+f.NewPath)
	}
	if diff := cmp.Diff([]string{"x.go|x.go", "|new.go"}, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	// Already relative: left alone.
	if n := d.Relative("svc/"); n != 0 || len(d.Files) != 2 {
		t.Errorf("second Relative dropped %d, kept %d", n, len(d.Files))
	}
}

func TestChangedLines(t *testing.T) {
	const text = `diff --git a/src/palette.rs b/src/palette.rs
--- a/src/palette.rs
+++ b/src/palette.rs
@@ -10,3 +10,5 @@ impl Palette {
             "cool" => Ok(Palette::Cool),
-            _ => Err(format!("no palette called {name}")),
+            "mono" => Ok(Palette::Plain),
+
+            _ => Err(format!("unknown palette {name}")),
         }
diff --git a/logo.png b/logo.png
Binary files a/logo.png and b/logo.png differ
diff --git a/src/walk.rs b/src/walk.rs
--- a/src/walk.rs
+++ b/src/walk.rs
@@ -1,2 +1,2 @@
-use std::fs;
+use std::fs::{self, DirEntry};
 use std::path::Path;
`
	d, err := ParseBytes([]byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`            _ => Err(format!("no palette called {name}")),`,
		`            "mono" => Ok(Palette::Plain),`,
		`            _ => Err(format!("unknown palette {name}")),`,
		`use std::fs;`,
		`use std::fs::{self, DirEntry};`,
	}
	if diff := cmp.Diff(want, d.ChangedLines(0)); diff != "" {
		t.Errorf("ChangedLines (-want +got):\n%s", diff)
	}
	// The limit keeps whole lines, in order.
	limit := len(want[0]) + len(want[1]) + 3
	if diff := cmp.Diff(want[:2], d.ChangedLines(limit)); diff != "" {
		t.Errorf("ChangedLines(%d) (-want +got):\n%s", limit, diff)
	}
}
