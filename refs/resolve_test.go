package refs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/urlfetch"
)

// testRepo writes a small repository, a directory outside it holding a
// secret, and a symbolic link from inside to the secret. It returns the
// repository root, its listing and the outside directory.
func testRepo(t *testing.T) (root string, files []string, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "repo")
	outside = filepath.Join(base, "outside")
	write := func(dir, rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(outside, "secret.go", "package secret // TOKEN=hunter2\n")
	write(root, "internal/service/user.go", "package service\n\n// FindByEmail looks a user up.\nfunc (s *UserService) FindByEmail(email string) (*User, error) {\n\treturn s.store.FindByEmail(email)\n}\n")
	write(root, "internal/store/user.go", "package store\n\nfunc (s *Store) FindByEmail(email string) (*User, error) {\n\treturn nil, ErrNotFound\n}\n")
	write(root, "cmd/server/main.go", "package main\n\nfunc main() {\n\trun()\n}")
	write(root, "src/store/mod.rs", "pub fn orders_of(id: u64) -> Vec<Order> {\n    todo!()\n}\n")
	write(root, "bin.go", "package x\x00\x01\x02")
	write(root, "big.go", "package big\n"+strings.Repeat("// filler line\n", 400))
	write(root, "redos.go", "package redos\n// "+strings.Repeat("a", 100_000)+"!\n")
	if err := os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(root, "internal", "link.go")); err != nil {
		t.Fatal(err)
	}
	files, _, err := analyze.ListFiles(context.Background(), root, analyze.WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return root, files, outside
}

// view is what a test pins down of a Resolved.
type view struct {
	Status      Status
	Err         error // compared with errors.Is
	Suggestions []string
	Path        string
	Lines       int
	Range       LineRange
	Files       []string
}

func TestResolveFiles(t *testing.T) {
	root, files, outside := testRepo(t)
	absRoot, _ := filepath.Abs(root)
	opt := Options{MaxFileSize: 4096}
	tests := []struct {
		ref  string
		want view
	}{
		{"internal/service/user.go", view{Status: StatusOK, Path: "internal/service/user.go", Lines: 6}},
		{"./internal/service/user.go#L3-4", view{Status: StatusOK, Path: "internal/service/user.go", Lines: 6, Range: LineRange{3, 4}}},
		{"internal/service/user.go#L5-99", view{Status: StatusOK, Path: "internal/service/user.go", Lines: 6, Range: LineRange{5, 6}}},
		{"internal/service/user.go#L40", view{Status: StatusFailed, Err: ErrLineRange}},
		{"cmd/server/main.go#L5", view{Status: StatusOK, Path: "cmd/server/main.go", Lines: 5, Range: LineRange{5, 5}}},
		{"Internal/Service/USER.go", view{Status: StatusOK, Path: "internal/service/user.go", Lines: 6}},
		{"main.go", view{Status: StatusOK, Path: "cmd/server/main.go", Lines: 5}},
		{"store/user.go", view{Status: StatusOK, Path: "internal/store/user.go", Lines: 5}},
		{"MOD.rs", view{Status: StatusOK, Path: "src/store/mod.rs", Lines: 3}},
		{"user.go", view{Status: StatusFailed, Err: ErrAmbiguous,
			Suggestions: []string{"internal/service/user.go", "internal/store/user.go"}}},
		{"usr.go", view{Status: StatusFailed, Err: ErrNotFound,
			Suggestions: []string{"internal/service/user.go", "internal/store/user.go"}}},
		{"internal/servce/user.go", view{Status: StatusFailed, Err: ErrNotFound,
			Suggestions: []string{"internal/service/user.go", "internal/store/user.go"}}},
		{"nothing/like/this.go", view{Status: StatusFailed, Err: ErrNotFound}},
		{"internal", view{Status: StatusOK, Path: "internal",
			Files: []string{"internal/service/user.go", "internal/store/user.go"}}},
		{"bin.go", view{Status: StatusFailed, Err: analyze.ErrBinary}},
		{"big.go", view{Status: StatusFailed, Err: analyze.ErrTooLarge}},
		// Leaving the repository is refused, with no guessing.
		{"../outside/secret.go", view{Status: StatusFailed, Err: analyze.ErrOutsideRoot}},
		{"internal/../../outside/secret.go", view{Status: StatusFailed, Err: analyze.ErrOutsideRoot}},
		{filepath.Join(outside, "secret.go"), view{Status: StatusFailed, Err: analyze.ErrOutsideRoot}},
		{"/etc/passwd", view{Status: StatusFailed, Err: analyze.ErrOutsideRoot}},
		{"~/.ssh/id_rsa", view{Status: StatusFailed, Err: analyze.ErrOutsideRoot}},
		{"internal/link.go", view{Status: StatusFailed, Err: analyze.ErrOutsideRoot}},
		{filepath.Join(absRoot, "cmd", "server", "main.go"), view{Status: StatusOK, Path: "cmd/server/main.go", Lines: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			refs, _, errs := query.ParseRefs("@file:" + tt.ref)
			if len(errs) > 0 || len(refs) != 1 {
				t.Fatalf("ParseRefs: %v %v", refs, errs)
			}
			got := Resolve(t.Context(), root, files, refs, opt)[0]
			if !errors.Is(got.Err, tt.want.Err) || (tt.want.Err == nil) != (got.Err == nil) {
				t.Fatalf("Err = %v, want %v", got.Err, tt.want.Err)
			}
			gv := view{Status: got.Status, Err: tt.want.Err, Suggestions: got.Suggestions, Path: got.Path,
				Lines: got.Lines, Range: got.Range, Files: got.Files}
			if got.Status == StatusFailed {
				gv.Path, gv.Lines = "", 0
			}
			if diff := cmp.Diff(tt.want, gv, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
				t.Errorf("Resolve(%s) (-want +got):\n%s", tt.ref, diff)
			}
			if got.Err != nil && strings.Contains(got.Err.Error(), "hunter2") {
				t.Errorf("error leaks the secret: %v", got.Err)
			}
		})
	}
}

