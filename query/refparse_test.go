package query

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRefs(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		want      []Ref
		wantClean string
		wantErrs  []string // substrings of the error messages, in order
	}{
		{
			name:      "file",
			in:        "why does @internal/service/user.go panic",
			want:      []Ref{{Kind: RefFile, Raw: "@internal/service/user.go", Value: "internal/service/user.go"}},
			wantClean: "why does panic",
		},
		{
			name: "file with line ranges",
			in:   "see @a/b.go#L10-20, @c.rs#L7 and @d/e.go#10-12 or @f.go#L3-L5.",
			want: []Ref{
				{Kind: RefFile, Raw: "@a/b.go#L10-20", Value: "a/b.go", StartLine: 10, EndLine: 20},
				{Kind: RefFile, Raw: "@c.rs#L7", Value: "c.rs", StartLine: 7, EndLine: 7},
				{Kind: RefFile, Raw: "@d/e.go#10-12", Value: "d/e.go", StartLine: 10, EndLine: 12},
				{Kind: RefFile, Raw: "@f.go#L3-L5", Value: "f.go", StartLine: 3, EndLine: 5},
			},
			wantClean: "see , and or .",
		},
		{
			name:      "known extension without slash",
			in:        "@Cargo.toml @go.mod",
			want:      []Ref{{Kind: RefFile, Raw: "@Cargo.toml", Value: "Cargo.toml"}, {Kind: RefFile, Raw: "@go.mod", Value: "go.mod"}},
			wantClean: "",
		},
		{
			name: "search and grep, quoted and escaped",
			in:   `@search:"token expired" @grep:'func \(s \*Store\)' @search:"say \"hi\"" @grep:"a\\b" @search:bare`,
			want: []Ref{
				{Kind: RefSearch, Raw: `@search:"token expired"`, Value: "token expired"},
				{Kind: RefGrep, Raw: `@grep:'func \(s \*Store\)'`, Value: `func \(s \*Store\)`},
				{Kind: RefSearch, Raw: `@search:"say \"hi\""`, Value: `say "hi"`},
				{Kind: RefGrep, Raw: `@grep:"a\\b"`, Value: `a\b`},
				{Kind: RefSearch, Raw: `@search:bare`, Value: "bare"},
			},
		},
		{
			name: "url",
			in:   "read @url:https://pkg.go.dev/net/http#Server. and (@https://example.com/a_(b))",
			want: []Ref{
				{Kind: RefURL, Raw: "@url:https://pkg.go.dev/net/http#Server", Value: "https://pkg.go.dev/net/http#Server"},
				{Kind: RefURL, Raw: "@https://example.com/a_(b)", Value: "https://example.com/a_(b)"},
			},
			wantClean: "read . and ()",
		},
		{
			name: "symbols",
			in:   "@UserService.find_by_email calls @store::Store::orders_of and @Run, then @pkg.Func.",
			want: []Ref{
				{Kind: RefSymbol, Raw: "@UserService.find_by_email", Value: "UserService.find_by_email"},
				{Kind: RefSymbol, Raw: "@store::Store::orders_of", Value: "store::Store::orders_of"},
				{Kind: RefSymbol, Raw: "@Run", Value: "Run"},
				{Kind: RefSymbol, Raw: "@pkg.Func", Value: "pkg.Func"},
			},
			wantClean: "calls and , then .",
		},
		{
			name:      "emails and lone at signs are not refs",
			in:        "mail bob@example.com or @ someone, a@@b",
			wantClean: "mail bob@example.com or @ someone, a@@b",
		},
		{
			name:      "errors",
			in:        `@search:"unterminated`,
			wantClean: "",
			wantErrs:  []string{"unterminated"},
		},
		{
			name:      "bad ranges and schemes",
			in:        "@a.go#L20-10 @b.go#Lx @url:ftp://x @url:javascript:alert(1) @search:\"\" @foo-bar",
			wantClean: "",
			wantErrs:  []string{"end comes before", "bad line range", "only http", "only http", "empty", "not a file path"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refs, clean, errs := ParseRefs(tt.in)
			if diff := cmp.Diff(tt.want, refs); diff != "" {
				t.Errorf("refs (-want +got):\n%s", diff)
			}
			if clean != tt.wantClean {
				t.Errorf("clean = %q, want %q", clean, tt.wantClean)
			}
			if len(errs) != len(tt.wantErrs) {
				t.Fatalf("errs = %v, want %d", errs, len(tt.wantErrs))
			}
			for i, e := range errs {
				var re *RefError
				if !errors.As(e, &re) || !strings.Contains(e.Error(), tt.wantErrs[i]) {
					t.Errorf("err[%d] = %v, want a *RefError containing %q", i, e, tt.wantErrs[i])
				}
				if !strings.Contains(tt.in, re.Raw) {
					t.Errorf("err[%d].Raw %q not in the text", i, re.Raw)
				}
			}
		})
	}
}

func TestRefLineRange(t *testing.T) {
	for ref, want := range map[Ref]string{
		{Kind: RefFile}: "", {Kind: RefFile, StartLine: 3, EndLine: 3}: "3",
		{Kind: RefFile, StartLine: 3, EndLine: 9}: "3-9",
	} {
		if got := ref.LineRange(); got != want {
			t.Errorf("%+v.LineRange() = %q, want %q", ref, got, want)
		}
	}
}
