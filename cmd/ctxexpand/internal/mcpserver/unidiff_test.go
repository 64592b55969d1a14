package mcpserver

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseUnified(t *testing.T) {
	tests := []struct {
		name  string
		diff  string
		want  []FileDiff
		probs []DiffProblem
	}{
		{
			name: "one changed line",
			diff: `diff --git a/svc/user.go b/svc/user.go
index 1111111..2222222 100644
--- a/svc/user.go
+++ b/svc/user.go
@@ -44,7 +44,7 @@ func (s *UserService) FindByEmail(ctx context.Context) error {
 		return nil
 	}
 	if err != nil {
-		return fmt.Errorf("a: %w", err)
+		return fmt.Errorf("b: %w", err)
 	}
 	return u, nil
 }
`,
			want: []FileDiff{{OldPath: "svc/user.go", NewPath: "svc/user.go", Hunks: []Hunk{{
				OldStart: 44, OldLines: 7, NewStart: 44, NewLines: 7,
				Section: "func (s *UserService) FindByEmail(ctx context.Context) error {",
				Changed: []LineRange{{47, 47}},
			}}}},
		},
		{
			name: "two runs in one hunk, and a second hunk",
			diff: `diff --git a/a.go b/a.go
--- a/a.go
+++ b/a.go
@@ -1,5 +1,7 @@
 package a
+// added
 
 func f() {
-	x()
+	y()
+	z()
 }
@@ -20,3 +21,2 @@ func g() {
 	a()
-	b()
 }
`,
			want: []FileDiff{{OldPath: "a.go", NewPath: "a.go", Hunks: []Hunk{
				{OldStart: 1, OldLines: 5, NewStart: 1, NewLines: 7, Changed: []LineRange{{2, 2}, {5, 6}}},
				{OldStart: 20, OldLines: 3, NewStart: 21, NewLines: 2, Section: "func g() {", Changed: []LineRange{{21, 22}}},
			}}},
		},
		{
			name: "new, deleted, renamed and binary files",
			diff: `diff --git a/new.go b/new.go
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+package a
+var X = 1
diff --git a/old.go b/old.go
deleted file mode 100644
index 4444444..0000000
--- a/old.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package a
-var Y = 2
diff --git a/from.go b/to.go
similarity index 100%
rename from from.go
rename to to.go
diff --git a/logo.png b/logo.png
index 5555555..6666666 100644
Binary files a/logo.png and b/logo.png differ
`,
			want: []FileDiff{
				{NewPath: "new.go", Hunks: []Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 2, Changed: []LineRange{{1, 2}}}}},
				{OldPath: "old.go", Hunks: []Hunk{{OldStart: 1, OldLines: 2, NewStart: 0, NewLines: 0, Changed: []LineRange{{1, 1}}}}},
				{OldPath: "from.go", NewPath: "to.go"},
				{OldPath: "logo.png", NewPath: "logo.png", Binary: true},
			},
		},
		{
			name: "quoted and spaced paths, no newline at end of file",
			diff: `diff --git "a/dir/t\303\251st.go" "b/dir/t\303\251st.go"
--- "a/dir/t\303\251st.go"
+++ "b/dir/t\303\251st.go"
@@ -1 +1 @@
-package a
\ No newline at end of file
+package b
\ No newline at end of file
diff --git a/my file.go b/my file.go
--- a/my file.go	2024-01-01 00:00:00
+++ b/my file.go	2024-01-02 00:00:00
@@ -3 +3 @@
-x
+y
`,
			want: []FileDiff{
				{OldPath: "dir/tést.go", NewPath: "dir/tést.go", Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Changed: []LineRange{{1, 1}}}}},
				{OldPath: "my file.go", NewPath: "my file.go", Hunks: []Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1, Changed: []LineRange{{3, 3}}}}},
			},
		},
		{
			name: "plain unified diff without a git header, preamble ignored",
			diff: `Some mail text before the patch.

--- a/x.rs
+++ b/x.rs
@@ -10,2 +10,3 @@ impl Store {
 fn a() {}
+fn b() {}
 fn c() {}
`,
			want: []FileDiff{{OldPath: "x.rs", NewPath: "x.rs", Hunks: []Hunk{{OldStart: 10, OldLines: 2, NewStart: 10, NewLines: 3, Section: "impl Store {", Changed: []LineRange{{11, 11}}}}}},
		},
		{
			name: "malformed hunk header and a hunk cut short",
			diff: `diff --git a/a.go b/a.go
--- a/a.go
+++ b/a.go
@@ -x,1 +1,1 @@
-a
+b
@@ -5,4 +5,4 @@
 a
-b
+c
diff --git a/b.go b/b.go
--- a/b.go
+++ b/b.go
@@ -1 +1 @@
-p
+q
`,
			want: []FileDiff{
				{OldPath: "a.go", NewPath: "a.go", Hunks: []Hunk{{OldStart: 5, OldLines: 4, NewStart: 5, NewLines: 4, Changed: []LineRange{{6, 6}}}}},
				{OldPath: "b.go", NewPath: "b.go", Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Changed: []LineRange{{1, 1}}}}},
			},
			probs: []DiffProblem{
				{Line: 4, Msg: `malformed hunk header "@@ -x,1 +1,1 @@"`},
				{Line: 11, Msg: "hunk ends early: 2 old and 2 new lines missing"},
			},
		},
		{
			name: "empty context lines stripped by an editor",
			diff: "--- a/a.go\n+++ b/a.go\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n",
			want: []FileDiff{{OldPath: "a.go", NewPath: "a.go", Hunks: []Hunk{{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 3, Changed: []LineRange{{3, 3}}}}}},
		},
		{
			name: "not a diff",
			diff: "hello\nworld\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, probs := ParseUnified(tc.diff)
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(FileDiff{}, "Text"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.probs, probs, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			// Each file's text is its part of the input, in order.
			var joined strings.Builder
			for _, f := range got {
				joined.WriteString(f.Text)
				if !strings.Contains(tc.diff, f.Text) {
					t.Errorf("text of %s is not a part of the diff: %q", f.Path(), f.Text)
				}
			}
		})
	}
}