func TestResolveSearch(t *testing.T) {
	root, files, _ := testRepo(t)
	tests := []struct {
		ref       query.Ref
		opt       Options
		want      []string // "path:line: text"
		wantErr   error
		truncated bool
	}{
		{
			ref:  query.Ref{Kind: query.RefSearch, Value: "findbyemail("},
			want: []string{"internal/service/user.go:4: func (s *UserService) FindByEmail(email string) (*User, error) {", "internal/service/user.go:5: \treturn s.store.FindByEmail(email)", "internal/store/user.go:3: func (s *Store) FindByEmail(email string) (*User, error) {"},
		},
		{
			// A capital makes the search case-sensitive.
			ref:  query.Ref{Kind: query.RefSearch, Value: "ErrNotFound"},
			want: []string{"internal/store/user.go:4: \treturn nil, ErrNotFound"},
		},
		{ref: query.Ref{Kind: query.RefSearch, Value: "errnotfound("}, wantErr: ErrNoMatches},
		{
			ref:  query.Ref{Kind: query.RefGrep, Value: `^func \(s \*\w+\)`},
			want: []string{"internal/service/user.go:4: func (s *UserService) FindByEmail(email string) (*User, error) {", "internal/store/user.go:3: func (s *Store) FindByEmail(email string) (*User, error) {"},
		},
		{
			ref:  query.Ref{Kind: query.RefGrep, Value: `fn \w+_of`},
			want: []string{"src/store/mod.rs:1: pub fn orders_of(id: u64) -> Vec<Order> {"},
		},
		{
			ref:       query.Ref{Kind: query.RefGrep, Value: `FindByEmail`},
			opt:       Options{MaxMatchesPerFile: 1},
			want:      []string{"internal/service/user.go:3: // FindByEmail looks a user up.", "internal/store/user.go:3: func (s *Store) FindByEmail(email string) (*User, error) {"},
			truncated: true,
		},
		{
			ref:       query.Ref{Kind: query.RefGrep, Value: `FindByEmail`},
			opt:       Options{MaxMatches: 2},
			want:      []string{"internal/service/user.go:3: // FindByEmail looks a user up.", "internal/service/user.go:4: func (s *UserService) FindByEmail(email string) (*User, error) {"},
			truncated: true,
		},
		{ref: query.Ref{Kind: query.RefGrep, Value: `(unclosed`}, wantErr: ErrBadPattern},
		{ref: query.Ref{Kind: query.RefGrep, Value: `FindByEmail`}, opt: Options{SearchTimeout: time.Nanosecond}, wantErr: ErrNoMatches, truncated: true},
		{ref: query.Ref{Kind: query.RefGrep, Value: strings.Repeat("a", 2000)}, wantErr: ErrPatternTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.ref.Kind.String()+" "+tt.ref.Value[:min(len(tt.ref.Value), 30)], func(t *testing.T) {
			tt.ref.Raw = "@" + tt.ref.Kind.String() + ":" + tt.ref.Value
			got := Resolve(t.Context(), root, files, []query.Ref{tt.ref}, tt.opt)[0]
			if !errors.Is(got.Err, tt.wantErr) || (tt.wantErr == nil) != (got.Err == nil) {
				t.Fatalf("Err = %v, want %v", got.Err, tt.wantErr)
			}
			var lines []string
			for _, m := range got.Matches {
				lines = append(lines, fmt.Sprintf("%s:%d: %s", m.Path, m.Line, m.Text))
			}
			if diff := cmp.Diff(tt.want, lines); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
			if got.Truncated != tt.truncated {
				t.Errorf("Truncated = %v, want %v", got.Truncated, tt.truncated)
			}
		})
	}
}

