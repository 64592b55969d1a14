package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/diffmode"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

func TestReviewRequest(t *testing.T) {
	d, err := diffmode.ParseBytes([]byte(`diff --git a/svc/user.go b/svc/user.go
--- a/svc/user.go
+++ b/svc/user.go
@@ -10,3 +10,3 @@ func (s *UserService) Find() {
 	a()
-	b()
+	c()
 	d()
`), diffmode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := &diffmode.Report{
		Changes: []diffmode.Change{
			{Kind: diffmode.ChangeModified, Path: "svc/user.go", Symbol: "UserService.Find", SymKind: analyze.KindMethod, Start: 8, End: 14, Lines: 2},
			{Kind: diffmode.ChangeDeleted, Path: "svc/user.go", Symbol: "old", SymKind: analyze.KindFunc, Start: 20, End: 22, HeadPath: "svc/user.go", At: 16},
		},
		Notes: []string{"report note"},
	}
	in := Request{Root: "/r", Budget: 1000, Format: "json", Strategy: "impact", Notes: []string{"caller note"}}
	got := ReviewRequest(in, Review{Diff: d, Report: rep, What: "the working tree against HEAD", Subjects: []string{"fix @find"}, Words: "why does @svc/user.go fail", Notes: []string{"review note"}})

	if want := "why does @svc/user.go fail; review the change to UserService.Find; fix find"; got.Query != want {
		t.Errorf("query %q, want %q", got.Query, want)
	}
	wantExplicit := []expand.Explicit{
		{Path: "svc/user.go", StartLine: 8, EndLine: 14, Reason: "changed: modified method UserService.Find (svc/user.go:8-14)"},
		{Path: "svc/user.go", StartLine: 15, EndLine: 16, Reason: "changed: deleted func old (was svc/user.go:20-22)"},
	}
	if diff := cmp.Diff(wantExplicit, got.Explicit); diff != "" {
		t.Errorf("explicit (-want +got):\n%s", diff)
	}
	var kinds []string
	for _, e := range got.Extras {
		kinds = append(kinds, e.Kind+": "+e.Title)
	}
	if diff := cmp.Diff([]string{"changes: the working tree against HEAD", "diff: svc/user.go"}, kinds); diff != "" {
		t.Errorf("extras (-want +got):\n%s", diff)
	}
	if !strings.Contains(got.Extras[1].Content, "+\tc()") {
		t.Errorf("the diff extra lacks the hunk:\n%s", got.Extras[1].Content)
	}
	if diff := cmp.Diff([]string{"caller note", "review note", "report note", "deleted func old (was svc/user.go:20-22)"}, got.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if !got.NoNetwork || got.Budget != 1000 || got.Format != "json" || got.Strategy != "impact" || got.Root != "/r" {
		t.Errorf("the caller's settings were not kept: %+v", got)
	}
	if len(in.Explicit) != 0 || len(in.Extras) != 0 || len(in.Notes) != 1 {
		t.Errorf("the caller's request was modified: %+v", in)
	}
}

// TestReviewOfAChange reviews an edit of the token code in a copy of
// gosvc whose history changed the token code and the auth middleware
// together twice: the test file named after the changed file comes right
// after it, the middleware is there because history ties it to the
// change, and the changed file is shown as its changed code (the diff
// shows the change), not whole.
func TestReviewOfAChange(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := copyTree(t, filepath.Join(repoRoot(t), "testdata", "gosvc"))
	commitAll(t, root, "sample user service")
	appendTo := func(p, text string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(root, p), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 {
		appendTo("internal/auth/token.go", fmt.Sprintf("\n// Revision %d of the token format.\n", i))
		appendTo("internal/auth/middleware.go", fmt.Sprintf("\n// Reads revision %d tokens.\n", i))
		git(t, root, "commit", "-qam", fmt.Sprintf("auth: token format revision %d", i))
	}
	// The change under review: the signature's encoding.
	ctx := context.Background()
	s, rv := reviewEdit(t, root, "internal/auth/token.go", "return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))", "return base64.URLEncoding.EncodeToString(mac.Sum(nil))")
	req := ReviewRequest(Request{Root: root, Budget: 6000, Format: "json", Strategy: expand.Impact.Name, MaxFiles: 20}, rv)
	if diff := cmp.Diff([]string{"internal/auth/token.go"}, req.Changed); diff != "" {
		t.Fatalf("changed files (-want +got):\n%s", diff)
	}
	out, err := s.Query(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	reasons := map[string][]string{}
	for _, f := range out.Result.Files {
		paths = append(paths, f.Path)
		reasons[f.Path] = f.Reasons
	}
	if len(paths) < 2 || paths[0] != "internal/auth/token.go" || paths[1] != "internal/auth/token_test.go" {
		t.Errorf("ranking %v; want the changed file, then its tests", paths)
	}
	if !slices.Contains(reasons["internal/auth/token_test.go"], "the tests of internal/auth/token.go, by name") {
		t.Errorf("token_test.go's reasons %q do not name the tests by name", reasons["internal/auth/token_test.go"])
	}
	// The first commit added every file: it ties nothing to anything.
	if !slices.Contains(reasons["internal/auth/middleware.go"], "changed with internal/auth/token.go in 2 of 2 commits") {
		t.Errorf("middleware.go's reasons %q do not say it changes with the token code", reasons["internal/auth/middleware.go"])
	}
	for _, f := range out.BundleResult.Files {
		if f.Path == "internal/auth/token.go" && f.Rung != bundle.RungSpans {
			t.Errorf("the changed file is shown at rung %v; want its spans", f.Rung)
		}
	}
}

// TestReviewRustModuleTests reviews an edit of src/dfa/sparse.rs in the
// rustreview fixture, whose integration tests mirror the module tree:
// tests/dfa/api.rs tests the dfa module without naming the changed file
// or calling its code. The review ties it to the change by its path, and
// its bundle shows it (as its spans, planned right after the changed
// code) although the budget is tight; tests/text.rs, of another module,
// is not tied.
func TestReviewRustModuleTests(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := copyTree(t, filepath.Join(repoRoot(t), "testdata", "rustreview"))
	commitAll(t, root, "automata fixture")
	ctx := context.Background()
	s, rv := reviewEdit(t, root, "src/dfa/sparse.rs", "        0\n    }", "        DEAD\n    }\n}\n\n/// The dead state: no byte leaves it.\npub const DEAD: u16 = 0;\n\nimpl Sparse {\n    /// Whether no byte leaves `state`.\n    pub fn is_dead(&self, state: u16) -> bool {\n        self.edges[state as usize].is_empty()\n    }")
	// At 700 tokens the diff and the frame leave too little for the
	// changed code's spans; planned with the implicit files, the test was
	// shown as its skeleton.
	req := ReviewRequest(Request{Root: root, Budget: 700, Format: "json", Strategy: expand.Impact.Name, MaxFiles: 20}, rv)
	out, err := s.Query(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string][]string{}
	for _, f := range out.Result.Files {
		reasons[f.Path] = f.Reasons
	}
	if !slices.Contains(reasons["tests/dfa/api.rs"], "the tests of module dfa (src/dfa/sparse.rs), by path") {
		t.Errorf("tests/dfa/api.rs's reasons %q do not tie it to the change by its path", reasons["tests/dfa/api.rs"])
	}
	for _, r := range reasons["tests/text.rs"] {
		if strings.HasPrefix(r, "the tests of") {
			t.Errorf("tests/text.rs is tied to the change: %q", r)
		}
	}
	shown := map[string]bundle.Rung{}
	for _, f := range out.BundleResult.Files {
		shown[f.Path] = f.Rung
	}
	if r := shown["tests/dfa/api.rs"]; r != bundle.RungSpans && r != bundle.RungFull {
		t.Errorf("tests/dfa/api.rs is shown at rung %v; want its content\n%s", r, out.Bundle)
	}
}

// TestReviewTestsSpellingTheChange reviews a change to a command-line
// tool's palettes (testdata/rustcli). Its integration tests run the built
// program and read what it prints: tests/colours.rs exercises the
// palettes but shares no symbol with src/palette.rs and is not named after
// it, so only the words of the changed lines tie them. The review names
// it and says why; tests/depth.rs, about another option, and tests/run.rs,
// the helpers, are not tied. Of the code, src/options.rs, which reads the
// palettes by name, is tied by its words and src/walk.rs is not. No test
// is named after the change, so the best-spelling test is planned with
// it: at 900 tokens it is shown, where planned with the other implicit
// files it was left out. Its spans are the test functions that spell the
// change, not the whole file.
func TestReviewTestsSpellingTheChange(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := copyTree(t, filepath.Join(repoRoot(t), "testdata", "rustcli"))
	commitAll(t, root, "tally fixture")
	ctx := context.Background()
	s, rv := reviewEdit(t, root, "src/palette.rs",
		`_ => Err(format!("no palette called {name}")),`,
		`"mono" => Ok(Palette::Plain),
            _ => Err(format!("no palette called {name}; the palettes are plain, mono, warm and cool")),`)
	req := ReviewRequest(Request{Root: root, Budget: 900, Format: "json", Strategy: expand.Impact.Name, MaxFiles: 20}, rv)
	out, err := s.Query(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string][]string{}
	rankOf := map[string]int{}
	for i, f := range out.Result.Files {
		reasons[f.Path] = f.Reasons
		rankOf[f.Path] = i + 1
	}
	const spells = "spells the change's words: "
	why := ""
	for _, r := range reasons["tests/colours.rs"] {
		if strings.HasPrefix(r, spells) {
			why = r
		}
	}
	if why == "" {
		t.Fatalf("tests/colours.rs is not tied to the change by its words; reasons %q", reasons["tests/colours.rs"])
	}
	if !strings.Contains(why, "palette") {
		t.Errorf("the reason %q does not name the word the test and the change share", why)
	}
	// The code that reads the palettes by name spells them too; the
	// directory walk does not.
	if !slices.ContainsFunc(reasons["src/options.rs"], func(r string) bool { return strings.HasPrefix(r, spells) }) {
		t.Errorf("src/options.rs, which parses --palette, is not tied by its words; reasons %q", reasons["src/options.rs"])
	}
	for _, other := range []string{"tests/depth.rs", "tests/run.rs", "src/walk.rs"} {
		for _, r := range reasons[other] {
			if strings.HasPrefix(r, spells) {
				t.Errorf("%s is tied to the change by its words: %q", other, r)
			}
		}
	}
	if r, ok := rankOf["tests/depth.rs"]; ok && r < rankOf["tests/colours.rs"] {
		t.Errorf("tests/depth.rs (rank %d) comes before tests/colours.rs (rank %d)", r, rankOf["tests/colours.rs"])
	}
	shown := map[string]bundle.Rung{}
	for _, f := range out.BundleResult.Files {
		shown[f.Path] = f.Rung
	}
	if r := shown["tests/colours.rs"]; r != bundle.RungSpans && r != bundle.RungFull {
		t.Errorf("tests/colours.rs is shown at rung %v; want its content\n%s", r, out.Bundle)
	}
	// Its spans are the tests that spell the change: the palettes by
	// name and the refusal, not the check that lines end with a reset.
	var spans []string
	for _, f := range out.Result.Files {
		if f.Path == "tests/colours.rs" {
			for _, sp := range f.Spans {
				spans = append(spans, sp.Symbol)
			}
		}
	}
	for _, want := range []string{"a_warm_palette_colours_each_count", "an_unknown_palette_is_refused"} {
		if !slices.Contains(spans, want) {
			t.Errorf("tests/colours.rs's spans %q lack %s", spans, want)
		}
	}
	if slices.Contains(spans, "coloured_lines_end_with_a_reset") {
		t.Errorf("tests/colours.rs's spans %q hold a test that does not spell the change", spans)
	}
}

// reviewEdit replaces old with new in the file rel of the work tree at
// root, opens the tree and returns the session (closed with the test) and
// the review of the work tree against HEAD.
func reviewEdit(t *testing.T, root, rel, old, new string) (*Session, Review) {
	t.Helper()
	testfiles.EditFile(t, root, rel, func(s string) string { return strings.Replace(s, old, new, 1) })
	ctx := context.Background()
	s, err := Open(ctx, root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	rv, err := reviewOfWorkTree(ctx, s, root, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, rv
}
