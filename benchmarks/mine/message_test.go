package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCommitQuery(t *testing.T) {
	tests := []struct {
		name, msg, want string
	}{
		{"pull request number", "httpcaddyfile: Fix TLS policy merging (#5896)\n", "httpcaddyfile: Fix TLS policy merging"},
		{"conventional prefix with scope goes, area prefix stays",
			"fix(context): make Value adhere to Go standards (#3897)", "make Value adhere to Go standards"},
		{"area prefix", "xdsclient: fix resource leak", "xdsclient: fix resource leak"},
		{"kind tag and backport marker", "(2.14) [FIXED] Data race in consumer getters (#8478)", "Data race in consumer getters"},
		{"fixes reference in parentheses", "caddyhttp: remove duplicate Count (fixes #6233) (#6234)", "caddyhttp: remove duplicate Count"},
		{"first prose paragraph, trailers dropped",
			"Fix width of control characters\n\nControl characters occupy 2 columns,\nbut were counted as 0.\n\nSecond paragraph.\n\nFixes #3631\nSigned-off-by: A <a@b.c>\n",
			"Fix width of control characters. Control characters occupy 2 columns, but were counted as 0."},
		{"squash list body is ignored",
			"tracing: fix goroutine leak (#7826)\n\n* tracing: fix goroutine leak\n\nWhen the directive is enabled...\n",
			"tracing: fix goroutine leak"},
		{"heading and reference lines skipped, then the paragraph",
			"Allow ls inside dirs with brackets (#12625)\n\n# Description\nFixes: #12429\n\nTo fix the issue, pass the pattern itself.\n",
			"Allow ls inside dirs with brackets. To fix the issue, pass the pattern itself."},
		{"code block ends the paragraph, trailing colon dropped",
			"Fix lifetime in serialize_struct\n\nThe macros can lead to an error such as:\n```\nerror[E0716]\n```\n",
			"Fix lifetime in serialize_struct. The macros can lead to an error such as"},
		{"URLs and markdown links",
			"parser: handle filetags\n\nSlices them by [the spec](https://orgmode.org/guide/Tags.html), see https://x.y/z.\n",
			"parser: handle filetags. Slices them by the spec, see."},
		{"subject continued on a second line",
			"fix deserialization of untagged variants within\ntagged enums\n\nBody here.\n", "fix deserialization of untagged variants within. Body here."},
		{"empty call parentheses and inline fixes reference",
			"Fix Copy() of errors\n\nThis fixes #12. Now Copy() copies Errors.\n", "Fix Copy of errors. This. Now Copy copies Errors."},
		{"a bare scheme is a URL too", "fix https:// links (see http://)", "fix links (see)"},
		{"a dot before a word stays attached", "cmd: fix detection of .caddyfile extension", "cmd: fix detection of .caddyfile extension"},
		{"GitHub merge commit: the pull request's title and body",
			"Merge pull request #32525 from someone/fix-eof\n\nfix(loader): do not drop values files at a 4096-byte boundary\n\nThe reader stopped one buffer early.\n",
			"do not drop values files at a 4096-byte boundary. The reader stopped one buffer early."},
		{"bors merge commit", "Merge #982\n\n982: sync: fix lost wakeup r=taiki-e a=someone\n\nCo-authored-by: X <x@y>\n", "sync: fix lost wakeup"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := parseMessage(tt.msg)
			if !ok {
				t.Fatalf("parseMessage(%q) refused the message", tt.msg)
			}
			if diff := cmp.Diff(tt.want, commitQuery(m)); diff != "" {
				t.Errorf("commitQuery (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMessageRefusesBranchMerges(t *testing.T) {
	for _, msg := range []string{"Merge branch 'main' into fix", "Merge remote-tracking branch 'origin/x'", "Merge pull request #1 from a/b\n"} {
		if _, ok := parseMessage(msg); ok {
			t.Errorf("parseMessage(%q) accepted a merge without a description", msg)
		}
	}
}

func TestRejectReason(t *testing.T) {
	tests := []struct {
		msg, author, want string
	}{
		{"fix: crash on empty input", "Dev <d@x>", ""},
		{"client: handle 1xx HTTP status HEADERS", "Dev <d@x>", ""},
		{"Reorder the info line\n\nThe old order gave wrong counts.", "Dev <d@x>", ""},
		{"Add a --bare flag", "Dev <d@x>", "not fix-like"},
		{"docs: fix the example in the README", "Dev <d@x>", "conventional type docs"},
		{"chore(deps): fix vulnerable version", "Dev <d@x>", "conventional type chore"},
		{"fix: crash in parser", "dependabot[bot] <b@x>", "bot author"},
		{"Merge pull request #9 from o/dependabot/go_modules/x\n\nbuild: fix go.sum", "Maintainer <m@x>", "bot author"},
		{"Revert \"fix: crash in parser\"", "Dev <d@x>", "housekeeping subject"},
		{"Bump tokio to fix a bug", "Dev <d@x>", "housekeeping subject"},
		{"fix clippy lints", "Dev <d@x>", "chore subject"},
		{"fix typo in error message", "Dev <d@x>", "chore subject"},
	}
	for _, tt := range tests {
		m, ok := parseMessage(tt.msg)
		if !ok {
			t.Fatalf("parseMessage(%q) refused the message", tt.msg)
		}
		if got := rejectReason(m, tt.author); got != tt.want {
			t.Errorf("rejectReason(%q, %q) = %q, want %q", tt.msg, tt.author, got, tt.want)
		}
	}
}

func TestIssueQuery(t *testing.T) {
	msg := strings.Join([]string{
		"fix(server): panic on empty subject (#77)",
		"",
		"<!-- template: describe the bug -->",
		"## Description",
		"Publishing to an empty subject crashes the server (see https://example.com/x):",
		"",
		"```",
		"panic: runtime error: index out of range [0] with length 0",
		"goroutine 12 [running]:",
		"server.(*client).processPub(...)",
		"\tserver/client.go:2001",
		"Fixes: not a trailer inside code",
		"```",
		"",
		"Fixes #76",
		"",
		"## Changes",
		"- `processPub` checks the length first.",
		"",
		"## Test plan",
		"- [x] added a test",
		"",
		"---------",
		"",
		"* squashed commit one",
		"Signed-off-by: A <a@b.c>",
	}, "\n")
	m, ok := parseMessage(msg)
	if !ok {
		t.Fatal("parseMessage refused the message")
	}
	want := strings.Join([]string{
		"panic on empty subject",
		"",
		"## Description",
		"Publishing to an empty subject crashes the server (see):",
		"",
		"```",
		"panic: runtime error: index out of range [0] with length 0",
		"goroutine 12 [running]:",
		"server.(*client).processPub(...)",
		"\tserver/client.go:2001",
		"Fixes: not a trailer inside code",
		"```",
	}, "\n")
	got := issueQuery(m)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("issueQuery (-want +got):\n%s", diff)
	}
	if r := issueReject(got, m.Clean); r != "description too short" {
		t.Errorf("issueReject of a %d-byte description = %q, want it too short", len(got), r)
	}
	long := got + "\n\n" + strings.Repeat("More prose about the failure. ", 15)
	if r := issueReject(long, m.Clean); r != "" {
		t.Errorf("issueReject of a long report with a trace = %q, want none", r)
	}
	prose := m.Clean + "\n\n" + strings.Repeat("Prose that describes a refactoring only. ", 15)
	if r := issueReject(prose, m.Clean); r == "" {
		t.Error("issueReject accepted a description with no output, trace, log, command, version or reproduction")
	}
}

func TestCapSentences(t *testing.T) {
	s := strings.Repeat("Alpha beta gamma. ", 100)
	got := capSentences(s, 100)
	if len(got) > 100 || !strings.HasSuffix(got, ".") {
		t.Errorf("capSentences = %q (%d bytes), want at most 100 bytes ending a sentence", got, len(got))
	}
}
