package diffmode

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Options limit what Parse reads. The zero value means the defaults.
type Options struct {
	MaxBytes int64 // input read; default 32 MiB
	MaxLines int   // diff lines parsed; default 200,000
	MaxFiles int   // files kept; default 2,000
}

// Default limits.
const (
	DefaultMaxBytes = 32 << 20
	DefaultMaxLines = 200_000
	DefaultMaxFiles = 2_000
)

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxLines <= 0 {
		o.MaxLines = DefaultMaxLines
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	return o
}

// ErrMalformed is wrapped by every *ParseError.
var ErrMalformed = errors.New("malformed diff")

// ParseError is a problem with the diff at a line (1-based).
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Unwrap makes errors.Is(err, ErrMalformed) hold.
func (e *ParseError) Unwrap() error { return ErrMalformed }

// Parse reads a unified diff. On malformed input it returns the files
// parsed before the problem and a *ParseError; on input past a limit it
// returns the whole files read before the limit with Diff.Truncated set.
// Empty input, or input holding no diff at all, is an empty Diff.
func Parse(r io.Reader, opt Options) (*Diff, error) {
	opt = opt.withDefaults()
	data, err := io.ReadAll(io.LimitReader(r, opt.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the diff: %w", err)
	}
	return ParseBytes(data, opt)
}

// ParseBytes is Parse over bytes in memory.
func ParseBytes(data []byte, opt Options) (*Diff, error) {
	opt = opt.withDefaults()
	p := &diffParser{opt: opt, d: &Diff{}}
	if int64(len(data)) > opt.MaxBytes {
		data = data[:opt.MaxBytes]
		p.cutBytes = true
	}
	p.lines = splitLines(string(data), &p.d.CRLF)
	if p.cutBytes && len(p.lines) > 0 {
		p.lines = p.lines[:len(p.lines)-1] // the last line may be cut
	}
	if len(p.lines) > opt.MaxLines {
		p.lines = p.lines[:opt.MaxLines]
		p.cutLines = true
	}
	err := p.parse()
	if err != nil && p.cut() {
		var pe *ParseError
		if errors.As(err, &pe) && pe.Line > len(p.lines) {
			// The limit cut the last file short: drop it, keep the rest.
			err = nil
		}
	}
	if p.cut() && !p.d.Truncated {
		p.truncate()
	}
	return p.d, err
}

// splitLines splits text into lines without their endings, noting CR LF.
// Every carriage return before a line feed goes with the ending: a
// rendered diff writes plain line feeds, and a line read back from it must
// say the same as the line it came from.
func splitLines(s string, crlf *bool) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if strings.HasSuffix(l, "\r") {
			lines[i] = strings.TrimRight(l, "\r")
			*crlf = true
		}
	}
	return lines
}

type diffParser struct {
	opt      Options
	d        *Diff
	lines    []string
	i        int // index of the next line
	cutBytes bool
	cutLines bool
}

func (p *diffParser) cut() bool { return p.cutBytes || p.cutLines }

func (p *diffParser) truncate() {
	p.d.Truncated = true
	switch {
	case len(p.d.Files) >= p.opt.MaxFiles:
		p.d.Limit = fmt.Sprintf("the diff has more than %d files; only the first %d were read", p.opt.MaxFiles, p.opt.MaxFiles)
	case p.cutBytes:
		p.d.Limit = fmt.Sprintf("the diff is larger than %d bytes; only the %d whole files before that were read", p.opt.MaxBytes, len(p.d.Files))
	default:
		p.d.Limit = fmt.Sprintf("the diff is longer than %d lines; only the %d whole files before that were read", p.opt.MaxLines, len(p.d.Files))
	}
}

