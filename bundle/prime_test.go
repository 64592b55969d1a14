package bundle

import (
	"context"
	"testing"

	"github.com/ctxexpand/ctxexpand/tokenize"
)

// TestPrime: priming a request's files fills a memo with the counts a
// build then finds, under other scores and reasons, without counting in
// the memos' figures, and changes no byte of what is built, in every
// format.
func TestPrime(t *testing.T) {
	for _, format := range []Format{JSON, Markdown, XML, Plain} {
		t.Run(format.String(), func(t *testing.T) {
			files := []File{goFile(t), rustFile()}
			bare := Request{Root: fixtureRoot, Budget: 1500, Counter: newCounter(t, "o200k"), Format: format, Files: files}
			want, err := Build(context.Background(), bare)
			if err != nil {
				t.Fatal(err)
			}

			memo := tokenize.NewMemo(0)
			c := newCounter(t, "o200k")
			prime := Request{Root: fixtureRoot, Budget: 64000, Counter: memo.WrapUncounted(c), Format: format}
			for _, f := range files {
				prime.Files = append(prime.Files, File{Path: f.Path, Lang: f.Lang, Category: f.Category, Symbols: f.Symbols})
			}
			skel := SkeletonMemoStats()
			if err := Prime(context.Background(), prime); err != nil {
				t.Fatal(err)
			}
			if st := memo.Stats(); st.Hits != 0 || st.Misses != 0 || st.Entries == 0 {
				t.Errorf("after priming, the memo has %d hits, %d misses, %d entries", st.Hits, st.Misses, st.Entries)
			}
			if now := SkeletonMemoStats(); now.Hits != skel.Hits || now.Misses != skel.Misses {
				t.Errorf("priming counted in the skeletons' figures: %+v, then %+v", skel, now)
			}

			primed := bare
			primed.Counter = memo.Wrap(c)
			got, err := Build(context.Background(), primed)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Output) != string(want.Output) {
				t.Errorf("primed, the bundle differs:\n--- primed\n%s\n--- not\n%s", got.Output, want.Output)
			}
			// The files' whole texts were counted in full-rung sections
			// without a score or reasons; the build's sections have both.
			if st := memo.Stats(); st.Hits < uint64(len(files)) {
				t.Errorf("the build found %d counts in the primed memo (%d misses)", st.Hits, st.Misses)
			}
		})
	}
}
