package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/engine"
)

func fr(path string, rung bundle.Rung) bundle.FileResult {
	return bundle.FileResult{Path: path, Rung: rung, Included: rung > bundle.RungOmitted}
}

func TestPageDescribe(t *testing.T) {
	res := &bundle.Result{Budget: 1000, TotalTokens: 990, Files: []bundle.FileResult{fr("a", bundle.RungFull), fr("b", bundle.RungSummary)}}
	tests := []struct {
		name string
		p    engine.Page
		want string
	}{
		{
			name: "first of several",
			p:    engine.Page{Number: 1, Bundle: res, Held: []string{"a"}, Remaining: 4, Ranked: 5},
			want: "page 1: 1 of 5 ranked files shown with their relevant code; 1 more as skeletons or summaries; 990 of 1000 tokens used.\n" +
				"4 more ranked files remain: call expand_context again with the same arguments and page=2 for the next ones.",
		},
		{
			name: "last",
			p:    engine.Page{Number: 3, Bundle: res, Held: []string{"a"}, ShownBefore: 4, Remaining: 0, Ranked: 5},
			want: "page 3: 1 of 5 ranked files shown with their relevant code (4 were on earlier pages); 1 more as skeletons or summaries; 990 of 1000 tokens used.\n" +
				"This is the last page: every ranked file has been shown.",
		},
		{
			name: "budget too small for anything",
			p:    engine.Page{Number: 1, Bundle: &bundle.Result{Budget: 100, TotalTokens: 60, Files: []bundle.FileResult{fr("a", bundle.RungOmitted)}}, Remaining: 1, Ranked: 1},
			want: "page 1: 0 of 1 ranked files shown with their relevant code; 60 of 100 tokens used.\n" +
				"The budget of 100 tokens is too small to show any of the 1 remaining ranked files; call again with a larger budget.",
		},
		{
			name: "nothing ranked",
			p:    engine.Page{Number: 1, Bundle: &bundle.Result{Budget: 100, TotalTokens: 40}},
			want: "page 1: 0 of 0 ranked files shown with their relevant code; 40 of 100 tokens used.\n" +
				"No repository file matched the query; name a function, type or file, or reword the task.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, describePage(&tc.p, "expand_context")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
