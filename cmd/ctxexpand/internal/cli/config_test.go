package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/config"
)

// run drives the command line with in-memory IO.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// writeRepo extracts a txtar archive into a fresh directory.
func writeRepo(t *testing.T, archive string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var settingLine = regexp.MustCompile(`^(\w+) = (.*?)\s+# (.*)$`)

// effective runs `ctxexpand config` and returns "key = value # origin"
// for the keys asked, with origins that name a file cut to its base name.
func effective(t *testing.T, keys []string, args ...string) []string {
	t.Helper()
	code, out, errs := run(t, append([]string{"config"}, args...)...)
	if code != ExitOK {
		t.Fatalf("config %v: exit %d: %s", args, code, errs)
	}
	section := ""
	got := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[]") + "."
			continue
		}
		if m := settingLine.FindStringSubmatch(line); m != nil {
			origin := m[3]
			if strings.HasSuffix(origin, ".toml") {
				origin = filepath.Base(origin)
			}
			got[section+m[1]] = m[2] + " # " + origin
		}
	}
	var res []string
	for _, k := range keys {
		res = append(res, k+" = "+got[k])
	}
	return res
}

func TestFlagDefaultsAgreeWithConfigDefaults(t *testing.T) {
	o := newExpandOptions()
	d := config.Defaults()
	got := []any{o.Budget, o.MaxFiles, o.Strategy, o.Format, o.Tokenizer, o.Depth, o.NoTests, o.Timeout}
	want := []any{d.Budget, d.MaxFiles, d.Strategy, d.Format, d.Tokenizer, d.Depth, d.NoTests, d.Timeout}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flag defaults differ from config.Defaults (-config +flags):\n%s", diff)
	}
}

