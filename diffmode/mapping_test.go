package diffmode

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// factsOf builds facts for the new side of a diff from file contents,
// with spans from the same scanners the base uses (the loaders are not
// this package's to import).
func factsOf(files map[string]string) *analyze.Facts {
	fs := &analyze.Facts{}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		src := files[p]
		fid := fs.AddFile(analyze.File{Path: p, Lang: analyze.LangOf(p), Lines: strings.Count(src, "\n")})
		decls := BaseDecls(p, []byte(src))
		ids := make([]analyze.SymID, len(decls))
		for i, d := range decls {
			parent := analyze.NoSym
			if d.Parent >= 0 {
				parent = ids[d.Parent]
			}
			ids[i] = fs.AddSymbol(analyze.Symbol{Name: d.Name, Container: d.Container, Kind: d.Kind, File: fid, Start: d.Start, End: d.End, DeclLine: d.Start, Parent: parent})
		}
	}
	fs.Normalize()
	return fs
}

// mapSources serves bases from a map by old path.
type mapSources map[string]string

func (m mapSources) Base(_ context.Context, f *File) ([]byte, error) {
	s, ok := m[f.OldPath]
	if !ok {
		return nil, ErrNoBase
	}
	return []byte(s), nil
}

const baseA = `package svc

import "fmt"

// Keep stays.
func Keep() int {
	return 1
}

// Gone is removed.
func Gone() {
	fmt.Println("x")
}

type T struct {
	A int
}

func (t T) M() int {
	x := t.A
	return x
}
`

const headA = `package svc

import "fmt"

// Keep stays.
func Keep() int {
	return 2
}

type T struct {
	A int
	B string
}

func (t T) M() int {
	return t.A
}

func Added() { fmt.Println() }
`

const diffA = `diff --git a/svc/a.go b/svc/a.go
--- a/svc/a.go
+++ b/svc/a.go
@@ -4,19 +4,16 @@
 
 // Keep stays.
 func Keep() int {
-	return 1
-}
-
-// Gone is removed.
-func Gone() {
-	fmt.Println("x")
+	return 2
 }
 
 type T struct {
 	A int
+	B string
 }
 
 func (t T) M() int {
-	x := t.A
-	return x
+	return t.A
 }
+
+func Added() { fmt.Println() }
`