func (p *diffParser) errorf(line int, format string, args ...any) error {
	return &ParseError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (p *diffParser) peek(k int) (string, bool) {
	if p.i+k < len(p.lines) {
		return p.lines[p.i+k], true
	}
	return "", false
}

// lineNo is the 1-based number of the line at index i.
func lineNo(i int) int { return i + 1 }

// parse reads files until the input ends.
func (p *diffParser) parse() error {
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		var f *File
		var err error
		switch {
		case strings.HasPrefix(l, "diff --git "):
			f, err = p.gitFile()
		case strings.HasPrefix(l, "diff --cc ") || strings.HasPrefix(l, "diff --combined "):
			p.skipCombined()
			continue
		case strings.HasPrefix(l, "--- ") && p.nextIs("+++ "):
			f, err = p.plainFile()
		case strings.HasPrefix(l, "@@ "):
			return p.errorf(lineNo(p.i), "hunk header %q outside a file: a file header (diff --git or ---/+++ lines) must come first", clip(l))
		default:
			p.i++ // text around the diff: commit message, diffstat, signature
			continue
		}
		if err != nil {
			return err
		}
		if p.cut() && p.i >= len(p.lines) {
			return nil // the limit may have cut this file short: leave it out
		}
		if len(p.d.Files) == p.opt.MaxFiles {
			p.truncate()
			return nil
		}
		p.d.Files = append(p.d.Files, *f)
	}
	return nil
}

func (p *diffParser) nextIs(prefix string) bool {
	n, ok := p.peek(1)
	return ok && strings.HasPrefix(n, prefix)
}

// skipCombined skips a combined diff of a merge, which has no single base.
func (p *diffParser) skipCombined() {
	p.d.Combined++
	p.i++
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if strings.HasPrefix(l, "diff ") {
			return
		}
		p.i++
	}
}

// gitFile parses a file that starts with "diff --git".
func (p *diffParser) gitFile() (*File, error) {
	start := p.i
	f := &File{Line: lineNo(start)}
	a, b, err := splitGitHeader(strings.TrimPrefix(p.lines[p.i], "diff --git "))
	if err != nil {
		return nil, p.errorf(lineNo(start), "%v", err)
	}
	p.i++
	var renameFrom, renameTo, copyFrom, copyTo string
	var newFile, deletedFile bool
	var minus, plus string
	haveMinus := false
header:
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		var v string
		switch {
		case cut(l, "old mode ", &v):
			f.OldMode = strings.TrimSpace(v)
		case cut(l, "new mode ", &v):
			f.NewMode = strings.TrimSpace(v)
		case cut(l, "deleted file mode ", &v):
			f.OldMode, deletedFile = strings.TrimSpace(v), true
		case cut(l, "new file mode ", &v):
			f.NewMode, newFile = strings.TrimSpace(v), true
		case cut(l, "rename from ", &v), cut(l, "rename old ", &v):
			renameFrom = v
		case cut(l, "rename to ", &v), cut(l, "rename new ", &v):
			renameTo = v
		case cut(l, "copy from ", &v):
			copyFrom = v
		case cut(l, "copy to ", &v):
			copyTo = v
		case cut(l, "similarity index ", &v), cut(l, "dissimilarity index ", &v):
			n, err := strconv.Atoi(strings.TrimSuffix(v, "%"))
			if err != nil || n < 0 || n > 100 {
				return nil, p.errorf(lineNo(p.i), "bad similarity %q: want a percentage", v)
			}
			if strings.HasPrefix(l, "similarity") {
				f.Similarity = n
			}
		case cut(l, "index ", &v):
			if err := parseIndex(v, f); err != nil {
				return nil, p.errorf(lineNo(p.i), "%v", err)
			}
		case strings.HasPrefix(l, "--- ") && p.nextIs("+++ "):
			minus = strings.TrimPrefix(l, "--- ")
			plus = strings.TrimPrefix(p.lines[p.i+1], "+++ ")
			haveMinus = true
			p.i += 2
			break header
		case strings.HasPrefix(l, "Binary files ") && strings.HasSuffix(l, " differ"):
			f.Binary = true
		case l == "GIT binary patch":
			f.Binary = true
			p.i++
			p.skipBinaryPatch()
			continue
		default:
			break header
		}
		p.i++
	}

	// Names: rename and copy lines, then ---/+++ lines, then the header.
	f.OldPath, f.NewPath = a, b
	if haveMinus {
		m, err := headerName(minus)
		if err != nil {
			return nil, p.errorf(lineNo(p.i-2), "%v", err)
		}
		pl, err := headerName(plus)
		if err != nil {
			return nil, p.errorf(lineNo(p.i-1), "%v", err)
		}
		m, pl = stripPair(m, pl)
		if m == "" {
			newFile = true
		} else {
			f.OldPath = m
		}
		if pl == "" {
			deletedFile = true
		} else {
			f.NewPath = pl
		}
	}
	for _, ren := range []struct {
		from, to string
		st       Status
	}{{renameFrom, renameTo, Renamed}, {copyFrom, copyTo, Copied}} {
		if ren.from == "" && ren.to == "" {
			continue
		}
		from, err1 := unquoteName(ren.from)
		to, err2 := unquoteName(ren.to)
		if err := errors.Join(err1, err2); err != nil || from == "" || to == "" {
			return nil, p.errorf(lineNo(start), "%s needs both a from and a to line with names", ren.st)
		}
		f.OldPath, f.NewPath, f.Status = from, to, ren.st
	}
	if f.Status != Renamed && f.Status != Copied {
		f.Similarity = 0
	}
	switch {
	case newFile || f.OldPath == "":
		f.Status, f.OldPath = Added, ""
	case deletedFile || f.NewPath == "":
		f.Status, f.NewPath = Deleted, ""
	}
	if f.OldPath == "" && f.NewPath == "" {
		return nil, p.errorf(lineNo(start), "cannot tell the file's name: the diff --git line is ambiguous and no ---/+++ or rename lines name it")
	}
	if err := cleanPaths(f); err != nil {
		return nil, p.errorf(lineNo(start), "%v", err)
	}
	if f.OldMode == SubmoduleMode || f.NewMode == SubmoduleMode {
		f.Submodule = true
	}
	if err := p.hunks(f); err != nil {
		return nil, err
	}
	return f, nil
}

