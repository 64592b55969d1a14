package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompletionScripts(t *testing.T) {
	for shell, want := range map[string]string{
		"bash": "# bash completion V2 for ctxexpand",
		"zsh":  "#compdef ctxexpand",
		"fish": "# fish completion for ctxexpand",
	} {
		code, out, errs := run(t, "completion", shell)
		if code != ExitOK || !strings.HasPrefix(out, want) {
			t.Errorf("completion %s: exit %d, stderr %q, script starts %q; want %q", shell, code, errs, firstLine(out), want)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestFlagValueCompletion asks cobra's hidden __complete command what
// the shells would offer.
func TestFlagValueCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--strategy", ""}, []string{"auto", "broad", "entrypoint", "focused", "impact", "semantic"}},
		{[]string{"--strategy", "focused+"}, []string{"focused+broad", "focused+entrypoint", "focused+impact", "focused+semantic"}},
		{[]string{"--strategy", "focused+semantic+"}, []string{"focused+semantic+broad", "focused+semantic+entrypoint", "focused+semantic+impact"}},
		{[]string{"--format", ""}, []string{"markdown", "xml", "json", "plain"}},
		{[]string{"--tokenizer", ""}, []string{"o200k", "cl100k", "claude", "estimate"}},
		{[]string{"expand", "--truncation", ""}, []string{"signature-first", "bookend"}},
		{[]string{"diff", "--strategy", ""}, []string{"auto", "broad", "entrypoint", "focused", "impact", "semantic"}},
		{[]string{"diff", "--format", ""}, []string{"markdown", "xml", "json", "plain"}},
		{[]string{"graph", "--format", ""}, []string{"dot", "mermaid", "svg"}},
		{[]string{"graph", "--strategy", ""}, []string{"auto", "broad", "entrypoint", "focused", "impact", "semantic"}},
		{[]string{"mcp", "--tokenizer", ""}, []string{"o200k", "cl100k", "estimate"}},
	}
	for _, tc := range tests {
		code, out, errs := run(t, append([]string{"__complete"}, tc.args...)...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(line, ":") {
				got = append(got, line)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tc.args, diff)
		}
	}
}
