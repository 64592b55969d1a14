package refs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestIgnoredRefused: a reference that names an ignored file or directory
// exactly, or anything in git's own .git, is refused; other files load.
func TestIgnoredRefused(t *testing.T) {
	root, files, _ := testRepo(t)
	for rel, data := range map[string]string{
		".git/config":        "[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n",
		"secrets/key.go":     "package secrets\n",
		"ci.env":             "TOKEN=x\n",
		"docs/README.md":     "# Docs\n",
		"sub/.git":           "gitdir: ../.git/worktrees/sub\n",
		".github/ci.yml":     "on: push\n",
		"internal/gen.pb.go": "package internal\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ignore := func(rel string, isDir bool) bool {
		return rel == "secrets" || strings.HasPrefix(rel, "secrets/") || strings.HasSuffix(rel, ".env")
	}
	for _, tt := range []struct {
		ref     string
		ignored bool
	}{
		{"@.git/config", true},
		{"@./.git/config", true},
		{"@.git/", true},
		{"@sub/.git", true},
		{"@secrets/key.go", true},
		{"@secrets/", true},
		{"@ci.env", true},
		{"@docs/README.md", false},
		{"@.github/ci.yml", false},
		{"@internal/gen.pb.go", false},
	} {
		refs, _, errs := query.ParseRefs(tt.ref)
		if len(errs) != 0 || len(refs) != 1 {
			t.Fatalf("%s: %v", tt.ref, errs)
		}
		got := Resolve(t.Context(), root, files, refs, Options{Ignore: ignore})[0]
		if errors.Is(got.Err, ErrIgnored) != tt.ignored {
			t.Errorf("%s: status %s, err %v; want refused as ignored: %v", tt.ref, got.Status, got.Err, tt.ignored)
		}
	}
}
