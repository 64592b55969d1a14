package refs

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/urlfetch"
)

// countingFetcher fails every fetch and counts the attempts.
type countingFetcher struct{ n atomic.Int64 }

func (f *countingFetcher) Fetch(_ context.Context, u string) (*urlfetch.Page, error) {
	f.n.Add(1)
	return nil, fmt.Errorf("fetching %s: %w", u, urlfetch.ErrHTTPStatus)
}

// TestPerQueryCaps: a query holding many searches and URLs runs only the
// first MaxSearches and fetches only the first MaxFetches; the rest fail
// with ErrTooMany, in order, without touching the repository or the
// network.
func TestPerQueryCaps(t *testing.T) {
	root, files, _ := testRepo(t)
	var refs []query.Ref
	for i := range 20 {
		v := fmt.Sprintf("FindByEmail%d", i)
		refs = append(refs, query.Ref{Kind: query.RefGrep, Raw: "@grep:" + v, Value: v})
		u := fmt.Sprintf("https://example.test/%d", i)
		refs = append(refs, query.Ref{Kind: query.RefURL, Raw: "@url:" + u, Value: u})
	}
	for _, tt := range []struct {
		opt                   Options
		wantSearch, wantFetch int
	}{
		{Options{}, 16, 8},
		{Options{MaxSearches: 3, MaxFetches: 1}, 3, 1},
	} {
		f := &countingFetcher{}
		tt.opt.Fetcher = f
		got := Resolve(t.Context(), root, files, refs, tt.opt)
		searched, tooMany := 0, 0
		for _, r := range got {
			if r.Searched > 0 {
				searched++
			}
			if errors.Is(r.Err, ErrTooMany) {
				tooMany++
			}
		}
		if searched != tt.wantSearch || f.n.Load() != int64(tt.wantFetch) {
			t.Errorf("%+v: %d searches ran and %d fetches, want %d and %d", tt.opt, searched, f.n.Load(), tt.wantSearch, tt.wantFetch)
		}
		if want := 40 - tt.wantSearch - tt.wantFetch; tooMany != want {
			t.Errorf("%+v: %d references refused as too many, want %d", tt.opt, tooMany, want)
		}
		// The refused ones are the last of their kind.
		if last := got[len(got)-1]; !errors.Is(last.Err, ErrTooMany) {
			t.Errorf("the last URL was fetched: %v", last.Err)
		}
	}
}
