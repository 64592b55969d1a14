package mcpserver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// FileDiff is the change of one file in a unified diff (git's dialect).
type FileDiff struct {
	OldPath string // "" for a new file
	NewPath string // "" for a deleted file
	Binary  bool
	Hunks   []Hunk
	// Text is this file's part of the diff, headers included.
	Text string
}

// Path is the file's path after the change, or before it when deleted.
func (f *FileDiff) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Status is "added", "deleted", "renamed" or "modified".
func (f *FileDiff) Status() string {
	switch {
	case f.OldPath == "" && f.NewPath != "":
		return "added"
	case f.NewPath == "" && f.OldPath != "":
		return "deleted"
	case f.OldPath != f.NewPath:
		return "renamed"
	}
	return "modified"
}

// Hunk is one "@@ -a,b +c,d @@" section.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Section            string // the text after the second "@@" (git's function context)
	// Changed are the new-side line ranges of the hunk's runs of removed
	// and added lines. A run that only removes lines is the new-side line
	// before and after the removal, so that it falls in the enclosing
	// declaration.
	Changed []LineRange
}

// LineRange is lines Start to End, 1-based and inclusive.
type LineRange struct{ Start, End int }

// DiffProblem is a line of a diff that could not be read.
type DiffProblem struct {
	Line int // 1-based line of the diff text
	Msg  string
}

func (p DiffProblem) Error() string { return fmt.Sprintf("diff line %d: %s", p.Line, p.Msg) }

// ParseUnified reads a unified diff as git prints it: "diff --git" file
// headers with their extended lines (new file, deleted file, rename,
// Binary files … differ), "---"/"+++" path lines and "@@" hunks. Text
// before the first file header is ignored. It never fails: what cannot be
// read is skipped and reported as problems in line order, and the files
// and hunks read so far are returned.
func ParseUnified(text string) ([]FileDiff, []DiffProblem) {
	p := diffParser{lines: strings.SplitAfter(text, "\n")}
	p.run()
	sort.SliceStable(p.probs, func(i, j int) bool { return p.probs[i].Line < p.probs[j].Line })
	return p.files, p.probs
}

type diffParser struct {
	lines []string
	i     int
	files []FileDiff
	probs []DiffProblem
}

func (p *diffParser) problem(format string, args ...any) {
	p.probs = append(p.probs, DiffProblem{Line: p.i + 1, Msg: fmt.Sprintf(format, args...)})
}

func (p *diffParser) run() {
	for p.i < len(p.lines) {
		line := trimEOL(p.lines[p.i])
		switch {
		case strings.HasPrefix(line, "diff --git "):
			p.file(line)
		case strings.HasPrefix(line, "--- ") && p.i+1 < len(p.lines) && strings.HasPrefix(p.lines[p.i+1], "+++ "):
			// A plain unified diff without git's header.
			p.file("")
		default:
			p.i++
		}
	}
}

// file reads one file's headers and hunks, starting at its first line.
func (p *diffParser) file(gitHeader string) {
	start := p.i
	var f FileDiff
	if gitHeader != "" {
		f.OldPath, f.NewPath = splitGitHeader(strings.TrimPrefix(gitHeader, "diff --git "))
		p.i++
	}
	var oldSeen, newSeen bool
headers:
	for p.i < len(p.lines) {
		line := trimEOL(p.lines[p.i])
		switch {
		case strings.HasPrefix(line, "@@"):
			break headers
		case strings.HasPrefix(line, "diff --git "):
			break headers
		case strings.HasPrefix(line, "--- "):
			f.OldPath, oldSeen = diffPath(line[4:], "a/"), true
		case strings.HasPrefix(line, "+++ "):
			f.NewPath, newSeen = diffPath(line[4:], "b/"), true
		case strings.HasPrefix(line, "new file mode"):
			f.OldPath = ""
		case strings.HasPrefix(line, "deleted file mode"):
			f.NewPath = ""
		case strings.HasPrefix(line, "rename from "):
			f.OldPath = unquote(line[len("rename from "):])
		case strings.HasPrefix(line, "rename to "):
			f.NewPath = unquote(line[len("rename to "):])
		case strings.HasPrefix(line, "Binary files "), line == "GIT binary patch":
			f.Binary = true
		case gitHeader == "" && oldSeen && newSeen:
			break headers
		}
		p.i++
	}
	for p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "@@") {
		if h, ok := p.hunk(); ok {
			f.Hunks = append(f.Hunks, h)
		}
	}
	f.Text = strings.Join(p.lines[start:p.i], "")
	if f.OldPath == "" && f.NewPath == "" {
		p.i = max(p.i, start+1)
		p.probs = append(p.probs, DiffProblem{Line: start + 1, Msg: "file header names no path"})
		return
	}
	p.files = append(p.files, f)
}

