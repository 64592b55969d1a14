package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/tokenize"
)

// TestBudgetMatrix: for every query, format and budget, the bundle's own
// token count and a recount of its bytes are within the budget. The
// sessions are the golden tests' (loaded once per test binary); the
// command line's share is TestBudgetNeverExceeded in package e2e.
func TestBudgetMatrix(t *testing.T) {
	counter, err := tokenize.New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{
		"fix UserService.find_by_email",
		"the session token expires too early @grep:\"expir\"",
		"how does the app start",
	}
	for _, repo := range []string{"gosvc", "rustsvc"} {
		t.Run(repo, func(t *testing.T) {
			s := session(t, repo)
			for _, q := range queries {
				for _, format := range []string{"markdown", "json", "xml", "plain"} {
					for _, budget := range []int{90, 250, 800, 2500, 9000} {
						what := fmt.Sprintf("%q %s %d", q, format, budget)
						out, err := s.Query(context.Background(), Request{Query: q, Budget: budget, Format: format, Tokenizer: "o200k", NoNetwork: true})
						if err != nil {
							if strings.Contains(err.Error(), "raise the budget") {
								continue // too small for this format's frame
							}
							t.Fatalf("%s: %v", what, err)
						}
						n := counter.Count(string(out.Bundle))
						if n > budget || out.BundleResult.TotalTokens > budget || n == 0 {
							t.Errorf("%s: %d tokens written (the bundle says %d)", what, n, out.BundleResult.TotalTokens)
						}
					}
				}
			}
		})
	}
}
