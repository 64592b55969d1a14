package query

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Bug reports written for these tests, shaped like the ones agents paste:
// a title, template headings, prose, code, terminal output and versions.
const (
	goReport = "Subscriber misses messages after a reconnect\n\n" +
		"## Description\n\n" +
		"After the broker restarts, `Client.Resubscribe` replays the subscriptions but the\n" +
		"queue group is dropped, so messages published to `orders.*` go to one member only.\n" +
		"It started with 3e2908a87e5fdfdbd5efaad013c0b2d196c64c40.\n\n" +
		"## Steps to reproduce\n\n" +
		"```go\n" +
		"sub, err := nc.QueueSubscribe(\"orders.*\", \"workers\", handle)\n" +
		"if err != nil {\n\treturn err\n}\n" +
		"```\n\n" +
		"```console\n" +
		"$ brokerctl restart --graceful\n" +
		"2024-05-01T12:00:01.345Z INFO reconnect attempt 3 took 0.23s\n" +
		"error: subscription queue group mismatch for orders.*\n" +
		"```\n\n" +
		"## Environment\n\n" +
		"- broker v2.10.4\n" +
		"- go version go1.22.3 linux/amd64\n"

	rustReport = "[lint] False positive for `match_args` on dataclasses\n\n" +
		"## Summary\n\n" +
		"The arity check in `PatternChecker::check_class` counts keyword patterns as positional.\n\n" +
		"```python\n" +
		"@dataclass\n" +
		"class Point:\n" +
		"    horizontal: int\n" +
		"    vertical: int\n\n" +
		"match p:\n" +
		"    case Point(horizontal=0):\n" +
		"        pass\n" +
		"```\n\n" +
		"```\n" +
		"error[E001]: too many positional patterns for `Point`\n" +
		" --> example.py:8:10\n" +
		"```\n"
)

func TestAnalyzeIssue(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		entities []string // raw texts of entities that must be there
		noEnt    []string // raw texts of entities that must not
		terms    []string // term texts that must be there
		noTerms  []string // and must not
		refs     int
		errors   []string
	}{
		{
			name:     "go report",
			in:       goReport,
			entities: []string{"Client.Resubscribe", "nc.QueueSubscribe"},
			terms:    []string{"resubscrib", "queuesubscribe", "queue", "group", "brokerctl", "restart", "mismatch"},
			noTerms: []string{
				"3e2908a87e5fdfdbd5efaad013c0b2d196c64c40", // a commit hash
				"23s", "345z", "2024", // timing and a timestamp of a log line
				"descript", "environment", "reproduc", "step", // template headings
				"go1", "linux", "amd64", // a version list
				"nil", // Go's own names in code
			},
			errors: []string{"subscription queue group mismatch for orders.*"},
		},
		{
			name:     "rust report quoting the Python it lints",
			in:       rustReport,
			entities: []string{"PatternChecker::check_class", "match_args"},
			noEnt:    []string{"Point", "horizontal"},
			terms:    []string{"patternchecker", "checkclass", "arity", "positional", "horizontal", "dataclass"},
			noTerms:  []string{"summary"},
			refs:     0, // "@dataclass" is a decorator, not a reference
			errors:   []string{"too many positional patterns for `Point`"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Analyze(tt.in)
			ents := map[string]bool{}
			for _, e := range p.Entities {
				ents[e.Raw] = true
			}
			for _, e := range tt.entities {
				if !ents[e] {
					t.Errorf("entity %q missing\n%s", e, p.Explain())
				}
			}
			for _, e := range tt.noEnt {
				if ents[e] {
					t.Errorf("unwanted entity %q\n%s", e, p.Explain())
				}
			}
			have := map[string]Term{}
			for _, term := range p.Terms {
				have[term.Text] = term
			}
			for _, w := range tt.terms {
				if _, ok := have[w]; !ok {
					t.Errorf("term %q missing\n%s", w, p.Explain())
				}
			}
			for _, w := range tt.noTerms {
				if _, ok := have[w]; ok {
					t.Errorf("unwanted term %q\n%s", w, p.Explain())
				}
			}
			if len(p.Refs) != tt.refs {
				t.Errorf("%d references, want %d: %+v", len(p.Refs), tt.refs, p.Refs)
			}
			for _, e := range tt.errors {
				found := false
				for _, got := range p.Errors {
					found = found || strings.Contains(got, e)
				}
				if !found {
					t.Errorf("error %q missing from %q", e, p.Errors)
				}
			}
		})
	}
}

