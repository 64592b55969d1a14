package config

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteTOML writes the settings as a configuration file that Parse
// accepts, every key present, each followed by a comment saying where its
// value came from.
func (s *Settings) WriteTOML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# Effective ctxexpand configuration: defaults, overridden by the")
	fmt.Fprintln(bw, "# configuration file, overridden by flags. The comment after each value")
	fmt.Fprintln(bw, "# says where it came from.")
	if s.File != "" {
		fmt.Fprintf(bw, "# Configuration file: %s\n", s.File)
	} else {
		fmt.Fprintf(bw, "# Configuration file: none (no %s at the root, no --config)\n", FileName)
	}
	type line struct{ key, value string }
	sections := []struct {
		name  string
		lines []line
	}{
		{"", []line{
			{"budget", strconv.Itoa(s.Budget)},
			{"tokenizer", quote(s.Tokenizer)},
			{"format", quote(s.Format)},
			{"strategy", quote(s.Strategy)},
			{"depth", strconv.Itoa(s.Depth)},
			{"max_files", strconv.Itoa(s.MaxFiles)},
			{"no_tests", strconv.FormatBool(s.NoTests)},
			{"timeout", quote(s.Timeout.String())},
			{"scip", quoteList(s.SCIP)},
		}},
		{"files", []line{
			{"exclude", quoteList(s.Exclude)},
			{"include", quoteList(s.Include)},
			{"generated", quoteList(s.Generated)},
			{"skip_generated", strconv.FormatBool(s.SkipGenerated)},
			{"skip_vendored", strconv.FormatBool(s.SkipVendored)},
		}},
		{"weights", nil},
	}
	for _, wf := range weightFields {
		sections[2].lines = append(sections[2].lines, line{wf.key, formatFloat(*wf.field(&s.Weights))})
	}
	for _, sec := range sections {
		fmt.Fprintln(bw)
		prefix := ""
		if sec.name != "" {
			fmt.Fprintf(bw, "[%s]\n", sec.name)
			prefix = sec.name + "."
		}
		width := 0
		for _, l := range sec.lines {
			width = max(width, len(l.key)+3+len(l.value))
		}
		for _, l := range sec.lines {
			kv := l.key + " = " + l.value
			fmt.Fprintf(bw, "%-*s  # %s\n", width, kv, oneLine(s.Origin(prefix+l.key)))
		}
	}
	return bw.Flush()
}

// quote writes a TOML string: a literal string ('…') when that needs no
// escaping and the text holds a backslash (glob escapes read better so),
// otherwise a basic string with TOML's escapes.
func quote(v string) string {
	if strings.Contains(v, `\`) && !strings.ContainsAny(v, "'\n\r") && printable(v) {
		return "'" + v + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError:
			b.WriteString(`\uFFFD`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func printable(v string) bool {
	for _, r := range v {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return false
		}
	}
	return true
}

func quoteList(vs []string) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = quote(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// formatFloat writes a TOML float: always with a decimal point or an
// exponent, so that it reads back as a float.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// oneLine keeps an origin label on its comment line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
