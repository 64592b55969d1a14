package refs

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"time"
	"unicode"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
)

// maxLineText cuts matched and context lines (minified code, data) for
// display; maxMatchLine bounds how much of one line a pattern is run on,
// so a pathological pattern costs at most a bounded time per line.
const (
	maxLineText  = 400
	maxMatchLine = 8 << 10
)

// compilePattern turns a search reference into a regular expression:
// @search text is quoted and smart-case, @grep is taken as written. Go's
// regexp is RE2: matching time is linear in the input whatever the
// pattern, so "(a+)+$" cannot blow up.
func compilePattern(ref query.Ref, opt Options) (*regexp.Regexp, error) {
	if len(ref.Value) > opt.MaxPatternLen {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrPatternTooLong, len(ref.Value), opt.MaxPatternLen)
	}
	expr := ref.Value
	if ref.Kind == query.RefSearch {
		expr = regexp.QuoteMeta(expr)
		if !hasUpper(ref.Value) {
			expr = "(?i)" + expr
		}
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadPattern, err)
	}
	return re, nil
}

func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// search runs a @search or @grep reference over the listed files, line by
// line, in path order, under the caps of opt.
func search(ctx context.Context, root string, files []string, ref query.Ref, opt Options, r *Resolved) {
	re, err := compilePattern(ref, opt)
	if err != nil {
		r.fail(err)
		return
	}
	var read int64
	deadline := time.Now().Add(opt.SearchTimeout)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			r.fail(err)
			return
		}
		if len(r.Matches) >= opt.MaxMatches {
			r.Truncated = true
			break
		}
		if read >= opt.MaxSearchBytes || time.Now().After(deadline) {
			r.Truncated = true
			break
		}
		data, err := analyze.ReadSource(root, f, opt.MaxFileSize)
		if err != nil {
			// Binary, oversized, vanished or outside the root: skip it,
			// a search is best effort over what can be read.
			r.Skipped++
			continue
		}
		read += int64(len(data))
		r.Searched++
		r.Matches = append(r.Matches, matchFile(f, data, re, opt, opt.MaxMatches-len(r.Matches), deadline, &r.Truncated)...)
	}
	if len(r.Matches) == 0 {
		err := fmt.Errorf("%s: %w in %d files", ref.Raw, ErrNoMatches, r.Searched)
		if r.Truncated {
			err = fmt.Errorf("%s: %w in the %d files searched before the search's time or size limit", ref.Raw, ErrNoMatches, r.Searched)
		}
		r.fail(err)
		return
	}
	r.Status = StatusOK
}

// matchFile returns the matching lines of one file, at most
// opt.MaxMatchesPerFile and at most left, with context. It stops at the
// deadline, saying so through truncated.
func matchFile(path string, data []byte, re *regexp.Regexp, opt Options, left int, deadline time.Time, truncated *bool) []Match {
	lines := bytes.Split(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	var out []Match
	for i, line := range lines {
		if i%256 == 255 && time.Now().After(deadline) {
			*truncated = true
			break
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		probe := line
		if len(probe) > maxMatchLine {
			probe = probe[:maxMatchLine]
		}
		if !re.Match(probe) {
			continue
		}
		if len(out) >= opt.MaxMatchesPerFile || len(out) >= left {
			*truncated = true
			break
		}
		lo, hi := max(0, i-opt.ContextLines), min(len(lines), i+opt.ContextLines+1)
		ctx := make([]string, 0, hi-lo)
		for _, l := range lines[lo:hi] {
			ctx = append(ctx, lineText(bytes.TrimSuffix(l, []byte("\r"))))
		}
		out = append(out, Match{Path: path, Line: i + 1, Text: lineText(line), ContextStart: lo + 1, Context: ctx})
	}
	return out
}

// lineText makes a line safe to print: valid UTF-8, cut when very long.
func lineText(b []byte) string {
	s := analyze.ToValidUTF8(string(b))
	if len(s) > maxLineText {
		cut := maxLineText
		for cut > 0 && (s[cut]&0xC0) == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