// hunk reads one hunk, starting at its "@@" line.
func (p *diffParser) hunk() (Hunk, bool) {
	var h Hunk
	header := trimEOL(p.lines[p.i])
	if !parseHunkHeader(header, &h) {
		p.problem("malformed hunk header %q", clip(header, 80))
		p.i++
		p.skipHunkBody()
		return h, false
	}
	p.i++
	oldLeft, newLeft := h.OldLines, h.NewLines
	oldLine, newLine := h.OldStart, h.NewStart
	run := LineRange{}
	inRun, added := false, false
	flush := func() {
		if !inRun {
			return
		}
		if !added {
			// Only removals: the lines around the gap on the new side.
			run = LineRange{Start: max(newLine-1, 1), End: max(newLine, 1)}
		}
		h.Changed = append(h.Changed, run)
		inRun, added = false, false
	}
	for p.i < len(p.lines) && (oldLeft > 0 || newLeft > 0) {
		line := p.lines[p.i]
		kind := byte(' ')
		if len(line) > 0 && line[0] != '\n' && line[0] != '\r' {
			kind = line[0]
		}
		switch kind {
		case ' ':
			flush()
			oldLeft--
			newLeft--
			oldLine++
			newLine++
		case '-':
			inRun = true
			oldLeft--
			oldLine++
		case '+':
			inRun = true
			if !added {
				run = LineRange{Start: newLine}
				added = true
			}
			run.End = newLine
			newLeft--
			newLine++
		case '\\': // "\ No newline at end of file"
		default:
			flush()
			p.problem("hunk ends early: %d old and %d new lines missing", max(oldLeft, 0), max(newLeft, 0))
			return h, true
		}
		p.i++
	}
	flush()
	for p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "\\") {
		p.i++
	}
	if oldLeft < 0 || newLeft < 0 {
		p.problem("hunk has more lines than its header counts")
	}
	return h, true
}

// skipHunkBody skips the lines of a hunk whose header could not be read.
func (p *diffParser) skipHunkBody() {
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if len(l) == 0 || (l[0] != ' ' && l[0] != '-' && l[0] != '+' && l[0] != '\\') || strings.HasPrefix(l, "--- ") {
			return
		}
		p.i++
	}
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@ section".
func parseHunkHeader(s string, h *Hunk) bool {
	rest, ok := strings.CutPrefix(s, "@@ -")
	if !ok {
		return false
	}
	oldSpec, rest, ok := strings.Cut(rest, " +")
	if !ok {
		return false
	}
	newSpec, rest, ok := strings.Cut(rest, " @@")
	if !ok {
		return false
	}
	var ok1, ok2 bool
	h.OldStart, h.OldLines, ok1 = parseRange(oldSpec)
	h.NewStart, h.NewLines, ok2 = parseRange(newSpec)
	h.Section = strings.TrimSpace(rest)
	return ok1 && ok2
}

// parseRange reads "start[,count]"; a missing count is 1.
func parseRange(s string) (start, count int, ok bool) {
	a, b, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 || start > 1<<30 {
		return 0, 0, false
	}
	count = 1
	if has {
		count, err = strconv.Atoi(b)
		if err != nil || count < 0 || count > 1<<30 {
			return 0, 0, false
		}
	}
	return start, count, true
}

// splitGitHeader splits the two paths of "diff --git a/x b/x". Quoted
// paths are unquoted; unquoted paths with spaces are split where the two
// halves agree.
func splitGitHeader(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		if end := closingQuote(s); end > 0 {
			a := unquote(s[:end+1])
			b := unquote(strings.TrimSpace(s[end+1:]))
			return strings.TrimPrefix(a, "a/"), strings.TrimPrefix(b, "b/")
		}
	}
	if i := strings.Index(s, ` "`); i >= 0 {
		return strings.TrimPrefix(s[:i], "a/"), strings.TrimPrefix(unquote(s[i+1:]), "b/")
	}
	// "a/x y b/x y": the split whose halves name the same path.
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			continue
		}
		a, b := s[:i], s[i+1:]
		if strings.TrimPrefix(a, "a/") == strings.TrimPrefix(b, "b/") {
			return strings.TrimPrefix(a, "a/"), strings.TrimPrefix(b, "b/")
		}
	}
	if a, b, ok := strings.Cut(s, " b/"); ok {
		return strings.TrimPrefix(a, "a/"), b
	}
	return "", ""
}

// diffPath reads the path of a "---" or "+++" line: "" for /dev/null,
// the prefix dropped, a trailing tab-separated timestamp dropped.
func diffPath(s, prefix string) string {
	s = strings.TrimRight(s, " ")
	if !strings.HasPrefix(s, `"`) {
		if i := strings.IndexByte(s, '\t'); i >= 0 {
			s = s[:i]
		}
	}
	s = unquote(s)
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(s, prefix)
}

// unquote undoes git's C-style quoting of unusual paths ("a/t\303\251st").
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s[1 : len(s)-1]
}

// closingQuote is the index of the quote that ends the quoted string at
// the start of s, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func trimEOL(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}