func TestSearchContextAndSkips(t *testing.T) {
	root, files, _ := testRepo(t)
	ref := query.Ref{Kind: query.RefSearch, Raw: `@search:"return nil"`, Value: "return nil"}
	got := Resolve(t.Context(), root, files, []query.Ref{ref}, Options{ContextLines: 1, MaxFileSize: 4096})[0]
	want := []Match{{Path: "internal/store/user.go", Line: 4, Text: "\treturn nil, ErrNotFound", ContextStart: 3,
		Context: []string{"func (s *Store) FindByEmail(email string) (*User, error) {", "\treturn nil, ErrNotFound", "}"}}}
	if diff := cmp.Diff(want, got.Matches); diff != "" {
		t.Errorf("matches (-want +got):\n%s", diff)
	}
	// bin.go is binary; big.go and redos.go exceed 4096 bytes.
	if got.Skipped != 3 || got.Searched != len(files)-3 {
		t.Errorf("searched %d, skipped %d of %d files", got.Searched, got.Skipped, len(files))
	}
}

// TestReDoSStaysLinear runs the classic catastrophic-backtracking patterns
// over a 100 KB line. RE2 matches in linear time; a backtracking engine
// would not finish before the test timeout.
func TestReDoSStaysLinear(t *testing.T) {
	root, _, _ := testRepo(t)
	for _, pat := range []string{`(a+)+$`, `(a|aa)+$`, `(a*)*b`, `^(a|a?)+$`, `(.*a){20}`} {
		ref := query.Ref{Kind: query.RefGrep, Raw: "@grep:" + pat, Value: pat}
		got := Resolve(t.Context(), root, []string{"redos.go"}, []query.Ref{ref}, Options{})[0]
		if got.Searched != 1 {
			t.Errorf("%s: searched %d files, err %v", pat, got.Searched, got.Err)
		}
	}
}

func BenchmarkReDoSPatterns(b *testing.B) {
	dir := b.TempDir()
	line := strings.Repeat("a", 1<<20) + "!"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(line), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, pat := range []string{`(a+)+$`, `(a|aa)+$`, `(.*a){20}`} {
		b.Run(pat, func(b *testing.B) {
			ref := query.Ref{Kind: query.RefGrep, Value: pat}
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				Resolve(b.Context(), dir, []string{"x.go"}, []query.Ref{ref}, Options{})
			}
		})
	}
}

type fakeFetcher map[string]*urlfetch.Page

func (f fakeFetcher) Fetch(_ context.Context, u string) (*urlfetch.Page, error) {
	if p, ok := f[u]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("fetching %s: %w", u, urlfetch.ErrHTTPStatus)
}

