package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bundleQuery is the query a JSON bundle states it answers.
func bundleQuery(t *testing.T, stdout string) string {
	t.Helper()
	var doc struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("the bundle is not JSON: %v\n%.500s", err, stdout)
	}
	return doc.Query
}

// TestQueryFile checks that --query-file and "--" give the query exactly,
// dashes and line breaks included, to the root command and to expand.
func TestQueryFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dash := write("dash.txt", "-X should batch the writes\n")
	lines := write("lines.txt", "  fix the login\n\nwhen the token expires  \n\n")
	crlf := write("crlf.txt", "fix the login\r\n")
	common := []string{"--root", gosvc, "--format", "json", "--budget", "800", "--no-history", "-q"}
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"file starting with a dash", []string{"--query-file", dash}, "", "-X should batch the writes"},
		{"only the last line break is dropped", []string{"--query-file", lines}, "", "  fix the login\n\nwhen the token expires  \n"},
		{"a CRLF line break is one line break", []string{"--query-file", crlf}, "", "fix the login"},
		{"standard input", []string{"--query-file", "-"}, "-X should batch\nthe writes\n", "-X should batch\nthe writes"},
		{"after --", []string{"--", "-X should batch the writes"}, "", "-X should batch the writes"},
		{"words after --", []string{"--", "-X", "should", "batch"}, "", "-X should batch"},
		{"a command name after --", []string{"--", "version"}, "", "version"},
		{"expand with a file", []string{"expand", "--query-file", dash}, "", "-X should batch the writes"},
		{"expand after --", []string{"expand", "--", "-X should batch the writes"}, "", "-X should batch the writes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var args []string
			if tc.args[0] == "expand" {
				args = append([]string{"expand"}, common...)
				args = append(args, tc.args[1:]...)
			} else {
				args = append(append(args, common...), tc.args...)
			}
			var out, errb bytes.Buffer
			code := Main(args, strings.NewReader(tc.stdin), &out, &errb)
			if code != ExitOK {
				t.Fatalf("ctxexpand %q: exit %d\n%s", args, code, errb.String())
			}
			if got := bundleQuery(t, out.String()); got != tc.want {
				t.Errorf("query %q, want %q", got, tc.want)
			}
		})
	}
}

// TestQueryFileGraph checks that graph takes --query-file and draws what
// the same query on the command line draws.
func TestQueryFileGraph(t *testing.T) {
	sharedSessions(t)
	q := filepath.Join(t.TempDir(), "q.txt")
	if err := os.WriteFile(q, []byte("Handlers.Login\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, fromFile, errs := run(t, "graph", "--no-history", "--root", gosvc, "--format", "mermaid", "-q", "--query-file", q)
	if code != ExitOK {
		t.Fatalf("graph --query-file: exit %d\n%s", code, errs)
	}
	_, fromArgs, _ := run(t, "graph", "--no-history", "--root", gosvc, "--format", "mermaid", "-q", "Handlers.Login")
	if fromFile != fromArgs {
		t.Errorf("graph --query-file drew another picture than the same query as an argument")
	}
}

func TestQueryFileUsage(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--root", gosvc, "--query-file", empty, "fix", "login"}, `--query-file and a QUERY on the command line conflict`},
		{[]string{"expand", "--root", gosvc, "--query-file", empty, "login"}, `--query-file and a QUERY on the command line conflict`},
		{[]string{"graph", "--root", gosvc, "--query-file", empty, "login"}, `--query-file and a QUERY on the command line conflict`},
		{[]string{"--root", gosvc, "--query-file", filepath.Join(dir, "absent.txt")}, "--query-file: open "},
		{[]string{"--root", gosvc, "--query-file", empty}, "holds no query"},
		{[]string{"--root", gosvc, "--query-file", "-"}, "standard input holds no query"},
		{[]string{"--root", gosvc}, "missing QUERY"},
		{[]string{"expand", "--root", gosvc}, "missing QUERY"},
		{[]string{"--root", gosvc, "-X should batch"}, `goes after --, as in ctxexpand -- "-X …"`},
		{[]string{"expand", "--root", gosvc, "-X"}, `goes after --, as in ctxexpand expand -- "-X …"`},
	}
	for _, tc := range tests {
		code, out, errs := run(t, tc.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
	// Commands without a query do not give the hint.
	if _, _, errs := run(t, "version", "--nope"); strings.Contains(errs, "query") {
		t.Errorf("version --nope: %q speaks of a query", errs)
	}
}

func TestQueryFileTooLong(t *testing.T) {
	big := strings.NewReader(strings.Repeat("a", maxQueryFileBytes+1))
	var out, errb bytes.Buffer
	code := Main([]string{"--root", gosvc, "--query-file", "-"}, big, &out, &errb)
	if code != ExitUsage || !strings.Contains(errb.String(), "more than") {
		t.Errorf("exit %d, stderr %q; want a usage error about the size", code, errb.String())
	}
}
