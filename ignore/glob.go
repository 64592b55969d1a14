package ignore

import (
	"fmt"
	"path"
	"strings"
)

// posixClasses are the bracket classes git's wildmatch knows, as ranges
// that path.Match understands.
var posixClasses = map[string]string{
	"alnum":  `a-zA-Z0-9`,
	"alpha":  `a-zA-Z`,
	"blank":  ` \t`,
	"cntrl":  "\x00-\x1f\x7f",
	"digit":  `0-9`,
	"graph":  `!-~`,
	"lower":  `a-z`,
	"print":  ` -~`,
	"punct":  `!-/:-@\[-` + "`" + `{-~`,
	"space":  " \t\n\v\f\r",
	"upper":  `A-Z`,
	"xdigit": `0-9a-fA-F`,
}

// toGoGlob rewrites one path segment of git's glob syntax into the syntax
// of path.Match, which differs in three places: a negated class is "[!…]"
// as well as "[^…]" in git, a "]" first in a class and a "-" last in it
// are literal in git, and git knows POSIX classes ("[[:digit:]]"). The
// result is checked with path.Match, so a bad pattern is reported here and
// never silently matches nothing later.
func toGoGlob(seg string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch c {
		case '\\':
			if i+1 >= len(seg) {
				return "", fmt.Errorf("a trailing backslash escapes nothing: %w", ErrBadPattern)
			}
			b.WriteByte('\\')
			b.WriteByte(seg[i+1])
			i++
		case '[':
			n, class, err := convertClass(seg[i:])
			if err != nil {
				return "", err
			}
			b.WriteString(class)
			i += n - 1
		default:
			b.WriteByte(c)
		}
	}
	g := b.String()
	if _, err := path.Match(g, ""); err != nil {
		return "", fmt.Errorf("%v: %w", err, ErrBadPattern)
	}
	return g, nil
}

// convertClass converts the bracket expression at the start of s and
// returns how many bytes of s it used.
func convertClass(s string) (int, string, error) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		b.WriteByte('^')
		i++
	}
	first := true
	items := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ']' && !first:
			if items == 0 {
				return 0, "", fmt.Errorf("empty bracket expression: %w", ErrBadPattern)
			}
			b.WriteByte(']')
			return i + 1, b.String(), nil
		case c == '[' && strings.HasPrefix(s[i:], "[:"):
			end := strings.Index(s[i+2:], ":]")
			if end < 0 {
				b.WriteString(`\[`)
				i++
			} else {
				name := s[i+2 : i+2+end]
				r, ok := posixClasses[name]
				if !ok {
					return 0, "", fmt.Errorf("unknown character class [:%s:]: %w", name, ErrBadPattern)
				}
				b.WriteString(escapeClassRange(r))
				i += 2 + end + 2
			}
		case c == '\\':
			if i+1 >= len(s) {
				return 0, "", fmt.Errorf("a trailing backslash escapes nothing: %w", ErrBadPattern)
			}
			b.WriteByte('\\')
			b.WriteByte(s[i+1])
			i += 2
		case c == '-' && (first || (i+1 < len(s) && s[i+1] == ']')):
			b.WriteString(`\-`) // a "-" first or last is literal
			i++
		case c == ']' || c == '^' || c == '[':
			b.WriteByte('\\')
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(c)
			i++
		}
		first = false
		items++
	}
	return 0, "", fmt.Errorf("unclosed \"[\": %w", ErrBadPattern)
}

// escapeClassRange escapes the characters of a range list that path.Match
// would read as syntax inside brackets, keeping the "-" of each range.
func escapeClassRange(r string) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '\\' && i+1 < len(r):
			b.WriteByte('\\')
			b.WriteByte(r[i+1])
			i++
		case c == ']' || c == '^':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