// TestPrecedence checks flag > configuration file > default, key by key,
// through `ctxexpand config`.
func TestPrecedence(t *testing.T) {
	repo := writeRepo(t, `
-- .ctxexpand.toml --
budget = 5000
no_tests = true
timeout = "1m"
[files]
exclude = ["docs/"]
[weights]
graph = 0.5
-- other.toml --
format = "xml"
`)
	keys := []string{"budget", "format", "max_files", "no_tests", "timeout", "files.exclude", "weights.graph", "weights.seed"}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"file over defaults", nil, []string{
			"budget = 5000 # .ctxexpand.toml",
			`format = "markdown" # default`,
			"max_files = 30 # default",
			"no_tests = true # .ctxexpand.toml",
			`timeout = "1m0s" # .ctxexpand.toml`,
			`files.exclude = ["docs/"] # .ctxexpand.toml`,
			"weights.graph = 0.5 # .ctxexpand.toml",
			"weights.seed = 1.0 # default",
		}},
		{"flags over the file, even at their default values", []string{"--budget", "16000", "--no-tests=false", "--max-files", "7", "--timeout", "5s"}, []string{
			"budget = 16000 # flag --budget",
			`format = "markdown" # default`,
			"max_files = 7 # flag --max-files",
			"no_tests = false # flag --no-tests",
			`timeout = "5s" # flag --timeout`,
			`files.exclude = ["docs/"] # .ctxexpand.toml`,
			"weights.graph = 0.5 # .ctxexpand.toml",
			"weights.seed = 1.0 # default",
		}},
		{"--config replaces the root's file", []string{"--config", filepath.Join(repo, "other.toml"), "--budget", "900"}, []string{
			"budget = 900 # flag --budget",
			`format = "xml" # other.toml`,
			"max_files = 30 # default",
			"no_tests = false # default",
			`timeout = "0s" # default`,
			"files.exclude = [] # default",
			"weights.graph = 0.8 # default",
			"weights.seed = 1.0 # default",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := effective(t, keys, append([]string{"--root", repo}, tt.args...)...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("effective settings (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("no file at all", func(t *testing.T) {
		code, out, _ := run(t, "config", "--root", t.TempDir())
		if code != ExitOK || !strings.Contains(out, "# Configuration file: none") || !strings.Contains(out, "budget = 16000  ") {
			t.Errorf("exit %d, output:\n%s", code, out)
		}
	})
}

// TestConfigOutputParses checks that `ctxexpand config` prints a file the
// configuration parser accepts.
func TestConfigOutputParses(t *testing.T) {
	repo := writeRepo(t, "-- .ctxexpand.toml --\n[files]\nexclude = ['a\\ b/']\nskip_vendored = true\n")
	code, out, errs := run(t, "config", "--root", repo, "--strategy", "focused+semantic")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := config.Parse([]byte(out), "printed"); err != nil {
		t.Errorf("printed configuration does not parse: %v\n%s", err, out)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, file string
		args       []string
		want       []string // in stderr
		// hint: the usage hint follows (a flag is wrong), or not (the
		// file is).
		hint bool
	}{
		{"unknown key named with file and line", "budget = 1\nmax_file = 3\n", nil,
			[]string{".ctxexpand.toml:2:1: unknown key \"max_file\" at the top level (did you mean \"max_files\"?)"}, false},
		{"wrong type", "[weights]\nseed = \"high\"\n", nil, []string{".ctxexpand.toml:2:8: weights.seed: want a number, got a string"}, false},
		{"bad value", "depth = 99\n", nil, []string{".ctxexpand.toml:1: depth: must be between 0"}, false},
		{"missing --config", "", []string{"--config", "nope.toml"}, []string{"--config nope.toml: no such file"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			if tt.file != "" {
				if err := os.WriteFile(filepath.Join(repo, config.FileName), []byte(tt.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, cmd := range [][]string{{"config"}, {"--files-only", "anything"}} {
				code, out, errs := run(t, append(append(cmd, "--root", repo), tt.args...)...)
				if code != ExitUsage {
					t.Errorf("%v: exit %d, want %d", cmd, code, ExitUsage)
				}
				if out != "" {
					t.Errorf("%v: wrote to stdout on a configuration error: %q", cmd, out)
				}
				for _, w := range tt.want {
					if !strings.Contains(errs, w) {
						t.Errorf("%v: stderr %q does not contain %q", cmd, errs, w)
					}
				}
				if hint := strings.Contains(errs, "--help"); hint != tt.hint {
					t.Errorf("%v: usage hint printed: %v, want %v:\n%s", cmd, hint, tt.hint, errs)
				}
			}
		})
	}
}

const smallRepo = `
-- go.mod --
module example.com/app

go 1.22
-- token/token.go --
package token

// Issue makes a session token for a user.
func Issue(user string) string { return "t-" + user }
-- token/verify.go --
package token

// Verify checks a session token.
func Verify(tok string) bool { return len(tok) > 2 }
-- secret/keys.go --
package secret

// TokenKey signs every session token.
const TokenKey = "k"
-- session/session.go --
package session

import "example.com/app/token"

// Start issues the session token of a user.
func Start(user string) string { return token.Issue(user) }
-- session/store.go --
package session

// Store keeps session tokens.
type Store map[string]string
`

// TestExpandUsesConfig runs whole queries and checks that the file's
// settings reach the run and that flags still win.
func TestExpandUsesConfig(t *testing.T) {
	repo := writeRepo(t, smallRepo+`
-- .ctxexpand.toml --
max_files = 2
format = "json"
budget = 3000
[files]
exclude = ["secret/"]
`)
	query := "session token issue verify"
	code, out, errs := run(t, "--root", repo, "--files-only", "-q", query)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	files := strings.Fields(out)
	if len(files) != 2 {
		t.Errorf("max_files = 2 from the file: got %d files: %v", len(files), files)
	}
	code, out, errs = run(t, "--root", repo, "--files-only", "-q", "--max-files", "10", query)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	files = strings.Fields(out)
	if len(files) < 3 {
		t.Errorf("--max-files 10 over max_files = 2: got %v", files)
	}
	for _, f := range files {
		if strings.HasPrefix(f, "secret/") {
			t.Errorf("excluded file %s listed", f)
		}
	}
	code, out, errs = run(t, "--root", repo, "-q", query)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Budget int `json:"budget"`
		Files  []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("format = \"json\" from the file, but the output is not JSON: %v\n%s", err, out)
	}
	if doc.Budget != 3000 {
		t.Errorf("bundle budget = %d, want 3000 from the file", doc.Budget)
	}
	for _, f := range doc.Files {
		if strings.HasPrefix(f.Path, "secret/") {
			t.Errorf("excluded file %s in the bundle", f.Path)
		}
	}
}
