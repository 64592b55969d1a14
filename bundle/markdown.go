package bundle

import (
	"strings"
)

// markdown renders a bundle as Markdown: a title with the query, the
// summary block, notes, then one "##" section per extra and file with its
// content in a fenced code block whose fence is longer than any backtick
// run inside.
type markdown struct{}

func (markdown) head(d *docInfo) string {
	var b strings.Builder
	if d.query != "" {
		b.WriteString("# Context: " + oneLine(d.query, 0) + "\n\n")
	} else {
		b.WriteString("# Context\n\n")
	}
	b.WriteString(summaryLines(d))
	if len(d.notes) > 0 {
		b.WriteString("Notes:\n")
		for _, n := range d.notes {
			b.WriteString("- " + oneLine(n, 0) + "\n")
		}
	}
	b.WriteString(notesOmittedLine(d.counts))
	b.WriteString("\n")
	return b.String()
}

func (markdown) mid(*docInfo) string  { return "" }
func (markdown) tail(*docInfo) string { return "" }
func (markdown) last(p string) string { return p }

func (markdown) extra(s *section) string {
	var b strings.Builder
	b.WriteString("## " + oneLine(s.title, 0) + " (" + oneLine(s.kind, 40))
	if s.rung == RungSummary {
		b.WriteString(", not shown)\n\n")
		return b.String()
	}
	if s.truncated {
		b.WriteString(", truncated " + s.mode.String())
	}
	b.WriteString(")\n\n")
	fencedBlock(&b, s.lang, s.content)
	return b.String()
}

func (markdown) file(s *section) string {
	var b strings.Builder
	b.WriteString("## " + fileTitle(s) + " (" + rungLabel(s) + ", score " + fmtScore(s.score))
	if s.explicit {
		b.WriteString(", explicit")
	}
	b.WriteString(")\n")
	if len(s.reasons) > 0 {
		b.WriteString("Why: " + reasonsLine(s.reasons) + "\n")
	}
	b.WriteString("\n")
	if s.rung == RungSummary {
		b.WriteString(s.content + "\n\n")
		return b.String()
	}
	fencedBlock(&b, s.lang, s.content)
	return b.String()
}

func (markdown) listing(*section) string { return "" }

func (markdown) listsAll() bool { return false }

// fencedBlock writes content in a fence that nothing inside can close.
func fencedBlock(b *strings.Builder, lang, content string) {
	fence := fenceFor(content)
	b.WriteString(fence + lang + "\n")
	b.WriteString(content)
	if content != "" && !strings.HasSuffix(content, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n\n")
}
