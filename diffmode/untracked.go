package diffmode

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// UntrackedFiles lists the files below Dir that git does not track yet
// (ignored files excluded), at most max, each as an added file whose every
// line is new — what git diff shows once the file is added. Binary
// files are marked binary; files that cannot be read (too large, not
// regular) are left out with a note.
func (g *Git) UntrackedFiles(ctx context.Context, max int) (files []File, more bool, notes []string, err error) {
	paths, err := g.Untracked(ctx)
	if err != nil {
		return nil, false, nil, err
	}
	if len(paths) > max {
		paths, more = paths[:max], true
	}
	for _, p := range paths {
		f := File{NewPath: p, Status: Added, NewMode: "100644"}
		data, err := analyze.ReadSource(g.Dir, p, 0)
		switch {
		case errors.Is(err, analyze.ErrBinary):
			f.Binary = true
		case err != nil:
			notes = append(notes, fmt.Sprintf("untracked file %s was left out: %v", p, err))
			continue
		default:
			f.Hunks = AddedHunks(string(data))
		}
		files = append(files, f)
	}
	return files, more, notes, nil
}

// AddedHunks is the one hunk that adds text to an empty file, or none
// for empty text.
func AddedHunks(text string) []Hunk {
	if text == "" {
		return nil
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	noNewline := !strings.HasSuffix(text, "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	h := Hunk{NewStart: 1, NewLines: len(lines)}
	for _, l := range lines {
		h.Lines = append(h.Lines, Line{Op: OpAdd, Text: l})
	}
	h.Lines[len(h.Lines)-1].NoNewline = noNewline
	return []Hunk{h}
}