func TestResolveURLsSymbolsAndSummary(t *testing.T) {
	root, files, _ := testRepo(t)
	text := `@url:https://example.test/doc @url:https://example.test/missing @UserService.FindByEmail ` +
		`@internal/service/user.go#L3-4 @usr.go @search:"no such text anywhere" @grep:"FindByEmail"`
	refs, _, errs := query.ParseRefs(text)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	page := &urlfetch.Page{URL: "https://example.test/doc", ContentType: "text/html", Text: "# Docs"}
	got := Resolve(t.Context(), root, files, refs, Options{Fetcher: fakeFetcher{"https://example.test/doc": page}})
	var statuses []string
	for _, r := range got {
		statuses = append(statuses, r.Status.String())
	}
	if diff := cmp.Diff([]string{"ok", "failed", "deferred", "ok", "failed", "failed", "ok"}, statuses); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	if got[0].Page != page || !errors.Is(got[1].Err, urlfetch.ErrHTTPStatus) {
		t.Errorf("url results: %+v %+v", got[0], got[1])
	}
	wantSummary := `@references: 3 loaded, 3 failed, 1 symbol(s) left to ranking
  ok       @url:https://example.test/doc: text/html, 6 bytes of text
  failed   @url:https://example.test/missing: fetching https://example.test/missing: unexpected HTTP status
  deferred @UserService.FindByEmail: resolved by ranking
  ok       @internal/service/user.go#L3-4: internal/service/user.go lines 3-4 of 6
  failed   @usr.go: no such file in the repository; did you mean: internal/service/user.go, internal/store/user.go
  failed   @search:"no such text anywhere": no matches in 6 files
  ok       @grep:"FindByEmail": 4 matches in 2 files (6 searched, 1 skipped)
`
	if diff := cmp.Diff(wantSummary, Summary(got)); diff != "" {
		t.Errorf("Summary (-want +got):\n%s", diff)
	}

	// Without a fetcher, URLs fail as if the network were off.
	off := Resolve(t.Context(), root, files, refs[:1], Options{})[0]
	if !errors.Is(off.Err, urlfetch.ErrDisabled) {
		t.Errorf("no fetcher: %v, want ErrDisabled", off.Err)
	}
	// A cancelled context fails what is left.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, r := range Resolve(ctx, root, files, refs, Options{}) {
		if !errors.Is(r.Err, context.Canceled) {
			t.Errorf("%s after cancel: %v", r.Ref.Raw, r.Err)
		}
	}
}

// TestResolveListedListsOnlyWhenNeeded: a reference to a file that exists
// as written is resolved without the listing; a directory, a search and a
// forgiving match read it, once for all the references of a query.
func TestResolveListedListsOnlyWhenNeeded(t *testing.T) {
	root, files, _ := testRepo(t)
	tests := []struct {
		refs  []query.Ref
		lists int
	}{
		{[]query.Ref{{Kind: query.RefFile, Value: "internal/service/user.go"}, {Kind: query.RefFile, Value: "cmd/server/main.go"}}, 0},
		{[]query.Ref{{Kind: query.RefFile, Value: "internal/store"}}, 1},
		{[]query.Ref{{Kind: query.RefFile, Value: "main.go"}, {Kind: query.RefSearch, Value: "ErrNotFound"}}, 1},
	}
	for _, tc := range tests {
		lists := 0
		list := func() []string { lists++; return files }
		got := ResolveListed(context.Background(), root, list, tc.refs, Options{})
		if lists != tc.lists {
			t.Errorf("%v: listed %d times, want %d", tc.refs, lists, tc.lists)
		}
		want := Resolve(context.Background(), root, files, tc.refs, Options{})
		for i := range got {
			if got[i].Status != want[i].Status || got[i].Path != want[i].Path || len(got[i].Files) != len(want[i].Files) {
				t.Errorf("%v: ref %d resolved as %v %q, Resolve gives %v %q", tc.refs, i, got[i].Status, got[i].Path, want[i].Status, want[i].Path)
			}
		}
	}
}