// plainFile parses a file of a plain unified diff (no "diff --git").
func (p *diffParser) plainFile() (*File, error) {
	f := &File{Line: lineNo(p.i)}
	m, err := headerName(strings.TrimPrefix(p.lines[p.i], "--- "))
	if err != nil {
		return nil, p.errorf(lineNo(p.i), "%v", err)
	}
	pl, err := headerName(strings.TrimPrefix(p.lines[p.i+1], "+++ "))
	if err != nil {
		return nil, p.errorf(lineNo(p.i+1), "%v", err)
	}
	m, pl = stripPair(m, pl)
	p.i += 2
	f.OldPath, f.NewPath = m, pl
	switch {
	case m == "" && pl == "":
		return nil, p.errorf(f.Line, "both sides of the file are /dev/null")
	case m == "":
		f.Status = Added
	case pl == "":
		f.Status = Deleted
	}
	if err := cleanPaths(f); err != nil {
		return nil, p.errorf(f.Line, "%v", err)
	}
	if err := p.hunks(f); err != nil {
		return nil, err
	}
	return f, nil
}

// cleanPaths cleans the names of f, refusing any that leaves the
// repository.
func cleanPaths(f *File) error {
	for _, q := range []*string{&f.OldPath, &f.NewPath} {
		if *q == "" {
			continue
		}
		c, ok := cleanPath(*q)
		if !ok {
			return fmt.Errorf("path %q is not relative to the repository; diff paths must not be absolute or climb out with ..", *q)
		}
		*q = c
	}
	return nil
}

// skipBinaryPatch skips the literal and delta blocks of a GIT binary patch.
func (p *diffParser) skipBinaryPatch() {
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l == "" || strings.HasPrefix(l, "literal ") || strings.HasPrefix(l, "delta ") || isBase85Line(l) {
			p.i++
			continue
		}
		return
	}
}

// isBase85Line reports whether l looks like a line of git's base-85
// binary data: a length letter, then characters of the base-85 alphabet
// (which has no space).
func isBase85Line(l string) bool {
	if len(l) < 6 {
		return false
	}
	c := l[0]
	if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
		return false
	}
	return !strings.ContainsAny(l, " \t")
}

// parseIndex reads "abc123..def456[ mode]".
func parseIndex(v string, f *File) error {
	blobs, mode, _ := strings.Cut(v, " ")
	mode = strings.TrimSpace(mode) // "index a..b  " states no mode
	o, n, ok := strings.Cut(blobs, "..")
	if !ok || !isHex(o) || !isHex(n) {
		return fmt.Errorf("bad index line %q: want index OLD..NEW [MODE]", clip("index "+v))
	}
	f.OldBlob, f.NewBlob = o, n
	if mode != "" {
		if f.OldMode == "" {
			f.OldMode = mode
		}
		if f.NewMode == "" {
			f.NewMode = mode
		}
	}
	return nil
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func cut(l, prefix string, v *string) bool {
	s, ok := strings.CutPrefix(l, prefix)
	if ok {
		*v = s
	}
	return ok
}

// clip shortens a line quoted in an error message.
func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
