package engine

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/diffmode"
	"github.com/ctxexpand/ctxexpand/expand"
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