// TestIssueWeights holds the relative weights of what each block says:
// the title's words and the code's names over the words of a log.
func TestIssueWeights(t *testing.T) {
	p := Analyze(goReport)
	w := map[string]float64{}
	for _, term := range p.Terms {
		w[term.Text] = term.Weight
	}
	for _, c := range []struct{ heavier, lighter string }{
		{"queuesubscribe", "attempt"}, // a name in code over a word of a log line
		{"mismatch", "attempt"},       // an error line over the rest of the output
		{"subscrib", "attempt"},
	} {
		if !(w[c.heavier] > w[c.lighter]) {
			t.Errorf("weight of %q (%v) not above %q (%v)\n%s", c.heavier, w[c.heavier], c.lighter, w[c.lighter], p.Explain())
		}
	}
}

// TestShortQueriesUnchanged: a one-line task is read as before, whatever
// the issue-text weights are.
func TestShortQueriesUnchanged(t *testing.T) {
	for _, q := range []string{
		"fix UserService.find_by_email",
		"xdsclient: fix race in watcher cleanup",
		"why does login return 500 when the token expired",
		"build: stop embedding the version twice",
	} {
		a := AnalyzeWith(q, DefaultTextWeights)
		b := AnalyzeWith(q, TextWeights{Title: 3, Code: 0.1, Foreign: 0.1, Output: 0.1, Repeat: 1, SynonymTerms: 1000, CodeEntities: true})
		if diff := cmp.Diff(a.Terms, b.Terms); diff != "" {
			t.Errorf("%q: terms depend on the issue-text weights (-default +other):\n%s", q, diff)
		}
	}
}

// TestEntitySalience: a name in a report's title, or in a one-line task,
// is fully salient; one mentioned in its description, code or output is
// as salient as the weights say, a plain back-ticked word less, and
// repeated mentions more.
func TestEntitySalience(t *testing.T) {
	w := TextWeights{Title: 1, Code: 1, Foreign: 0.5, Output: 0.5, SynonymTerms: 40, CodeEntities: true,
		EntityProse: 0.6, EntityCode: 0.3, EntityPlain: 0.5, EntityRepeat: 0.5}
	text := "`Store.Get` drops the cache entry\n\n" +
		"Since the refactor, `evict_all` runs on every read, and `timeout` is ignored.\n" +
		"Calling `evict_all` twice shows it.\n\n" +
		"```go\nc := cache.NewLRU(10)\n```\n"
	p := AnalyzeWith(text, w)
	got := map[string]float64{}
	for _, e := range p.Entities {
		got[e.Raw] = e.Weight()
	}
	want := map[string]float64{
		"Store.Get":    1,                               // the title
		"evict_all":    min(1, 0.6*(1+0.5*math.Log(2))), // prose, twice
		"timeout":      0.6 * 0.5,                       // a plain word in back-ticks
		"cache.NewLRU": 0.3,                             // code
	}
	for raw, s := range want {
		if math.Abs(got[raw]-s) > 1e-9 {
			t.Errorf("salience of %q = %v, want %v (all: %v)", raw, got[raw], s, got)
		}
	}
	for _, e := range AnalyzeWith("fix `timeout` in Store.Get", w).Entities {
		if e.Weight() != 1 {
			t.Errorf("one-line task: %q has salience %v, want 1", e.Raw, e.Weight())
		}
	}
}
