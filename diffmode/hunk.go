package diffmode

import (
	"fmt"
	"strconv"
	"strings"
)

// hunks parses the hunks that follow a file header.
func (p *diffParser) hunks(f *File) error {
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if strings.HasPrefix(l, "@@@") {
			return p.errorf(lineNo(p.i), "combined (merge) hunk %q: diff against one parent instead (git diff A B)", clip(l))
		}
		if !strings.HasPrefix(l, "@@ ") {
			break
		}
		h, err := p.hunk()
		if err != nil {
			return err
		}
		f.Hunks = append(f.Hunks, h)
	}
	if f.Submodule || isSubprojectHunks(f.Hunks) {
		f.Submodule = true
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				c, ok := strings.CutPrefix(l.Text, "Subproject commit ")
				if !ok {
					continue
				}
				c, _, _ = strings.Cut(c, " ")
				switch l.Op {
				case OpDel:
					f.OldCommit = c
				case OpAdd:
					f.NewCommit = c
				}
			}
		}
	}
	return nil
}

// isSubprojectHunks reports whether every changed line is a "Subproject
// commit" line.
func isSubprojectHunks(hs []Hunk) bool {
	n := 0
	for _, h := range hs {
		for _, l := range h.Lines {
			if l.Op == OpContext {
				continue
			}
			if !strings.HasPrefix(l.Text, "Subproject commit ") {
				return false
			}
			n++
		}
	}
	return n > 0
}

// hunk parses one hunk: its header and exactly the lines it counts.
func (p *diffParser) hunk() (Hunk, error) {
	head := p.lines[p.i]
	h := Hunk{Line: lineNo(p.i)}
	if err := parseHunkHeader(head, &h); err != nil {
		return h, p.errorf(h.Line, "%v", err)
	}
	p.i++
	oldLeft, newLeft := h.OldLines, h.NewLines
	for oldLeft > 0 || newLeft > 0 {
		if p.i >= len(p.lines) {
			return h, p.errorf(lineNo(p.i), "the hunk at line %d ends early: %d old and %d new lines are missing (was the diff cut or edited by hand?)", h.Line, oldLeft, newLeft)
		}
		l := p.lines[p.i]
		op := OpContext
		if l != "" {
			op = Op(l[0])
		}
		switch op {
		case OpContext:
			if oldLeft == 0 || newLeft == 0 {
				return h, p.errorf(lineNo(p.i), "context line in the hunk at line %d, which counted no more lines on one side; check the @@ counts", h.Line)
			}
			oldLeft--
			newLeft--
		case OpDel:
			if oldLeft == 0 {
				return h, p.errorf(lineNo(p.i), "removed line past the old count of the hunk at line %d; check the @@ counts", h.Line)
			}
			oldLeft--
		case OpAdd:
			if newLeft == 0 {
				return h, p.errorf(lineNo(p.i), "added line past the new count of the hunk at line %d; check the @@ counts", h.Line)
			}
			newLeft--
		case '\\':
			if len(h.Lines) == 0 {
				return h, p.errorf(lineNo(p.i), "%q with no line before it", clip(l))
			}
			h.Lines[len(h.Lines)-1].NoNewline = true
			p.i++
			continue
		default:
			return h, p.errorf(lineNo(p.i), "unexpected line %q in the hunk at line %d: hunk lines start with ' ', '+', '-' or '\\'", clip(l), h.Line)
		}
		text := ""
		if l != "" {
			text = l[1:]
		}
		h.Lines = append(h.Lines, Line{Op: op, Text: text})
		p.i++
	}
	// A marker for the last line.
	if p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "\\") && len(h.Lines) > 0 {
		h.Lines[len(h.Lines)-1].NoNewline = true
		p.i++
	}
	return h, nil
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@[ section]".
func parseHunkHeader(l string, h *Hunk) error {
	rest := strings.TrimPrefix(l, "@@ ")
	ranges, section, ok := strings.Cut(rest, " @@")
	if !ok {
		return fmt.Errorf("hunk header %q has no closing @@", clip(l))
	}
	h.Section = strings.TrimSpace(section)
	oldR, newR, ok := strings.Cut(ranges, " ")
	if !ok || !strings.HasPrefix(oldR, "-") || !strings.HasPrefix(newR, "+") {
		return fmt.Errorf("hunk header %q: want @@ -start,count +start,count @@", clip(l))
	}
	var err error
	if h.OldStart, h.OldLines, err = parseRange(oldR[1:]); err != nil {
		return fmt.Errorf("hunk header %q: old range: %v", clip(l), err)
	}
	if h.NewStart, h.NewLines, err = parseRange(newR[1:]); err != nil {
		return fmt.Errorf("hunk header %q: new range: %v", clip(l), err)
	}
	return nil
}

// maxLineNumber bounds the numbers of a hunk header, far above any real
// file, so that arithmetic on them cannot overflow.
const maxLineNumber = 1 << 30

func parseRange(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	start, err = strconv.Atoi(a)
	if err != nil || start < 0 || start > maxLineNumber {
		return 0, 0, fmt.Errorf("bad start %q", a)
	}
	count = 1
	if hasCount {
		count, err = strconv.Atoi(b)
		if err != nil || count < 0 || count > maxLineNumber {
			return 0, 0, fmt.Errorf("bad count %q", b)
		}
	}
	if start == 0 && count != 0 {
		return 0, 0, fmt.Errorf("start 0 with %d lines", count)
	}
	return start, count, nil
}
