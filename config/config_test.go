package config

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ctxexpand/ctxexpand/rank"
)

var update = flag.Bool("update", false, "rewrite golden files")

const full = `# every key
budget = 8000
tokenizer = "cl100k"
format = "json"
strategy = "focused+semantic"
depth = 3
max_files = 12
no_tests = true
timeout = "45s"
scip = ["index.scip", "web/index.scip"]

[files]
exclude = ["docs/", "*.pb.go", "!docs/keep.go"]
include = ['vendor/example.com/lib/']
generated = ["*_mock.go", "internal/gen/"]
skip_generated = true
skip_vendored = true

[weights]
seed = 1.5
explicit = 2
graph = 0.6
lexical = 0.4
symbol_lexical = 0.3
path = 0.2
test = 0.5
generated = 0.1
vendored = 0
example = 0.25
history = 0.1
commits = 0.3
cochange = 0.5
`

func TestParseFull(t *testing.T) {
	f, err := Parse([]byte(full), "x.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := Defaults()
	f.Apply(&s)
	want := Settings{
		Budget: 8000, Tokenizer: "cl100k", Format: "json", Strategy: "focused+semantic",
		Depth: 3, MaxFiles: 12, NoTests: true, Timeout: 45 * time.Second,
		SCIP:          []string{"index.scip", "web/index.scip"},
		Exclude:       []string{"docs/", "*.pb.go", "!docs/keep.go"},
		Include:       []string{"vendor/example.com/lib/"},
		Generated:     []string{"*_mock.go", "internal/gen/"},
		SkipGenerated: true, SkipVendored: true,
		Weights: rank.Weights{Seed: 1.5, Explicit: 2, Graph: 0.6, Lexical: 0.4, SymLexical: 0.3, Path: 0.2,
			Test: 0.5, Generated: 0.1, Vendored: 0, Example: 0.25, History: 0.1, Commits: 0.3, CoChange: 0.5},
		File: "x.toml",
	}
	if diff := cmp.Diff(want, s, cmpopts.IgnoreUnexported(Settings{})); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
	for _, k := range Keys() {
		if got := s.Origin(k); got != "x.toml" {
			t.Errorf("origin of %s = %q, want x.toml", k, got)
		}
	}
}

func TestParsePartialKeepsDefaults(t *testing.T) {
	f, err := Parse([]byte("budget = 900\n[weights]\nlexical = 1\n"), ".ctxexpand.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := Defaults()
	f.Apply(&s)
	w := rank.DefaultWeights
	w.Lexical = 1
	if s.Budget != 900 || s.Weights != w || s.Format != DefaultFormat || s.MaxFiles != DefaultMaxFiles {
		t.Errorf("partial file: got %+v", s)
	}
	var origins []string
	for _, k := range []string{"budget", "format", "weights.lexical", "weights.seed"} {
		origins = append(origins, k+"="+s.Origin(k))
	}
	want := []string{"budget=.ctxexpand.toml", "format=default", "weights.lexical=.ctxexpand.toml", "weights.seed=default"}
	if diff := cmp.Diff(want, origins); diff != "" {
		t.Errorf("origins (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // each error's text, in order
	}{
		{"unknown top-level key", "budget = 1\nbudjet = 2\n",
			[]string{`c.toml:2:1: unknown key "budjet" at the top level (did you mean "budget"?); known keys: budget, tokenizer, format, strategy, depth, max_files, no_tests, timeout, scip, files, weights`}},
		{"unknown key in a table", "[weights]\nseed = 1\nsead = 2\n",
			[]string{`c.toml:3:1: unknown key "weights.sead" in [weights] (did you mean "seed"?); known keys: seed, explicit, graph, lexical, symbol_lexical, path, test, generated, vendored, example`}},
		{"several unknown keys, by position", "zzz = 1\n[files]\nexcludes = []\n",
			[]string{
				`c.toml:1:1: unknown key "zzz" at the top level; known keys: budget, tokenizer, format, strategy, depth, max_files, no_tests, timeout, scip, files, weights`,
				`c.toml:3:1: unknown key "files.excludes" in [files] (did you mean "exclude"?); known keys: exclude, include, generated, skip_generated, skip_vendored`,
			}},
		{"unknown table", "[file]\nexclude = []\n",
			[]string{`c.toml:1:2: unknown key "file" at the top level (did you mean "files"?); known keys: budget, tokenizer, format, strategy, depth, max_files, no_tests, timeout, scip, files, weights`}},
		{"unknown keys and a wrong type together", "max_file = 3\n[weights]\nseed = \"high\"\nsead = 1\n",
			[]string{
				`c.toml:1:1: unknown key "max_file" at the top level (did you mean "max_files"?); known keys: budget, tokenizer, format, strategy, depth, max_files, no_tests, timeout, scip, files, weights`,
				`c.toml:3:8: weights.seed: want a number, got a string`,
				`c.toml:4:1: unknown key "weights.sead" in [weights] (did you mean "seed"?); known keys: seed, explicit, graph, lexical, symbol_lexical, path, test, generated, vendored, example`,
			}},
		{"unknown keys and bad values together", "depth = 11\nzz = 1\n",
			[]string{
				`c.toml:1: depth: must be between 0 (the strategy decides) and 10, got 11`,
				`c.toml:2:1: unknown key "zz" at the top level; known keys: budget, tokenizer, format, strategy, depth, max_files, no_tests, timeout, scip, files, weights`,
			}},
		{"string for an integer", `budget = "lots"` + "\n", []string{`c.toml:1:10: budget: want a positive integer (tokens), got a string`}},
		{"float for an integer", "max_files = 1.5\n", []string{`c.toml:1:13: max_files: want a positive integer, got a float`}},
		{"string for a list", "[files]\nexclude = \"docs/\"\n", []string{`c.toml:2:11: files.exclude: want a list of strings such as ["docs/", "*.pb.go"], got a string`}},
		{"integer in a list", "[files]\ninclude = [1]\n", []string{`c.toml:2:12: files.include: want a list of strings such as ["vendor/example.com/lib/"], got a list holding an integer`}},
		{"string for a weight", "[weights]\nseed = \"high\"\n", []string{`c.toml:2:8: weights.seed: want a number, got a string`}},
		{"value for a table", "weights = 3\n", []string{`c.toml:1:11: weights: want a table: [weights], got an integer`}},
		{"bool as string", "no_tests = \"yes\"\n", []string{`c.toml:1:12: no_tests: want true or false, got a string`}},
		{"duration without unit", "timeout = 30\n", []string{`c.toml:1: timeout: want a duration such as "30s" or "2m", got "30"`}},
		{"bad duration", "timeout = \"30 seconds\"\n", []string{`c.toml:1:11: timeout: want a duration such as "30s" or "2m", got "30 seconds"`}},
		{"syntax error", "budget = \n", []string{`c.toml:1:10: unexpected character U+000A at start of value`}},
		{"duplicate key", "depth = 1\ndepth = 2\n", []string{`c.toml:2:1: depth: key depth is already defined`}},
		{"values out of range, all reported", "budget = 0\ndepth = 11\nmax_files = -1\ntimeout = \"-1s\"\n",
			[]string{
				`c.toml:1: budget: must be a positive number of tokens, got 0`,
				`c.toml:2: depth: must be between 0 (the strategy decides) and 10, got 11`,
				`c.toml:3: max_files: must be positive, got -1`,
				`c.toml:4: timeout: must not be negative, got -1s`,
			}},
		{"unknown names", "tokenizer = \"gpt2\"\nformat = \"html\"\nstrategy = \"wide\"\n",
			[]string{
				`c.toml:1: tokenizer: must be one of o200k, o200k_base, cl100k, cl100k_base, estimate, claude, got "gpt2"`,
				`c.toml:2: format: must be markdown, xml, json or plain, got "html"`,
				`c.toml:3: strategy: unknown strategy "wide": choose auto, broad, entrypoint, focused, impact, semantic, or several joined with +`,
			}},
		{"empty names", "format = \"\"\nstrategy = \" \"\n",
			[]string{
				`c.toml:1: format: must not be empty; remove the key to use the default`,
				`c.toml:2: strategy: must not be empty; remove the key to use the default (auto)`,
			}},
		{"bad patterns", "[files]\nexclude = [\"ok\", \"a[\"]\ninclude = [\"!x\", \"\"]\ngenerated = [\"# c\"]\n",
			[]string{
				`c.toml:2: files.exclude: pattern 2: "a[": unclosed "[": bad pattern`,
				`c.toml:3: files.include: pattern 1 "!x": "!" is only meaningful in files.exclude`,
				`c.toml:3: files.include: pattern 2 is empty`,
				`c.toml:4: files.generated: pattern 1 "# c" is a comment; remove it`,
			}},
		{"weights out of range", "[weights]\nseed = -1\ngraph = nan\ntest = 101\n",
			[]string{
				`c.toml:2: weights.seed: must be between 0 and 100, got -1`,
				`c.toml:3: weights.graph: must be a finite number, got NaN`,
				`c.toml:4: weights.test: must be between 0 and 100, got 101`,
			}},
		{"no positive evidence weight", "[weights]\nseed = 0\nexplicit = 0\ngraph = 0\nlexical = 0\nsymbol_lexical = 0\npath = 0\n",
			[]string{`c.toml:1: weights: at least one of seed, explicit, graph, lexical, symbol_lexical and path must be positive, or nothing can rank`}},
		{"dotted keys and inline tables locate lines", "weights.seed = -2\nfiles = { exclude = [\"[\"] }\n",
			[]string{
				`c.toml:1: weights.seed: must be between 0 and 100, got -2`,
				`c.toml:2: files.exclude: pattern 1: "[": unclosed "[": bad pattern`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.in), "c.toml")
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", f.raw)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors", err)
			}
			var got []string
			for _, e := range es {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, FileName)); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load of a missing file: %v, want ErrNotFound", err)
	}
	if Find(dir) != "" {
		t.Error("Find found a file in an empty directory")
	}
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte("budget = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if Find(dir) != p {
		t.Errorf("Find = %q, want %q", Find(dir), p)
	}
	f, err := Load(p)
	if err != nil || f.raw.Budget == nil || *f.raw.Budget != 5 || f.Name != p {
		t.Errorf("Load = %+v, %v", f, err)
	}
	if err := os.WriteFile(p, bytes.Repeat([]byte("#"), maxFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Load of a huge file: %v", err)
	}
}

// TestWriteTOML records the output for mixed origins and checks that it
// reads back to the same settings.
func TestWriteTOML(t *testing.T) {
	f, err := Parse([]byte("format = \"xml\"\n[files]\nexclude = ['gen\\ dir/', \"it's\"]\n[weights]\ngraph = 1\n"), ".ctxexpand.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := Defaults()
	f.Apply(&s)
	s.Budget = 4000
	s.SetOrigin("budget", "flag --budget")
	var b bytes.Buffer
	if err := s.WriteTOML(&b); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "effective.toml")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("output changed (-want +got); if intended, run go test -update:\n%s", diff)
	}
	back, err := Parse(b.Bytes(), "back.toml")
	if err != nil {
		t.Fatalf("the output does not parse: %v", err)
	}
	s2 := Defaults()
	back.Apply(&s2)
	s2.File = s.File
	if diff := cmp.Diff(s, s2, cmpopts.IgnoreUnexported(Settings{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestIgnoreOptions(t *testing.T) {
	s := Defaults()
	s.Exclude, s.Include, s.Generated = []string{"a"}, []string{"b"}, []string{"c"}
	s.SkipVendored = true
	o := s.IgnoreOptions()
	o.Exclude[0] = "changed"
	if s.Exclude[0] != "a" || o.Include[0] != "b" || o.Generated[0] != "c" || !o.SkipVendored || o.SkipGenerated {
		t.Errorf("IgnoreOptions = %+v (settings %+v)", o, s)
	}
}

func TestQuote(t *testing.T) {
	for _, v := range []string{"plain", `back\slash`, `both\'`, "tab\tnew\nline", "quote\"", "\x01ctl", "é"} {
		f, err := Parse([]byte("format = \"json\"\n[files]\nexclude = ["+quote(v)+"]\n"), "q.toml")
		if err != nil {
			// Only the pattern check may refuse it; the TOML must be valid.
			if !strings.Contains(err.Error(), "files.exclude") {
				t.Errorf("quote(%q) = %s: %v", v, quote(v), err)
			}
			continue
		}
		if got := (*f.raw.Files.Exclude)[0]; got != v {
			t.Errorf("quote(%q) read back as %q", v, got)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(full))
	f.Add([]byte("budget = 1\nbudjet = 2\n"))
	f.Add([]byte("[weights]\nseed = nan\n"))
	f.Add([]byte("files = { exclude = [\"[\"] }\n"))
	f.Add([]byte("timeout = 30\n"))
	f.Add([]byte("a.b.c.d = [[1], {x = 1}]\n[[weights]]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "fuzz.toml")
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %T %v is not a non-empty Errors list", err, err)
			}
			for _, e := range es {
				if !strings.HasPrefix(e.Error(), "fuzz.toml") {
					t.Fatalf("error %q does not name the file", e)
				}
			}
			return
		}
		s := Defaults()
		cfg.Apply(&s)
		var b bytes.Buffer
		if err := s.WriteTOML(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(b.Bytes(), "again.toml"); err != nil {
			t.Fatalf("accepted settings print as a file that does not parse: %v\n%s", err, b.String())
		}
	})
}
