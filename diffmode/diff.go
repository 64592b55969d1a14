package diffmode

import (
	"fmt"
	"strings"
)

// Status is what happened to a file.
type Status uint8

const (
	Modified Status = iota
	Added
	Deleted
	Renamed
	Copied
)

var statusNames = [...]string{"modified", "added", "deleted", "renamed", "copied"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", s)
}

// SubmoduleMode is the git file mode of a submodule (a "gitlink").
const SubmoduleMode = "160000"

// File is the diff of one file.
type File struct {
	// OldPath and NewPath are repository-relative and slash-separated;
	// OldPath is "" for an added file and NewPath "" for a deleted one.
	OldPath, NewPath string
	Status           Status
	OldMode, NewMode string // "100644", "100755", "120000", "160000"; "" when not stated
	Similarity       int    // rename or copy similarity in percent; 0 when not stated
	OldBlob, NewBlob string // abbreviated blob names of the index line, "" when absent
	Binary           bool   // a binary file; its content is not in the diff
	Submodule        bool   // a submodule; OldCommit and NewCommit say where it moved
	OldCommit        string
	NewCommit        string
	Hunks            []Hunk
	Line             int // line of the diff where the file's header starts
}

// Path is the file's path on the new side, or the old one when it was
// deleted.
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// ModeChanged reports whether both modes are stated and differ.
func (f *File) ModeChanged() bool {
	return f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode
}

// Stat counts the added and removed lines.
func (f *File) Stat() (added, removed int) {
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch l.Op {
			case OpAdd:
				added++
			case OpDel:
				removed++
			}
		}
	}
	return added, removed
}

// Title is a one-line description: "internal/x.go", "a.go → b.go (renamed,
// 92% similar)", "img.png (binary)".
func (f *File) Title() string {
	var b strings.Builder
	switch f.Status {
	case Renamed, Copied:
		fmt.Fprintf(&b, "%s → %s (%s", f.OldPath, f.NewPath, f.Status)
		if f.Similarity > 0 {
			fmt.Fprintf(&b, ", %d%% similar", f.Similarity)
		}
		b.WriteString(")")
	case Added, Deleted:
		fmt.Fprintf(&b, "%s (%s)", f.Path(), f.Status)
	default:
		b.WriteString(f.Path())
	}
	switch {
	case f.Submodule:
		b.WriteString(" (submodule)")
	case f.Binary:
		b.WriteString(" (binary)")
	}
	if f.ModeChanged() {
		fmt.Fprintf(&b, " (mode %s → %s)", f.OldMode, f.NewMode)
	}
	return b.String()
}

// Op is the kind of a hunk line.
type Op byte

const (
	OpContext Op = ' '
	OpAdd     Op = '+'
	OpDel     Op = '-'
)

// Line is one line of a hunk.
type Line struct {
	Op   Op
	Text string // without the op character and the line ending
	// NoNewline is set when a "\ No newline at end of file" marker
	// follows: the line is the last of its side and has no line ending.
	NoNewline bool
}

// Hunk is one "@@ -a,b +c,d @@" block.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Section            string // the text after the closing "@@", trimmed
	Lines              []Line
	Line               int // line of the diff holding the hunk header
}

// Diff is a parsed unified diff.
type Diff struct {
	Files []File
	// Truncated is set when a limit of [Options] cut the diff; Limit says
	// which, in words.
	Truncated bool
	Limit     string
	// CRLF is set when lines ended in CR LF; they were normalised to LF.
	CRLF bool
	// Combined counts the combined (merge) diffs that were skipped.
	Combined int
}

// Run is a maximal sequence of changed lines of a hunk: the old line
// numbers it removes and the new line numbers it adds. At is the new-side
// line the run sits at: its first added line, or for a pure removal the
// line that follows it on the new side.
type Run struct {
	Old     []int
	New     []int
	NewText []string // the added lines, parallel to New
	At      int
}

// Runs returns the runs of changed lines of a hunk, in order.
func (h *Hunk) Runs() []Run {
	var out []Run
	oldN, newN := h.OldStart, h.NewStart
	if h.OldLines == 0 {
		oldN++ // "-10,0" inserts after line 10
	}
	if h.NewLines == 0 {
		newN++
	}
	var cur *Run
	for _, l := range h.Lines {
		switch l.Op {
		case OpContext:
			cur = nil
			oldN++
			newN++
		case OpDel:
			if cur == nil {
				out = append(out, Run{At: newN})
				cur = &out[len(out)-1]
			}
			cur.Old = append(cur.Old, oldN)
			oldN++
		case OpAdd:
			if cur == nil {
				out = append(out, Run{At: newN})
				cur = &out[len(out)-1]
			}
			cur.New = append(cur.New, newN)
			cur.NewText = append(cur.NewText, l.Text)
			newN++
		}
	}
	return out
}

// Relative rewrites the paths of a diff made at the top of a work tree
// for a root below it (prefix "sub/dir/"): paths under the prefix lose
// it and files outside it are dropped. A diff with no path under the
// prefix is taken to be relative already and left alone. It returns the
// number of files dropped.
func (d *Diff) Relative(prefix string) int {
	prefix = strings.TrimSuffix(prefix, "/") + "/"
	if prefix == "/" {
		return 0
	}
	under := func(p string) bool { return p == "" || strings.HasPrefix(p, prefix) }
	any := false
	for i := range d.Files {
		f := &d.Files[i]
		if (f.OldPath != "" && strings.HasPrefix(f.OldPath, prefix)) || (f.NewPath != "" && strings.HasPrefix(f.NewPath, prefix)) {
			any = true
			break
		}
	}
	if !any {
		return 0
	}
	kept := d.Files[:0]
	dropped := 0
	for _, f := range d.Files {
		if !under(f.OldPath) || !under(f.NewPath) {
			dropped++
			continue
		}
		f.OldPath = strings.TrimPrefix(f.OldPath, prefix)
		f.NewPath = strings.TrimPrefix(f.NewPath, prefix)
		kept = append(kept, f)
	}
	d.Files = kept
	return dropped
}

// ChangedLines are the added and removed lines of the diff's text files,
// in file and hunk order, at most max bytes of them in all (whole lines;
// max <= 0 means no limit). Their words say what the change is about:
// a test that spells them probably exercises it.
func (d *Diff) ChangedLines(max int) []string {
	var out []string
	size := 0
	for _, f := range d.Files {
		if f.Binary || f.Submodule {
			continue
		}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Op == OpContext || strings.TrimSpace(l.Text) == "" {
					continue
				}
				if max > 0 && size+len(l.Text) > max {
					return out
				}
				size += len(l.Text)
				out = append(out, l.Text)
			}
		}
	}
	return out
}
