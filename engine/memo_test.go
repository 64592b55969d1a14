package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/tokenize"
)

// TestTokenMemoSameBundles: a resident session with a token-count memo
// gives the bundles, byte for byte, of a session without one, in every
// format and tokenizer, the first time a query is asked and again (from
// the memo), and the memo's counters move.
func TestTokenMemoSameBundles(t *testing.T) {
	root := filepath.Join(repoRoot(t), "testdata", "gosvc")
	open := func(memo *tokenize.Memo) *Session {
		s, err := Open(context.Background(), root, LoadOptions{NoHistory: true, Resident: true, TokenMemo: memo})
		if err != nil {
			t.Fatal(err)
		}
		s.FixedCommit = "0000000000000000000000000000000000000000"
		t.Cleanup(s.Close)
		return s
	}
	memo := tokenize.NewMemo(0)
	plain, memoised := open(nil), open(memo)
	for _, format := range []string{"markdown", "json", "xml", "plain"} {
		for _, tok := range []string{"o200k", "claude"} {
			for _, budget := range []int{800, 16000} {
				req := Request{Query: "fix UserService.find_by_email", Budget: budget, Format: format, Tokenizer: tok}
				want, err := plain.Query(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				for round := 0; round < 2; round++ {
					got, err := memoised.Query(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(string(want.Bundle), string(got.Bundle)); d != "" {
						t.Fatalf("%s %s %d, round %d: the memo changed the bundle (-want +got):\n%s", format, tok, budget, round, d)
					}
				}
			}
		}
	}
	st := memo.Stats()
	if st.Hits == 0 || st.Misses == 0 || st.Entries == 0 {
		t.Errorf("memo stats = %+v, want hits, misses and entries", st)
	}
	t.Logf("memo: %d hits, %d misses, %d entries", st.Hits, st.Misses, st.Entries)
}