func TestMap(t *testing.T) {
	tests := []struct {
		name  string
		diff  string
		head  map[string]string
		base  mapSources
		want  []string
		notes []string
	}{
		{
			name: "modified, added and deleted",
			diff: diffA,
			head: map[string]string{"svc/a.go": headA},
			base: mapSources{"svc/a.go": baseA},
			want: []string{
				"modified func Keep (svc/a.go:5-8) lines 3",
				"modified struct T (svc/a.go:10-13) lines 1",
				"modified method T.M (svc/a.go:15-17) lines 3",
				"added func Added (svc/a.go:19-19) lines 1",
				"deleted func Gone (was svc/a.go:10-13) lines 3 at svc/a.go:7",
			},
		},
		{
			name: "moved to a new file",
			diff: diffA + "diff --git a/svc/b.go b/svc/b.go\nnew file mode 100644\n--- /dev/null\n+++ b/svc/b.go\n@@ -0,0 +1,5 @@\n+package svc\n+\n+func Gone() {\n+\tprintln()\n+}\n",
			head: map[string]string{"svc/a.go": headA, "svc/b.go": "package svc\n\nfunc Gone() {\n\tprintln()\n}\n"},
			base: mapSources{"svc/a.go": baseA},
			want: []string{
				"modified func Keep (svc/a.go:5-8) lines 3",
				"modified struct T (svc/a.go:10-13) lines 1",
				"modified method T.M (svc/a.go:15-17) lines 3",
				"added func Added (svc/a.go:19-19) lines 1",
				"moved func Gone (svc/b.go:3-5, from svc/a.go:10-13) lines 3",
			},
		},
		{
			name:  "no base: nothing deleted, a note",
			diff:  diffA,
			head:  map[string]string{"svc/a.go": headA},
			base:  mapSources{},
			want:  []string{"modified func Keep (svc/a.go:5-8) lines 1", "modified struct T (svc/a.go:10-13) lines 1", "modified method T.M (svc/a.go:15-17) lines 1", "modified func Added (svc/a.go:19-19) lines 1"},
			notes: []string{"could not read the base of svc/a.go (no base version available); symbols deleted there are not reported"},
		},
		{
			name: "deleted file, renamed file, binary, submodule, mode, unanalysed",
			diff: "diff --git a/svc/old.go b/svc/old.go\ndeleted file mode 100644\n--- a/svc/old.go\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-package svc\n-\n-func Old() {}\n" +
				"diff --git a/svc/r1.go b/svc/r2.go\nsimilarity index 100%\nrename from svc/r1.go\nrename to svc/r2.go\n" +
				"diff --git a/logo.png b/logo.png\nBinary files a/logo.png and b/logo.png differ\n" +
				"diff --git a/lib b/lib\nindex 1111111..2222222 160000\n--- a/lib\n+++ b/lib\n@@ -1 +1 @@\n-Subproject commit 1111111\n+Subproject commit 2222222\n" +
				"diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n" +
				"diff --git a/gen/x.go b/gen/x.go\n--- a/gen/x.go\n+++ b/gen/x.go\n@@ -1 +1 @@\n-package a\n+package b\n",
			head: map[string]string{"svc/r2.go": "package svc\n\nfunc R() {}\n"},
			base: mapSources{"svc/old.go": "package svc\n\nfunc Old() {}\n", "svc/r1.go": "package svc\n\nfunc R() {}\n", "gen/x.go": "package a\n"},
			want: []string{"deleted func Old (was svc/old.go:3-3) lines 1", "renamed svc/r1.go → svc/r2.go lines 0"},
			notes: []string{
				"svc/r1.go → svc/r2.go (renamed, 100% similar)",
				"binary file logo.png modified; its content is not shown",
				"submodule lib moved from 1111111 to 2222222; its content is not reviewed",
				"mode of run.sh changed from 100644 to 100755",
				"gen/x.go is not among the analysed sources (ignored, excluded or unparsable); its changes are shown but not followed",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseBytes([]byte(tt.diff), Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Map(context.Background(), factsOf(tt.head), d, tt.base)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.Changes {
				s := fmt.Sprintf("%s lines %d", c, c.Lines)
				if c.HeadPath != "" {
					s += fmt.Sprintf(" at %s:%d", c.HeadPath, c.At)
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.notes, r.Notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMapRust(t *testing.T) {
	base := "pub struct Store;\n\nimpl Store {\n    pub fn keep(&self) -> u8 {\n        1\n    }\n\n    pub fn orders_of(&self) -> u8 {\n        2\n    }\n}\n"
	head := "pub struct Store;\n\nimpl Store {\n    pub fn keep(&self) -> u8 {\n        3\n    }\n}\n"
	diff := "--- a/src/store.rs\n+++ b/src/store.rs\n@@ -2,10 +2,6 @@\n \n impl Store {\n     pub fn keep(&self) -> u8 {\n-        1\n-    }\n-\n-    pub fn orders_of(&self) -> u8 {\n-        2\n+        3\n     }\n }\n"
	d, err := ParseBytes([]byte(diff), Options{})
	if err != nil {
		t.Fatal(err)
	}
	facts := factsOf(map[string]string{"src/store.rs": head})
	// A field named like the deleted getter (the loader reports fields;
	// the scan does not) must not hide the deletion.
	facts.AddSymbol(analyze.Symbol{Name: "orders_of", Container: "Store", Kind: analyze.KindField, File: 0, Start: 1, End: 1, Parent: 0})
	facts.Normalize()
	r, err := Map(context.Background(), facts, d, mapSources{"src/store.rs": base})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, c.String())
	}
	want := []string{"modified method Store::keep (src/store.rs:4-6)", "deleted method Store::orders_of (was src/store.rs:8-10)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	seeds, _ := r.Seeds(0)
	wantSeeds := []Seed{
		{Path: "src/store.rs", Start: 4, End: 6, Reason: "changed: modified method Store::keep (src/store.rs:4-6)"},
		{Path: "src/store.rs", Start: 4, End: 5, Reason: "changed: deleted method Store::orders_of (was src/store.rs:8-10)"},
	}
	if diff := cmp.Diff(wantSeeds, seeds); diff != "" {
		t.Errorf("seeds (-want +got):\n%s", diff)
	}
	if q := r.QueryText([]string{"store: drop @orders_of"}); q != "review the change to Store::keep; store: drop orders_of" {
		t.Errorf("query = %q", q)
	}
}

// TestMapSCIPLanguage: a TypeScript file, whose symbols come from a SCIP
// index and whose base is not scanned, reports an edited function as
// modified (not added), and says that deletions there are not seen.
func TestMapSCIPLanguage(t *testing.T) {
	diff := "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n export function keep(): number {\n-  return 1;\n+  return 3;\n }\n"
	d, err := ParseBytes([]byte(diff), Options{})
	if err != nil {
		t.Fatal(err)
	}
	facts := &analyze.Facts{}
	fid := facts.AddFile(analyze.File{Path: "src/a.ts", Lang: analyze.LangTypeScript, Lines: 3})
	facts.AddSymbol(analyze.Symbol{Name: "keep", Kind: analyze.KindFunc, File: fid, Start: 1, End: 3, DeclLine: 1, Parent: analyze.NoSym})
	facts.Normalize()
	r, err := Map(context.Background(), facts, d, mapSources{"src/a.ts": "export function keep(): number {\n  return 1;\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, c.String())
	}
	if diff := cmp.Diff([]string{"modified func keep (src/a.ts:1-3)"}, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "src/a.ts is not scanned for symbols") {
		t.Errorf("notes %q do not say deletions are not seen", r.Notes)
	}
}

func TestSeedsCap(t *testing.T) {
	r := &Report{}
	for i := 1; i <= 5; i++ {
		r.Changes = append(r.Changes, Change{Path: "a.go", Symbol: fmt.Sprint("F", i), SymKind: analyze.KindFunc, Start: i * 10, End: i*10 + 5})
	}
	seeds, dropped := r.Seeds(3)
	if len(seeds) != 3 || dropped != 2 {
		t.Errorf("Seeds(3) = %d seeds, %d dropped", len(seeds), dropped)
	}
}

func TestReverseApply(t *testing.T) {
	d, err := ParseBytes([]byte(diffA), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReverseApply([]byte(headA), &d.Files[0])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(baseA, string(got)); diff != "" {
		t.Errorf("ReverseApply (-want +got):\n%s", diff)
	}
	// CRLF content still matches.
	crlf := strings.ReplaceAll(headA, "\n", "\r\n")
	if _, err := ReverseApply([]byte(crlf), &d.Files[0]); err != nil {
		t.Errorf("CRLF head: %v", err)
	}
	// A head that moved on is refused, not misread.
	if _, err := ReverseApply([]byte(strings.Replace(headA, "return 2", "return 9", 1)), &d.Files[0]); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("changed head: err = %v", err)
	}
	src := ReverseSource(func(context.Context, string) ([]byte, error) { return []byte(headA), nil })
	both := FirstOf(SourcesFunc(func(context.Context, *File) ([]byte, error) { return nil, errors.New("no git") }), src)
	if b, err := both.Base(context.Background(), &d.Files[0]); err != nil || string(b) != baseA {
		t.Errorf("FirstOf fell through wrongly: %v", err)
	}
}
