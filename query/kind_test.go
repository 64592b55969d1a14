package query

import (
	"slices"
	"testing"
)

func TestKind(t *testing.T) {
	tests := []struct {
		query string
		want  Kind
	}{
		// Changes written as commit messages and tasks.
		{"fix UserService.find_by_email", KindFix},
		{"xdsclient: fix race in watcher cleanup", KindFix},
		{"cmd: Fix exiting with custom status code, add `caddy -v`", KindFix},
		{"add rate limiting to the HTTP API", KindFix},
		{"Return an error when the config file is missing", KindFix},
		{"remove duplicate strings.Count in path matcher", KindFix},
		{"login fails with 500 after the token expires", KindFix},
		{"restore the terminal on kill", KindFix},
		{"don't double-unescape request path", KindFix},
		{"do not parse layouts on startup", KindFix},
		{"fixed typo and removed unused import", KindFix},
		{"why does login return 500 when the token expired", KindFix},
		{"option handles repeated directories properly", KindFix},
		// Reports of several lines.
		{"Router panics on empty path\n\nWith axum 0.7, calling route(\"\") panics:\n\n    thread 'main' panicked", KindIssue},
		{"panic: runtime error: invalid memory address\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:12 +0x1d", KindIssue},
		// Questions.
		{"how are routes grouped and registered", KindQuestion},
		{"how does the server start", KindQuestion},
		{"what happens when a session expires?", KindQuestion},
		{"where are middlewares applied", KindQuestion},
		{"radix tree path matching", KindQuestion},
		{"panic recovery middleware", KindQuestion},
		{"does the cache evict on write?", KindQuestion},
		{"where does the client decide whether a failed call may be retried", KindQuestion},
		{"hashed wheel timer for delayed tasks", KindQuestion},
		// Lookups: names and paths alone.
		{"Router", KindLookup},
		{"FromRequest", KindLookup},
		{"UserService.FindByEmail", KindLookup},
		{"tokio::runtime::Builder", KindLookup},
		{"src/store/mod.rs", KindLookup},
		{"where is NewServer defined", KindLookup},
		{"find `find_by_email`", KindLookup},
		{"@Router", KindLookup},
	}
	for _, tt := range tests {
		if got := Analyze(tt.query).Kind; got != tt.want {
			t.Errorf("Analyze(%q).Kind = %s, want %s", tt.query, got, tt.want)
		}
	}
}

func TestBareNames(t *testing.T) {
	bare := func(q string) []string {
		var out []string
		for _, e := range Analyze(q).Entities {
			if e.Bare {
				out = append(out, e.Raw)
			}
		}
		return out
	}
	tests := []struct {
		query string
		want  []string
	}{
		{"Router", []string{"Router"}},
		{"spawn", []string{"spawn"}},
		{"Router?", []string{"Router"}},
		// Capitalised inside a sentence, not at its start.
		{"how does Router match paths", []string{"Router"}},
		{"Fix the Handler when Context is nil. Store panics", []string{"Handler", "Context"}},
		// Code-style names are entities already, not bare ones.
		{"FromRequest", nil},
		{"fix UserService.find_by_email", nil},
		// Short words, stop words and product names are not names.
		{"the To field of Go", nil},
		{"use GitHub", nil},
		// Reports: the names of a long text come from its code, not its
		// capitals.
		{"Router panics\n\nThe Router type panics when Handler is nil", nil},
	}
	for _, tt := range tests {
		if got := bare(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("bare names of %q = %q, want %q", tt.query, got, tt.want)
		}
	}
}
