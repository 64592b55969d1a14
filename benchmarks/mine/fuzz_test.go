package main

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzQueries checks the cleaners on arbitrary commit messages: they never
// panic; a commit-shaped query is one line without URLs, pull-request
// numbers; an issue-shaped query is valid
// UTF-8 within its cap.
func FuzzQueries(f *testing.F) {
	for _, s := range []string{
		"fix(http1): flush buffered data before shutdown (#4018)\n\nSigned-off-by: A <a@b>",
		"Merge pull request #1 from a/b\n\nxds: fix leak\n\n* one\n* two",
		"Merge #9\n\n9: sync: fix wakeup r=x a=y\n",
		"[FIXED] race (#1)\n\n## Description\n```\npanic: x\n```\n\n---------\n\n* squashed",
		"subject\ncontinued\n\n<!-- a\ncomment -->\nBody with [a link](https://x.y/z) and owner/repo#12.\n",
	} {
		f.Add(s)
	}
	refRe := regexp.MustCompile(`https?://|\(#\d+\)`)
	f.Fuzz(func(t *testing.T, raw string) {
		m, ok := parseMessage(raw)
		if !ok {
			return
		}
		q := commitQuery(m)
		if strings.ContainsAny(q, "\n\r") {
			t.Errorf("commit query %q has a line break", q)
		}
		if utf8.ValidString(raw) && refRe.MatchString(q) {
			t.Errorf("commit query %q keeps a URL or a pull-request number", q)
		}
		iq := issueQuery(m)
		if !utf8.ValidString(iq) || len(iq) > maxIssueQuery {
			t.Errorf("issue query is %d bytes (cap %d), valid UTF-8 %v", len(iq), maxIssueQuery, utf8.ValidString(iq))
		}
	})
}

// FuzzDocQuestion checks pseudo-questions on arbitrary doc comments: they
// never panic, and a question is one line of valid UTF-8 (for valid
// input) that never holds the declared name as a word, when the name is
// an identifier, as every declared name is (";" is a word of its own
// only to strings.Fields).
func FuzzDocQuestion(f *testing.F) {
	for _, s := range []string{
		"Group creates a new router group with the given path prefix.",
		"The Router is the registry of every route.\n\nMore text.",
		"Returns the [`Layer`](crate::Layer) for a version.",
		"# Panics\n\nWhen empty.",
		"Package x does things to other things in the tree.",
	} {
		f.Add(s, "Group")
	}
	f.Fuzz(func(t *testing.T, doc, name string) {
		q, why := docQuestion(doc, name, "func", doc)
		if why != "" {
			return
		}
		if strings.ContainsAny(q, "\n\r") {
			t.Errorf("question %q has a line break", q)
		}
		if utf8.ValidString(doc) && !utf8.ValidString(q) {
			t.Errorf("question %q is not valid UTF-8", q)
		}
		if isIdent(name) {
			for _, w := range strings.Fields(q) {
				if strings.Trim(w, "?") == name {
					t.Errorf("question %q names %q", q, name)
				}
			}
		}
	})
}

// isIdent reports whether s is a Go or Rust identifier.
func isIdent(s string) bool {
	for i, r := range s {
		if !unicode.IsLetter(r) && r != '_' && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}
