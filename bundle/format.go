package bundle

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// section is everything a format needs to render one extra or file.
type section struct {
	extra bool

	// Files.
	path     string
	lang     string // fence and JSON language tag: "go", "rust", "text"
	score    float64
	explicit bool
	category string
	reasons  []string
	spans    []Span

	// Extras.
	kind, title string

	rung      Rung
	truncated bool
	mode      Truncation
	ranges    []lineRange // lines shown, nil for the whole file or no code
	content   string      // code, skeleton or summary text; ends in "\n" unless empty
	tokens    int         // the Counter's count of content (JSON "tokens")
	// need is what an omitted file's section would cost at the rung that
	// shows its relevant content (JSON "tokens_needed"), 0 when unknown.
	need int
}

// docInfo is the frame of a document: what the summary block says.
type docInfo struct {
	version   int
	query     string
	strategy  string
	commit    string
	tokenizer string
	budget    int
	total     int
	counts    Counts
	notes     []string
}

// formatter renders a document as head, the extras, mid, the files, tail.
// Every piece ends in a line break and every piece but the head starts with
// a character that is neither white space nor "/", so that the exact
// counters add piece counts exactly (see tokenize.SafeStart).
type formatter interface {
	head(d *docInfo) string
	mid(d *docInfo) string
	tail(d *docInfo) string
	extra(s *section) string
	file(s *section) string
	// listing renders an omitted file, or "" when the format does not
	// list omitted files.
	listing(s *section) string
	// listsAll reports whether the format lists every omitted file,
	// paying for the entries before the content of the files they stand
	// for (JSON: programs read the whole ranked list; see builder.plan);
	// otherwise omitted files are listed while the leftover allows (XML).
	listsAll() bool
	// last adjusts the final element of the extras or of the files (JSON
	// drops its comma).
	last(piece string) string
}

func formatterFor(f Format) (formatter, error) {
	switch f {
	case Markdown:
		return markdown{}, nil
	case XML:
		return xmlFormat{}, nil
	case JSON:
		return jsonFormat{}, nil
	case Plain:
		return plain{}, nil
	}
	return nil, fmt.Errorf("%w: %v", ErrUnknownFormat, f)
}

// formatVersion is the version of the output formats (the JSON schema's
// "version").
const formatVersion = 1

// maxNoteRunes and maxQueryRunes cap what the frame repeats of notes and
// the query.
const (
	maxNoteRunes  = 300
	maxQueryRunes = 1000
	maxNotes      = 20
	maxReasons    = 3 // reasons shown per file in the text formats
)

// oneLine makes s safe for a single line of a header: control characters
// (line breaks included) are written as escapes, invalid UTF-8 becomes
// U+FFFD, and the result is cut to limit runes (0: no limit) with "…".
func oneLine(s string, limit int) string {
	var b strings.Builder
	runes := 0
	for _, r := range s {
		if limit > 0 && runes >= limit {
			b.WriteString("…")
			break
		}
		runes++
		switch {
		case r == utf8.RuneError:
			b.WriteRune(utf8.RuneError)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			b.WriteString(strconv.QuoteRune(r)[1 : len(strconv.QuoteRune(r))-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// roundScore keeps four decimals and maps non-finite scores to 0.
func roundScore(s float64) float64 {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return 0
	}
	return math.Round(s*1e4) / 1e4
}

func fmtScore(s float64) string { return strconv.FormatFloat(roundScore(s), 'f', -1, 64) }

// rungLabel is the rung as the text formats write it.
func rungLabel(s *section) string {
	l := s.rung.String()
	if s.truncated {
		l += ", truncated " + s.mode.String()
	}
	return l
}

// fileTitle is the path with the shown line ranges: "a.go:1-8,40-72".
func fileTitle(s *section) string {
	t := oneLine(s.path, 0)
	if len(s.ranges) > 0 {
		t += ":" + formatRanges(s.ranges)
	}
	return t
}

func reasonsLine(reasons []string) string {
	var rs []string
	for _, r := range reasons {
		if len(rs) == maxReasons {
			rs = append(rs, fmt.Sprintf("+%d more", len(reasons)-maxReasons))
			break
		}
		rs = append(rs, oneLine(r, 200))
	}
	return strings.Join(rs, "; ")
}

// summaryLines are the summary block of the text formats: tokens against
// the budget with how they were counted, then the files by rung. Parts that
// are empty or zero are left out.
func summaryLines(d *docInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Tokens %d/%d", d.total, d.budget)
	if d.tokenizer != "" {
		b.WriteString(" (" + oneLine(d.tokenizer, 100) + ")")
	}
	if d.strategy != "" {
		b.WriteString(" · strategy " + oneLine(d.strategy, 100))
	}
	if d.commit != "" {
		b.WriteString(" · commit " + oneLine(d.commit, 100))
	}
	c := d.counts
	fmt.Fprintf(&b, "\nFiles %d/%d", c.Included, c.Files)
	var parts []string
	for _, r := range []Rung{RungFull, RungSpans, RungSkeleton, RungSummary} {
		if c.ByRung[r] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.ByRung[r], r))
		}
	}
	if c.Truncated > 0 {
		parts = append(parts, fmt.Sprintf("%d truncated", c.Truncated))
	}
	if c.Omitted > 0 {
		parts = append(parts, fmt.Sprintf("%d omitted", c.Omitted))
	}
	if len(parts) > 0 {
		b.WriteString(": " + strings.Join(parts, ", "))
	}
	if c.Extras > 0 {
		fmt.Fprintf(&b, " · extras %d/%d", c.ExtrasIncluded, c.Extras)
	}
	b.WriteString("\n")
	return b.String()
}

func notesOmittedLine(c Counts) string {
	if c.NotesOmitted == 0 {
		return ""
	}
	return fmt.Sprintf("(%d %s left out for the budget)\n", c.NotesOmitted, plural(c.NotesOmitted, "note", "notes"))
}

// fenceFor returns a backtick fence longer than any run of backticks in
// content (at least three), so no line of the content can close it.
func fenceFor(content string) string {
	longest, run := 0, 0
	for i := 0; i < len(content); i++ {
		if content[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
