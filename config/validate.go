package config

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/ignore"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// maxWeight bounds every weight; the defaults are all 2 or less.
const maxWeight = 100

// validate checks the values of a decoded file; data locates the keys.
func (f *File) validate(data []byte) Errors {
	lines := keyLines(data)
	var errs Errors
	bad := func(key, format string, args ...any) {
		errs = append(errs, &Error{File: f.Name, Line: lineOf(lines, key), Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	r := &f.raw
	if r.Budget != nil && *r.Budget <= 0 {
		bad("budget", "must be a positive number of tokens, got %d", *r.Budget)
	}
	if r.Tokenizer != nil && !slices.Contains(tokenize.Names(), strings.ToLower(strings.TrimSpace(*r.Tokenizer))) {
		bad("tokenizer", "must be one of %s, got %q", strings.Join(tokenize.Names(), ", "), *r.Tokenizer)
	}
	if r.Format != nil {
		if strings.TrimSpace(*r.Format) == "" {
			bad("format", "must not be empty; remove the key to use the default")
		} else if _, err := bundle.ParseFormat(*r.Format); err != nil {
			bad("format", "must be markdown, xml, json or plain, got %q", *r.Format)
		}
	}
	if r.Strategy != nil {
		if strings.TrimSpace(*r.Strategy) == "" {
			bad("strategy", "must not be empty; remove the key to use the default (auto)")
		} else if _, err := expand.Lookup(*r.Strategy, "focused"); err != nil {
			bad("strategy", "%v", err)
		}
	}
	if r.Depth != nil && (*r.Depth < 0 || *r.Depth > MaxDepth) {
		bad("depth", "must be between 0 (the strategy decides) and %d, got %d", MaxDepth, *r.Depth)
	}
	if r.MaxFiles != nil && *r.MaxFiles <= 0 {
		bad("max_files", "must be positive, got %d", *r.MaxFiles)
	}
	if r.Timeout != nil && r.Timeout.Duration < 0 {
		bad("timeout", "must not be negative, got %s", r.Timeout.Duration)
	}
	if r.SCIP != nil {
		for i, p := range *r.SCIP {
			if strings.TrimSpace(p) == "" {
				bad("scip", "index %d is empty; name a SCIP index file such as \"index.scip\"", i+1)
			}
		}
	}
	if fs := r.Files; fs != nil {
		patterns := func(key string, ps *[]string, allowNegate bool) {
			if ps == nil {
				return
			}
			for i, p := range *ps {
				_, ok, err := ignore.ParsePattern(p, "")
				switch {
				case err != nil:
					bad(key, "pattern %d: %v", i+1, err)
				case !ok && strings.TrimSpace(p) == "":
					bad(key, "pattern %d is empty", i+1)
				case !ok:
					bad(key, "pattern %d %q is a comment; remove it", i+1, p)
				case !allowNegate && strings.HasPrefix(p, "!"):
					bad(key, "pattern %d %q: \"!\" is only meaningful in files.exclude", i+1, p)
				}
			}
		}
		patterns("files.exclude", fs.Exclude, true)
		patterns("files.include", fs.Include, false)
		patterns("files.generated", fs.Generated, false)
	}
	if r.Weights != nil {
		w := Defaults().Weights
		vals := r.Weights.byKey()
		evidence := false
		for _, wf := range weightFields {
			v := vals[wf.key]
			if v == nil {
				if wf.evidence && *wf.field(&w) > 0 {
					evidence = true
				}
				continue
			}
			switch {
			case math.IsNaN(*v) || math.IsInf(*v, 0):
				bad("weights."+wf.key, "must be a finite number, got %v", *v)
			case *v < 0 || *v > maxWeight:
				bad("weights."+wf.key, "must be between 0 and %d, got %v", maxWeight, *v)
			case wf.evidence && *v > 0:
				evidence = true
			}
		}
		if !evidence {
			errs = append(errs, &Error{File: f.Name, Line: lineOf(lines, "weights"), Key: "weights",
				Msg: "at least one of seed, explicit, graph, lexical, symbol_lexical and path must be positive, or nothing can rank"})
		}
	}
	return errs
}

// keyLines maps each dotted key of a well-formed document (tables
// included) to the line where it is first written. Keys inside inline
// tables map to the line of the key holding the table.
func keyLines(data []byte) map[string]int {
	out := map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	record := func(key []string, line int) {
		for i := 1; i <= len(key); i++ {
			k := strings.Join(key[:i], ".")
			if _, ok := out[k]; !ok {
				out[k] = line
			}
		}
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			key, line := keyOf(&p, e)
			table = key
			record(key, line)
		case unstable.KeyValue:
			key, line := keyOf(&p, e)
			record(append(append([]string(nil), table...), key...), line)
		}
	}
	return out
}

// lineOf is the line of key, or of the nearest enclosing key written in
// the document (an inline table's key), or 0.
func lineOf(lines map[string]int, key string) int {
	for {
		if l, ok := lines[key]; ok {
			return l
		}
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			return 0
		}
		key = key[:i]
	}
}

// keyOf returns the parts of a table header's or key-value's key and the
// line it starts on.
func keyOf(p *unstable.Parser, n *unstable.Node) ([]string, int) {
	var parts []string
	line := 0
	it := n.Key()
	for it.Next() {
		k := it.Node()
		if line == 0 && k.Raw.Length > 0 {
			line = p.Shape(k.Raw).Start.Line
		}
		parts = append(parts, string(k.Data))
	}
	return parts, line
}
