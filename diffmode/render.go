package diffmode

import (
	"fmt"
	"path"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Unified renders f in git's unified format with at most ctxLines lines
// of context around each change (a negative value keeps the hunks as
// parsed). Line endings are LF; blob names are left out.
func (f *File) Unified(ctxLines int) string {
	var b strings.Builder
	oldName, newName := f.OldPath, f.NewPath
	if oldName == "" {
		oldName = newName
	}
	if newName == "" {
		newName = oldName
	}
	fmt.Fprintf(&b, "diff --git %s %s\n", gitHeaderName("a/"+oldName), gitHeaderName("b/"+newName))
	switch f.Status {
	case Added:
		fmt.Fprintf(&b, "new file mode %s\n", orDefault(f.NewMode))
	case Deleted:
		fmt.Fprintf(&b, "deleted file mode %s\n", orDefault(f.OldMode))
	default:
		if f.ModeChanged() {
			fmt.Fprintf(&b, "old mode %s\nnew mode %s\n", f.OldMode, f.NewMode)
		}
	}
	switch f.Status {
	case Renamed, Copied:
		if f.Similarity > 0 {
			fmt.Fprintf(&b, "similarity index %d%%\n", f.Similarity)
		}
		verb := "rename"
		if f.Status == Copied {
			verb = "copy"
		}
		fmt.Fprintf(&b, "%s from %s\n%s to %s\n", verb, quoteC(f.OldPath), verb, quoteC(f.NewPath))
	}
	if f.Binary {
		fmt.Fprintf(&b, "Binary files %s and %s differ\n", sideName("a/", f.OldPath), sideName("b/", f.NewPath))
		return b.String()
	}
	if len(f.Hunks) == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", headerSide("a/", f.OldPath), headerSide("b/", f.NewPath))
	for _, h := range f.Hunks {
		for _, t := range trimContext(h, ctxLines) {
			writeHunk(&b, t)
		}
	}
	return b.String()
}

// gitHeaderName quotes a name of the "diff --git" line when git would,
// and also when it holds a space, so that the line splits one way only.
func gitHeaderName(s string) string {
	if q := quoteC(s); q != s || !strings.Contains(s, " ") {
		return q
	}
	return `"` + s + `"`
}

func orDefault(mode string) string {
	if mode == "" {
		return "100644"
	}
	return mode
}

func sideName(prefix, p string) string {
	if p == "" {
		return devNull
	}
	return quoteC(prefix + p)
}

// headerSide is a ---/+++ name; git ends names holding a space with a tab
// so that a trailing timestamp cannot be mistaken for part of them.
func headerSide(prefix, p string) string {
	s := sideName(prefix, p)
	if strings.Contains(s, " ") && !strings.HasPrefix(s, `"`) {
		s += "\t"
	}
	return s
}

func writeHunk(b *strings.Builder, h Hunk) {
	fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
	if h.Section != "" {
		b.WriteString(" " + h.Section)
	}
	b.WriteByte('\n')
	for _, l := range h.Lines {
		b.WriteByte(byte(l.Op))
		b.WriteString(l.Text)
		b.WriteByte('\n')
		if l.NoNewline {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
}

// trimContext keeps at most k context lines around the changes of h,
// splitting it where a longer run of context lies between two changes.
func trimContext(h Hunk, k int) []Hunk {
	if k < 0 {
		return []Hunk{h}
	}
	n := len(h.Lines)
	keep := make([]bool, n)
	for i, l := range h.Lines {
		if l.Op == OpContext {
			continue
		}
		for j := max(0, i-k); j <= min(n-1, i+k); j++ {
			keep[j] = true
		}
	}
	var out []Hunk
	oldN, newN := h.OldStart, h.NewStart
	if h.OldLines == 0 {
		oldN++
	}
	if h.NewLines == 0 {
		newN++
	}
	var cur *Hunk
	for i, l := range h.Lines {
		if keep[i] {
			if cur == nil {
				out = append(out, Hunk{OldStart: oldN, NewStart: newN, Section: h.Section, Line: h.Line})
				cur = &out[len(out)-1]
			}
			cur.Lines = append(cur.Lines, l)
			if l.Op != OpAdd {
				cur.OldLines++
			}
			if l.Op != OpDel {
				cur.NewLines++
			}
		} else {
			cur = nil
		}
		if l.Op != OpAdd {
			oldN++
		}
		if l.Op != OpDel {
			newN++
		}
	}
	for i := range out {
		// A side with no lines is numbered by the line before it.
		if out[i].OldLines == 0 {
			out[i].OldStart--
		}
		if out[i].NewLines == 0 {
			out[i].NewStart--
		}
	}
	return out
}

// Section is one extra of a bundle: a file's diff, or what stands for it.
type Section struct {
	Title   string
	Content string
}

// lockFiles hold dependency pins whose diffs say little to a reviewer.
var lockFiles = map[string]bool{
	"go.sum": true, "Cargo.lock": true, "package-lock.json": true, "yarn.lock": true,
	"pnpm-lock.yaml": true, "Gemfile.lock": true, "poetry.lock": true, "composer.lock": true,
}

// brief says in one line what a file's change is, for a file whose diff
// is not shown.
func (f *File) brief(why string) string {
	add, del := f.Stat()
	var spans []string
	for _, h := range f.Hunks {
		if h.NewLines > 0 {
			spans = append(spans, fmt.Sprintf("%d-%d", h.NewStart, h.NewStart+h.NewLines-1))
		} else {
			spans = append(spans, fmt.Sprintf("after %d", h.NewStart))
		}
	}
	s := fmt.Sprintf("+%d -%d", add, del)
	if len(spans) > 0 {
		if len(spans) > 8 {
			spans = append(spans[:8], "…")
		}
		s += " at lines " + strings.Join(spans, ", ")
	}
	return s + " (" + why + ")\n"
}

// quiet reports why a file's diff is not worth showing in full, or "".
func (f *File) quiet() string {
	p := f.Path()
	switch {
	case f.Submodule:
		return ""
	case f.Binary:
		return ""
	case lockFiles[path.Base(p)]:
		return "dependency lock file; diff not shown"
	case analyze.Classify(p) == analyze.CatVendored:
		return "vendored code; diff not shown"
	case analyze.Classify(p) == analyze.CatGenerated:
		return "generated code; diff not shown"
	}
	return ""
}

// Sections renders the diff as one section per file, in diff order,
// fitted to maxTokens as counted by count: hunks with three lines of
// context, then with one, then the files that no longer fit by their
// line counts only. Lock files, vendored and generated files are always
// shown by line counts, binary files and submodules by a line saying what
// changed. The note says what was cut, or is "".
func Sections(d *Diff, maxTokens int, count func(string) int) ([]Section, string) {
	render := func(ctxLines int) ([]Section, int) {
		var out []Section
		total := 0
		for i := range d.Files {
			f := &d.Files[i]
			s := Section{Title: f.Title()}
			switch {
			case f.Submodule:
				s.Content = fmt.Sprintf("submodule %s moved from %s to %s\n", f.Path(), orNone(f.OldCommit), orNone(f.NewCommit))
			case f.Binary:
				s.Content = fmt.Sprintf("binary file %s %s; content not shown\n", f.Path(), f.Status)
			case f.quiet() != "":
				s.Content = f.brief(f.quiet())
			default:
				s.Content = f.Unified(ctxLines)
			}
			total += count(s.Content)
			out = append(out, s)
		}
		return out, total
	}
	secs, total := render(3)
	if maxTokens <= 0 || total <= maxTokens {
		return secs, ""
	}
	secs, total = render(1)
	if total <= maxTokens {
		return secs, fmt.Sprintf("the diff was shown with one line of context to fit its share of the budget (%d tokens)", maxTokens)
	}
	// Binary files, submodules and quiet files keep their one line; the
	// others are kept in order while they fit in what is left.
	used, cut := 0, 0
	normal := make([]bool, len(secs))
	for i := range secs {
		f := &d.Files[i]
		normal[i] = !f.Binary && !f.Submodule && f.quiet() == ""
		if !normal[i] {
			used += count(secs[i].Content)
		}
	}
	for i := range secs {
		if !normal[i] {
			continue
		}
		if n := count(secs[i].Content); used+n <= maxTokens {
			used += n
			continue
		}
		secs[i].Content = d.Files[i].brief("diff left out for the token budget")
		used += count(secs[i].Content)
		cut++
	}
	return secs, fmt.Sprintf("the diff is larger than its share of the budget (%d tokens): %d of %d files are shown by their line counts only; raise --budget to see them", maxTokens, cut, len(secs))
}

func orNone(c string) string {
	if c == "" {
		return "(none)"
	}
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
