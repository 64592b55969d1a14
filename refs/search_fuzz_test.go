package refs

import (
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/query"
)

// FuzzSearch: any @search text or @grep pattern over any file content
// either fails to compile with ErrBadPattern or ErrPatternTooLong, or
// gives matches that are real lines of the file, in order, printable as
// UTF-8, within the caps.
func FuzzSearch(f *testing.F) {
	for _, s := range [][3]string{
		{"grep", `(a+)+$`, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\n"},
		{"grep", `^func\s+(\w+)\(`, "package p\n\nfunc F() {}\r\nfunc G(x int) {}\n"},
		{"grep", `[`, "x"},
		{"grep", `(?i)ÉTÉ`, "été\n\xff\xfe été\n"},
		{"search", "a.b*c", "a.b*c and abbc\n"},
		{"search", "Token", "token\nToken\nTOKEN"},
		{"grep", `\x00`, "bin\x00ary\n"},
		{"grep", "", "\n\n\n"},
	} {
		f.Add(s[0] == "grep", s[1], []byte(s[2]))
	}
	opt := Options{MaxMatchesPerFile: 7}.withDefaults()
	f.Fuzz(func(t *testing.T, grep bool, pattern string, content []byte) {
		kind := query.RefSearch
		if grep {
			kind = query.RefGrep
		}
		ref := query.Ref{Kind: kind, Raw: "@x", Value: pattern}
		re, err := compilePattern(ref, opt)
		if err != nil {
			return
		}
		truncated := false
		ms := matchFile("f.go", content, re, opt, opt.MaxMatches, time.Now().Add(time.Minute), &truncated)
		if len(ms) > opt.MaxMatchesPerFile {
			t.Fatalf("%d matches, the cap is %d", len(ms), opt.MaxMatchesPerFile)
		}
		last := 0
		for _, m := range ms {
			if m.Line <= last || m.ContextStart < 1 || m.ContextStart > m.Line || m.ContextStart+len(m.Context) <= m.Line {
				t.Fatalf("bad match %+v after line %d", m, last)
			}
			last = m.Line
			if !utf8.ValidString(m.Text) || len(m.Text) > maxLineText+len("…") {
				t.Fatalf("match text %q", m.Text)
			}
			for _, c := range m.Context {
				if !utf8.ValidString(c) {
					t.Fatalf("context %q", c)
				}
			}
		}
	})
}
