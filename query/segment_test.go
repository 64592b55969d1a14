package query

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// blockView is a block as "kind[lang]: first line of its text".
func blockViews(text string) []string {
	var out []string
	for _, b := range segment(text) {
		body := strings.TrimSpace(text[b.start:b.end])
		if body == "" {
			continue
		}
		first, _, _ := strings.Cut(body, "\n")
		k := b.kind.String()
		if b.lang != "" {
			k += "[" + b.lang + "]"
		}
		out = append(out, k+": "+strings.TrimSpace(first))
	}
	return out
}

func TestSegment(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{
			name: "one line",
			in:   "fix UserService.find_by_email",
			want: []string{"prose: fix UserService.find_by_email"},
		},
		{
			name: "a title that looks like an environment line",
			in:   "build: stop embedding the version twice",
			want: []string{"prose: build: stop embedding the version twice"},
		},
		{
			name: "template headings, fenced output, a version list",
			in: `Sync hangs when the remote drops the connection

## Summary

Running the sync against a flaky remote never returns.

` + "```console" + `
$ gitsync pull --remote origin
2024-03-02T10:11:12Z WARN transport: read timed out
` + "```" + `

## Versions

- gitsync 2.4.1
- OS: Debian 12
`,
			want: []string{
				"prose: Sync hangs when the remote drops the connection",
				"heading: ## Summary",
				"prose: Running the sync against a flaky remote never returns.",
				"output[console]: $ gitsync pull --remote origin",
				"heading: ## Versions",
				"meta: - gitsync 2.4.1",
			},
		},
		{
			name: "untagged fences read by their lines",
			in:   "Panic in the planner\n\n```\nfn plan(&self) -> Plan {\n    let steps = self.steps();\n}\n```\n\n```\nerror: could not compile `planner`\nwarning: unused import\n```\n",
			want: []string{
				"prose: Panic in the planner",
				"code: fn plan(&self) -> Plan {",
				"output: error: could not compile `planner`",
			},
		},
		{
			name: "foreign code and a diff",
			in:   "Lockfile drops extras\n\n```toml\n[package]\nname = \"demo\"\n```\n\n~~~diff\n--- a/src/lock.rs\n+++ b/src/lock.rs\n~~~\n",
			want: []string{
				"prose: Lockfile drops extras",
				"foreign[toml]: [package]",
				"code[diff]: --- a/src/lock.rs",
			},
		},
		{
			name: "indented output after a blank line, log lines in prose",
			in:   "Copy fails inside a transaction\n\nIt fails with:\n\n    Error: unexpected message: wanted Ready, got Complete\n\nand the server log says\n[ERROR] copy aborted\n",
			want: []string{
				"prose: Copy fails inside a transaction",
				"output: Error: unexpected message: wanted Ready, got Complete",
				"prose: and the server log says",
				"output: [ERROR] copy aborted",
			},
		},
		{
			name: "an unclosed fence runs to the end",
			in:   "Crash on start\n\n```rust\nlet x = parse(input)?;\n",
			want: []string{"prose: Crash on start", "code[rust]: let x = parse(input)?;"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, blockViews(tt.in)); diff != "" {
				t.Errorf("segment (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNoiseWord(t *testing.T) {
	for w, want := range map[string]bool{
		"a77c0b89a457ee6a": true, "3e29087": true, "23s": true, "17t01": true, "0x1f": true,
		"0s": true, "250ms": true, "345z": true,
		"2024": false, "1xx": false, "2fa": false, "64bit": false, "3d": false, "deadbeef": false, "facade": false, "hdf5": false, "utf8": false, "sha256": false, "": false,
	} {
		if got := noiseWord(w); got != want {
			t.Errorf("noiseWord(%q) = %v, want %v", w, got, want)
		}
	}
}
