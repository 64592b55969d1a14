package bundle

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// jsonDoc is what TestJSONListsOmittedFiles reads of a JSON bundle.
type jsonDoc struct {
	Budget      int `json:"budget"`
	TotalTokens int `json:"total_tokens"`
	Summary     struct {
		Files    int `json:"files"`
		Included int `json:"included"`
		Omitted  int `json:"omitted"`
	} `json:"summary"`
	Files []struct {
		Path         string   `json:"path"`
		Score        *float64 `json:"score"`
		Included     bool     `json:"included"`
		Rung         string   `json:"rung"`
		Tokens       int      `json:"tokens"`
		TokensNeeded int      `json:"tokens_needed"`
		Content      string   `json:"content"`
		Reasons      []string `json:"reasons"`
		Spans        []any    `json:"spans"`
	} `json:"files"`
}

// TestJSONListsOmittedFiles checks that a JSON bundle lists the whole
// ranked list, the files past the budget included, each with rung
// "omitted", its score and the tokens it would need, and that these
// entries are paid for inside the budget.
func TestJSONListsOmittedFiles(t *testing.T) {
	root, all := propRepo(t)
	var files []File
	for i, f := range all {
		if f.Path == "hostile/hostile.go" || f.Path == "gone/missing.rs" {
			continue // no size to need: too long for small budgets, or unreadable
		}
		f.Score = 1 / float64(1+i)
		f.Spans = []Span{{Start: 20, End: 30, Symbol: "x"}}
		files = append(files, f)
	}
	counter := newCounter(t, "o200k")
	for _, budget := range []int{4500, 5000, 6000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			req := Request{Query: "where are orders saved", Root: root, Budget: budget, Counter: counter, Format: JSON, Files: files}
			r, err := Build(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if got := counter.Count(string(r.Output)); got > budget || got != r.TotalTokens {
				t.Fatalf("the bundle counts %d tokens, says %d, budget %d", got, r.TotalTokens, budget)
			}
			var doc jsonDoc
			if err := json.Unmarshal(r.Output, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Summary.Omitted == 0 {
				t.Fatalf("nothing omitted at budget %d: the test needs a budget that leaves files out", budget)
			}
			// The omitted files' entries are compact and take at most a
			// tenth of the budget (one entry of slack for the last one
			// set aside), so the list may stop early at a tight budget,
			// after a prefix of the ranking; summary counts them all.
			if doc.Summary.Files != len(files) || len(doc.Files) > len(files) {
				t.Fatalf("%d files listed, summary %d, of %d", len(doc.Files), doc.Summary.Files, len(files))
			}
			entries := 0
			for _, line := range strings.Split(string(r.Output), "\n") {
				if strings.Contains(line, `"rung":"omitted"`) {
					entries += counter.Count(line + "\n")
				}
			}
			if entries > budget/listingShare+60 {
				t.Errorf("omitted files' entries take %d tokens of %d", entries, budget)
			}
			omitted := 0
			for i, f := range doc.Files {
				if f.Path != files[i].Path {
					t.Errorf("file %d is %s, want %s (rank order)", i, f.Path, files[i].Path)
				}
				if f.Score == nil || *f.Score != roundScore(files[i].Score) {
					t.Errorf("%s: score %v, want %v", f.Path, f.Score, roundScore(files[i].Score))
				}
				if f.Included {
					if f.TokensNeeded != 0 {
						t.Errorf("%s: included, with tokens_needed %d", f.Path, f.TokensNeeded)
					}
					continue
				}
				omitted++
				if f.Rung != "omitted" || f.Tokens != 0 || f.Content != "" || len(f.Spans) != 0 || len(f.Reasons) > 1 {
					t.Errorf("%s: excluded with rung %q, tokens %d, content %q, %d spans, %d reasons", f.Path, f.Rung, f.Tokens, f.Content, len(f.Spans), len(f.Reasons))
				}
				if want := r.Files[i].Costs[RungSpans]; f.TokensNeeded <= 0 || f.TokensNeeded != want {
					t.Errorf("%s: tokens_needed %d, want its spans' cost %d", f.Path, f.TokensNeeded, want)
				}
			}
			if omitted == 0 || omitted > doc.Summary.Omitted {
				t.Errorf("%d omitted entries listed, summary says %d omitted", omitted, doc.Summary.Omitted)
			}
			if budget == 6000 && len(doc.Files) != len(files) {
				t.Errorf("at %d tokens %d of %d files listed; a tenth holds every entry", budget, len(doc.Files), len(files))
			}
		})
	}
}

// TestJSONOmittedListingIsBounded checks that when the entries of the
// omitted files cannot all be paid for, the bundle still fits its budget
// and lists a prefix of the ranked files.
func TestJSONOmittedListingIsBounded(t *testing.T) {
	root, all := propRepo(t)
	counter := newCounter(t, "o200k")
	for _, budget := range []int{3000} {
		req := Request{Query: "where are orders saved", Root: root, Budget: budget, Counter: counter, Format: JSON, Files: all}
		r, err := Build(context.Background(), req)
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		if r.TotalTokens > budget {
			t.Errorf("budget %d: %d tokens", budget, r.TotalTokens)
		}
		var doc jsonDoc
		if err := json.Unmarshal(r.Output, &doc); err != nil {
			t.Fatal(err)
		}
		// Included files may come anywhere; the omitted ones listed are the
		// first omitted ones of the order.
		listed := map[string]bool{}
		for _, f := range doc.Files {
			listed[f.Path] = true
		}
		gap := false
		for _, f := range r.Files {
			switch {
			case f.Included:
			case !listed[f.Path]:
				gap = true
			case gap:
				t.Errorf("budget %d: %s listed after an omitted file that is not", budget, f.Path)
			}
		}
	}
}
