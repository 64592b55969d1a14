package ignore

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// ErrBadPattern is wrapped by the error of a pattern that cannot match
// anything as written (an unclosed "[", a trailing backslash).
var ErrBadPattern = errors.New("bad pattern")

// Pattern is one compiled line of an ignore file (or one configured glob).
// The zero value matches nothing.
type Pattern struct {
	// Text is the line as it was written, trailing blanks removed.
	Text string
	// Source names where the line came from (".gitignore", "sub/.ctxexpandignore",
	// ".git/info/exclude", "config") and Line its 1-based line (0 for config).
	Source string
	Line   int

	base     []string // directory the pattern is relative to, split
	segs     []string // path.Match globs, or "**"
	negate   bool     // "!pattern": a match re-includes
	dirOnly  bool     // "pattern/": matches directories only
	anchored bool     // a slash at the start or in the middle
}

// Negated reports whether the pattern re-includes what it matches ("!x").
func (p *Pattern) Negated() bool { return p.negate }

// ParsePattern compiles one line of gitignore syntax, relative to the
// directory base (slash-separated, "" for the top). It reports ok=false for
// blank lines and comments, and an error wrapping ErrBadPattern for a line
// that could never match.
//
// The rules are git's (gitignore(5)): "#" starts a comment, "\" escapes
// ("\#", "\!", "\ "), trailing spaces are dropped unless escaped, "!"
// negates, a trailing "/" matches directories only, a slash at the start or
// in the middle anchors the pattern to base (otherwise it matches the name
// at any depth), "*", "?" and "[...]" (with "!" or "^" to negate and POSIX
// classes such as "[[:digit:]]") match within one path segment, and "**"
// as a whole segment matches any number of directories: "**/x" at any
// depth, "a/**/b" zero or more in between, "a/**" everything inside a but
// not a itself.
func ParsePattern(line, base string) (p Pattern, ok bool, err error) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return Pattern{}, false, nil
	}
	p.Text = line
	if base != "" && base != "." {
		p.base = strings.Split(strings.Trim(base, "/"), "/")
	}
	body := line
	if strings.HasPrefix(body, "!") {
		p.negate = true
		body = body[1:]
	}
	if strings.HasSuffix(body, "/") && !strings.HasSuffix(body, `\/`) {
		p.dirOnly = true
		body = strings.TrimSuffix(body, "/")
	}
	if strings.Contains(body, "/") {
		p.anchored = true
		body = strings.TrimPrefix(body, "/")
	}
	if body == "" {
		return Pattern{}, false, nil // "!", "/" or "!/": git ignores them
	}
	for _, seg := range strings.Split(body, "/") {
		if seg == "**" {
			if len(p.segs) > 0 && p.segs[len(p.segs)-1] == "**" {
				continue // "**/**" is "**"
			}
			p.segs = append(p.segs, seg)
			continue
		}
		g, err := toGoGlob(seg)
		if err != nil {
			return Pattern{}, false, fmt.Errorf("%q: %w", line, err)
		}
		p.segs = append(p.segs, g)
	}
	if !p.anchored && p.segs[0] == "**" {
		p.segs[0] = "*" // a lone "**" is a name pattern matching anything
	}
	return p, true, nil
}

// trimTrailingSpaces drops trailing spaces that are not escaped with a
// backslash (an escaped one keeps its backslash; toGoGlob unescapes it).
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		i := len(s) - 1
		bs := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 1 {
			break
		}
		s = s[:i]
	}
	return s
}

// Match reports whether the pattern matches the slash-separated path full
// (relative to the same top as the pattern's base). It does not apply the
// rule that a path inside an excluded directory is excluded; the Matcher
// does that by asking about each parent first.
func (p *Pattern) Match(full string, isDir bool) bool {
	return p.match(splitPath(full), isDir)
}

// match is Match on a path already split into segments.
func (p *Pattern) match(name []string, isDir bool) bool {
	if len(p.segs) == 0 || (p.dirOnly && !isDir) {
		return false
	}
	if len(name) <= len(p.base) {
		return false
	}
	for i, b := range p.base {
		if name[i] != b {
			return false
		}
	}
	name = name[len(p.base):]
	if !p.anchored {
		return globMatch(p.segs[0], name[len(name)-1])
	}
	return matchSegs(p.segs, name)
}

// MayMatchBelow reports whether some path strictly inside directory dir
// could match the pattern, so that a walk must not prune dir.
func (p *Pattern) MayMatchBelow(dir string) bool {
	if len(p.segs) == 0 {
		return false
	}
	name := splitPath(dir)
	// The base must be a prefix of dir, or dir a prefix of the base.
	n := min(len(name), len(p.base))
	for i := 0; i < n; i++ {
		if name[i] != p.base[i] {
			return false
		}
	}
	if len(name) <= len(p.base) {
		return true
	}
	if !p.anchored {
		return true // a name at any depth below
	}
	name = name[len(p.base):]
	// states: pattern positions that can have consumed exactly name.
	states := map[int]bool{0: true}
	closeOver(p.segs, states)
	for _, seg := range name {
		next := map[int]bool{}
		for i := range states {
			switch {
			case i >= len(p.segs):
			case p.segs[i] == "**":
				next[i] = true
			case globMatch(p.segs[i], seg):
				next[i+1] = true
			}
		}
		closeOver(p.segs, next)
		states = next
	}
	for i := range states {
		if i < len(p.segs) {
			return true
		}
	}
	return false
}

// closeOver adds the positions reachable by letting "**" match nothing.
func closeOver(segs []string, states map[int]bool) {
	for i := 0; i < len(segs); i++ {
		if states[i] && segs[i] == "**" && i+1 < len(segs) {
			states[i+1] = true
		}
	}
}

// matchSegs matches pattern segments against path segments: "**" matches
// zero or more segments, or one or more when it is the last.
func matchSegs(pat, name []string) bool {
	prev := make([]bool, len(name)+1)
	cur := make([]bool, len(name)+1)
	prev[0] = true
	for i, ps := range pat {
		clear(cur)
		if ps == "**" {
			first := 0
			if i == len(pat)-1 {
				first = 1
			}
			for j := 0; j <= len(name); j++ {
				if prev[j] {
					for k := j + first; k <= len(name); k++ {
						cur[k] = true
					}
					break // every later k is already set
				}
			}
		} else {
			for j := 0; j < len(name); j++ {
				if prev[j] && globMatch(ps, name[j]) {
					cur[j+1] = true
				}
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(name)]
}

func globMatch(glob, name string) bool {
	ok, err := path.Match(glob, name)
	return ok && err == nil
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" || p == "." {
		return nil
	}
	return strings.Split(p, "/")
}
