package main

import (
	"regexp"
	"strings"
	"testing"
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
