package bundle

import (
	"strings"
)

// plain renders a bundle as plain text: the summary block, then each extra
// and file under a "==> title <==" header line. Content is written as is;
// plain text has no escaping, so a content line could look like a header.
type plain struct{}

func (plain) head(d *docInfo) string {
	var b strings.Builder
	if d.query != "" {
		b.WriteString("Context: " + oneLine(d.query, 0) + "\n")
	}
	b.WriteString(summaryLines(d))
	for _, n := range d.notes {
		b.WriteString("Note: " + oneLine(n, 0) + "\n")
	}
	b.WriteString(notesOmittedLine(d.counts))
	b.WriteString("\n")
	return b.String()
}

func (plain) mid(*docInfo) string  { return "" }
func (plain) tail(*docInfo) string { return "" }
func (plain) last(p string) string { return p }

func (plain) extra(s *section) string {
	var b strings.Builder
	b.WriteString("==> " + oneLine(s.title, 0) + " (" + oneLine(s.kind, 40))
	if s.rung == RungSummary {
		b.WriteString(", not shown) <==\n\n")
		return b.String()
	}
	if s.truncated {
		b.WriteString(", truncated " + s.mode.String())
	}
	b.WriteString(") <==\n")
	b.WriteString(s.content)
	b.WriteString("\n")
	return b.String()
}

func (plain) file(s *section) string {
	var b strings.Builder
	b.WriteString("==> " + fileTitle(s) + " (" + rungLabel(s) + ", score " + fmtScore(s.score))
	if s.explicit {
		b.WriteString(", explicit")
	}
	b.WriteString(") <==\n")
	if len(s.reasons) > 0 {
		b.WriteString("Why: " + reasonsLine(s.reasons) + "\n")
	}
	b.WriteString(s.content)
	if s.rung == RungSummary {
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}

func (plain) listing(*section) string { return "" }

func (plain) listsAll() bool { return false }