func TestFileDiffStatus(t *testing.T) {
	tests := []struct {
		f    FileDiff
		want string
		path string
	}{
		{FileDiff{OldPath: "a", NewPath: "a"}, "modified", "a"},
		{FileDiff{NewPath: "a"}, "added", "a"},
		{FileDiff{OldPath: "a"}, "deleted", "a"},
		{FileDiff{OldPath: "a", NewPath: "b"}, "renamed", "b"},
	}
	for _, tc := range tests {
		if got := tc.f.Status(); got != tc.want {
			t.Errorf("%+v: Status = %q, want %q", tc.f, got, tc.want)
		}
		if got := tc.f.Path(); got != tc.path {
			t.Errorf("%+v: Path = %q, want %q", tc.f, got, tc.path)
		}
	}
}

// FuzzParseUnified checks that any text parses without panicking into
// files whose changed ranges are well formed and whose text is theirs.
func FuzzParseUnified(f *testing.F) {
	f.Add("diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
	f.Add("--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+x\n")
	f.Add("diff --git \"a/\\303\\251\" \"b/\\303\\251\"\nBinary files differ\n")
	f.Add("@@ -1 +1 @@\n-a\n+b\n")
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -99999999999,1 +1,-1 @@\n")
	f.Fuzz(func(t *testing.T, text string) {
		files, probs := ParseUnified(text)
		for _, fd := range files {
			if fd.OldPath == "" && fd.NewPath == "" {
				t.Fatalf("file without a path: %+v", fd)
			}
			if !strings.Contains(text, fd.Text) {
				t.Fatalf("file text is not part of the input")
			}
			for _, h := range fd.Hunks {
				for _, r := range h.Changed {
					if r.Start < 1 || r.End < r.Start {
						t.Fatalf("bad changed range %+v in %+v", r, h)
					}
				}
			}
		}
		for i := 1; i < len(probs); i++ {
			if probs[i].Line < probs[i-1].Line {
				t.Fatalf("problems out of order: %v", probs)
			}
		}
	})
}
