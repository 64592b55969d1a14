package bundle

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// xmlFormat renders a bundle as one <context> element: a <summary>
// element, <note> elements, an <extra> per extra and a <file> per file
// with the content in CDATA. Attribute values are escaped; characters XML
// does not allow become U+FFFD; "]]>" inside content is split across two
// CDATA sections, so any content survives a round trip through a parser
// (up to XML's line-end normalisation of "\r").
type xmlFormat struct{}

func (xmlFormat) head(d *docInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<context version="%d"`, d.version)
	for _, a := range [][2]string{{"query", d.query}, {"strategy", d.strategy}, {"commit", d.commit}, {"tokenizer", d.tokenizer}} {
		if a[1] != "" {
			fmt.Fprintf(&b, ` %s="%s"`, a[0], xmlAttr(a[1]))
		}
	}
	fmt.Fprintf(&b, ` budget="%d" total_tokens="%d">`+"\n", d.budget, d.total)
	c := d.counts
	fmt.Fprintf(&b, `<summary files="%d"`, c.Files)
	for _, a := range []struct {
		name string
		n    int
	}{
		{"included", c.Included}, {"omitted", c.Omitted}, {"full", c.ByRung[RungFull]}, {"spans", c.ByRung[RungSpans]}, {"skeleton", c.ByRung[RungSkeleton]},
		{"summary", c.ByRung[RungSummary]}, {"truncated", c.Truncated}, {"extras", c.Extras},
		{"extras_included", c.ExtrasIncluded}, {"notes_omitted", c.NotesOmitted},
	} {
		if a.n != 0 {
			fmt.Fprintf(&b, ` %s="%d"`, a.name, a.n)
		}
	}
	b.WriteString("/>\n")
	for _, n := range d.notes {
		b.WriteString("<note>" + xmlText(n) + "</note>\n")
	}
	return b.String()
}

func (xmlFormat) mid(*docInfo) string  { return "" }
func (xmlFormat) tail(*docInfo) string { return "</context>\n" }
func (xmlFormat) last(p string) string { return p }

func (xmlFormat) extra(s *section) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<extra kind="%s" title="%s" mode="%s"`, xmlAttr(s.kind), xmlAttr(s.title), s.rung)
	if s.truncated {
		fmt.Fprintf(&b, ` truncated="%s"`, s.mode)
	}
	if s.rung == RungSummary {
		b.WriteString("/>\n")
		return b.String()
	}
	b.WriteString(">" + cdata(s.content) + "</extra>\n")
	return b.String()
}

func (xmlFormat) file(s *section) string {
	var b strings.Builder
	fileAttrs(&b, s)
	b.WriteString(">" + cdata(s.content) + "</file>\n")
	return b.String()
}

func (xmlFormat) listing(s *section) string {
	var b strings.Builder
	fileAttrs(&b, s)
	b.WriteString("/>\n")
	return b.String()
}

func (xmlFormat) listsAll() bool { return false }

func fileAttrs(b *strings.Builder, s *section) {
	fmt.Fprintf(b, `<file path="%s" score="%s" mode="%s"`, xmlAttr(s.path), fmtScore(s.score), s.rung)
	if s.truncated {
		fmt.Fprintf(b, ` truncated="%s"`, s.mode)
	}
	if s.explicit {
		b.WriteString(` explicit="true"`)
	}
	if s.lang != "" && s.rung > RungSummary {
		fmt.Fprintf(b, ` lang="%s"`, xmlAttr(s.lang))
	}
	if len(s.ranges) > 0 {
		fmt.Fprintf(b, ` lines="%s"`, formatRanges(s.ranges))
	}
	if len(s.reasons) > 0 {
		fmt.Fprintf(b, ` reasons="%s"`, xmlAttr(strings.Join(s.reasons, "; ")))
	}
}

// xmlValid maps a rune XML 1.0 does not allow to U+FFFD.
func xmlValid(r rune) rune {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return r
	case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF, r > 0x10FFFF:
		return utf8.RuneError
	}
	return r
}

// xmlAttr escapes s for a double-quoted attribute value; line breaks and
// tabs become character references so parsers keep them.
func xmlAttr(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r = xmlValid(r); r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\t', '\n', '\r':
			b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlText escapes s for element text.
func xmlText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r = xmlValid(r); r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\r':
			b.WriteString("&#13;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cdata wraps s in CDATA, splitting every "]]>" so the section cannot end
// early, and replacing characters XML does not allow.
func cdata(s string) string {
	clean := strings.Map(xmlValid, s)
	return "<![CDATA[" + strings.ReplaceAll(clean, "]]>", "]]]]><![CDATA[>") + "]]>"
}
