package config

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/ctxexpand/ctxexpand/internal/editdist"
)

// ErrInvalid is wrapped by every error about a configuration file's
// content; check it with errors.Is.
var ErrInvalid = errors.New("invalid configuration")

// Error is one problem in a configuration file.
type Error struct {
	File      string
	Line, Col int    // 1-based; 0 when unknown
	Key       string // dotted ("weights.seed"); "" for a syntax error
	Msg       string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Key != "" && !strings.HasPrefix(e.Msg, "unknown key") {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap makes errors.Is(err, ErrInvalid) hold.
func (e *Error) Unwrap() error { return ErrInvalid }

// Errors is every problem found in one file, sorted by position.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap returns the individual errors.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

func (es Errors) sort() {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Line != es[j].Line {
			return es[i].Line < es[j].Line
		}
		return es[i].Col < es[j].Col
	})
}

// durationError is returned by Duration.UnmarshalText, which the decoder
// does not always wrap with a position.
type durationError struct{ msg string }

func (e *durationError) Error() string { return e.msg }

// decodeErrors turns the decoder's error into an Errors list that names
// the file, the position and the key, in the words of this file format.
func decodeErrors(name string, data []byte, err error) Errors {
	var strict *toml.StrictMissingError
	var de *toml.DecodeError
	var dur *durationError
	switch {
	case errors.As(err, &strict):
		var out Errors
		for i := range strict.Errors {
			e := &strict.Errors[i]
			line, col := e.Position()
			out = append(out, &Error{File: name, Line: line, Col: col, Key: strings.Join(e.Key(), "."), Msg: unknownKeyMsg(e.Key())})
		}
		out.sort()
		return out
	case errors.As(err, &dur):
		line := lineOf(keyLines(data), "timeout")
		return Errors{{File: name, Line: line, Key: "timeout", Msg: dur.msg}}
	case errors.As(err, &de):
		line, col := de.Position()
		key := strings.Join(de.Key(), ".")
		return Errors{{File: name, Line: line, Col: col, Key: key, Msg: decodeMsg(key, de.Error())}}
	}
	return Errors{{File: name, Msg: strings.TrimPrefix(err.Error(), "toml: ")}}
}

// tables are the tables of the format and their keys.
var tables = map[string][]string{
	"":        {"budget", "tokenizer", "format", "strategy", "depth", "max_files", "no_tests", "timeout", "scip", "files", "weights"},
	"files":   {"exclude", "include", "generated", "skip_generated", "skip_vendored"},
	"weights": {"seed", "explicit", "graph", "lexical", "symbol_lexical", "path", "test", "generated", "vendored", "example"},
}

// unknownKeyMsg says which key is unknown, what was perhaps meant, and
// what the table allows.
func unknownKeyMsg(key []string) string {
	if len(key) == 0 {
		return "unknown key"
	}
	// Find the deepest known table on the key's path.
	table, rest := "", key
	if len(key) > 1 {
		if _, ok := tables[key[0]]; ok {
			table, rest = key[0], key[1:]
		}
	}
	known := tables[table]
	where := "at the top level"
	if table != "" {
		where = "in [" + table + "]"
	}
	msg := fmt.Sprintf("unknown key %q %s", strings.Join(key, "."), where)
	if s := closest(rest[0], known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg + "; known keys: " + strings.Join(known, ", ")
}

// closest is the known key nearest to k: at most two edits away, or
// else containing it (or contained in it) when k has four letters or more.
// Ties go to the first in the table's order.
func closest(k string, known []string) string {
	const maxEdits = 2
	best, bestD := "", maxEdits+1
	for _, c := range known {
		if d := editdist.Bytes(k, c, maxEdits); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" && len(k) >= 4 {
		for _, c := range known {
			if strings.Contains(c, k) || strings.Contains(k, c) {
				return c
			}
		}
	}
	return best
}

// want says what each key takes, for type errors.
var want = map[string]string{
	"budget":               "a positive integer (tokens)",
	"tokenizer":            "a string such as \"o200k\", \"cl100k\" or \"estimate\"",
	"format":               "a string: markdown, xml, json or plain",
	"strategy":             "a string such as \"auto\" or \"focused+semantic\"",
	"depth":                "an integer from 0 to 10",
	"max_files":            "a positive integer",
	"no_tests":             "true or false",
	"timeout":              "a duration string such as \"30s\" or \"2m\"",
	"files":                "a table: [files]",
	"weights":              "a table: [weights]",
	"files.exclude":        "a list of strings such as [\"docs/\", \"*.pb.go\"]",
	"files.include":        "a list of strings such as [\"vendor/example.com/lib/\"]",
	"files.generated":      "a list of strings such as [\"*_mock.go\"]",
	"files.skip_generated": "true or false",
	"files.skip_vendored":  "true or false",
}

var typeMismatch = regexp.MustCompile(`cannot decode TOML ([a-z ]+?) into .* of type (\S+)`)

// decodeMsg rewrites a decoder message in the file format's terms.
func decodeMsg(key, msg string) string {
	msg = strings.TrimPrefix(msg, "toml: ")
	m := typeMismatch.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	w, ok := want[key]
	if !ok && strings.HasPrefix(key, "weights.") {
		w, ok = "a number", true
	}
	if !ok {
		return msg
	}
	got := article(m[1])
	if strings.HasPrefix(w, "a list") && m[2] == "string" {
		got = "a list holding " + got
	}
	return fmt.Sprintf("want %s, got %s", w, got)
}

func article(kind string) string {
	switch kind[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + kind
	}
	return "a " + kind
}
