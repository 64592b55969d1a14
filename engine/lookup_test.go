package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
)

// TestLookupFindsDeclaration: a query that is, or holds, a bare name of a
// declared type, trait or function ranks the file declaring it first,
// above files whose words (stemmed, or the concept synonyms the planner
// adds) match the name. "Session" stems to "session", which the planner's
// login concept also adds; "Role" and "Store" are common words.
func TestLookupFindsDeclaration(t *testing.T) {
	tests := []struct {
		repo, query, first string
		kind               query.Kind
	}{
		{"gosvc", "Session", "internal/models/session.go", query.KindLookup},
		{"gosvc", "Role", "internal/models/user.go", query.KindLookup},
		{"gosvc", "Config", "internal/config/config.go", query.KindLookup},
		{"gosvc", "Server", "internal/httpapi/server.go", query.KindLookup},
		{"gosvc", "where is TokenIssuer defined", "internal/auth/token.go", query.KindLookup},
		{"gosvc", "how does TokenIssuer sign a session", "internal/auth/token.go", query.KindQuestion},
		{"rustsvc", "Store", "src/store/mod.rs", query.KindLookup},
		{"rustsvc", "Clock", "src/auth.rs", query.KindLookup},
		{"rustsvc", "Role", "src/models.rs", query.KindLookup},
		{"rustsvc", "normalize_email", "src/util.rs", query.KindLookup},
	}
	for _, tt := range tests {
		t.Run(tt.repo+"/"+tt.query, func(t *testing.T) {
			s := session(t, tt.repo)
			out, err := s.Query(context.Background(), Request{Query: tt.query, MaxFiles: 30})
			if err != nil {
				t.Fatal(err)
			}
			if out.Plan.Kind != tt.kind {
				t.Errorf("kind %s, want %s", out.Plan.Kind, tt.kind)
			}
			if len(out.Result.Files) == 0 || out.Result.Files[0].Path != tt.first {
				var got []string
				for _, f := range out.Result.Files[:min(5, len(out.Result.Files))] {
					got = append(got, f.Path)
				}
				t.Errorf("ranked %v first, want %s", got, tt.first)
			}
		})
	}
}

// TestRankerByKind: the default ranker is the learned model for fixes and
// reports and the hand-weighted one for questions, lookups and reviews;
// --explain says which and why; a named ranker is used as named.
func TestRankerByKind(t *testing.T) {
	s := session(t, "gosvc")
	tests := []struct {
		query, ranker, want string
		kind                query.Kind
	}{
		{"fix UserService.find_by_email", "", expand.RankerLearned, ""},
		{"login returns 500 when the token expired\n\nSteps:\n1. log in\n2. wait an hour\n\nExpected 401, got 500.", "", expand.RankerLearned, ""},
		{"how are sessions checked", "", expand.RankerLearned, ""}, // the model trained on questions
		{"UserRepository", "", expand.RankerHand, ""},
		{"fix UserService.find_by_email", "", expand.RankerHand, query.KindDiff},
		{"how are sessions checked", expand.RankerLearned, expand.RankerLearned, ""},
		{"fix UserService.find_by_email", expand.RankerHand, expand.RankerHand, ""},
	}
	for _, tt := range tests {
		out, err := s.Query(context.Background(), Request{Query: tt.query, Ranker: tt.ranker, Kind: tt.kind, MaxFiles: 10})
		if err != nil {
			t.Fatal(err)
		}
		if out.Result.Ranker != tt.want {
			t.Errorf("%q (ranker %q, kind %q): ranked by %s, want %s", tt.query, tt.ranker, tt.kind, out.Result.Ranker, tt.want)
		}
		auto := tt.ranker == ""
		if (out.Result.RankerWhy != "") != auto {
			t.Errorf("%q (ranker %q): why %q", tt.query, tt.ranker, out.Result.RankerWhy)
		}
	}
}

// TestExplainScoreMeaning: --explain says what a learned score means for
// the model that gave it: the chance that a fix touches the file, or that
// the file answers a question.
func TestExplainScoreMeaning(t *testing.T) {
	s := session(t, "gosvc")
	for q, want := range map[string]string{
		"fix UserService.find_by_email": "score = probability the change touches the file",
		"how does the server start":     "score = probability the file answers the question",
	} {
		out, err := s.Query(context.Background(), Request{Query: q, MaxFiles: 10})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		out.WriteExplain(&b)
		if !strings.Contains(b.String(), want) {
			t.Errorf("%q: the explanation lacks %q:\n%s", q, want, b.String())
		}
	}
}
