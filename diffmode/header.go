package diffmode

import (
	"fmt"
	"path"
	"strings"
)

// devNull is the name of the missing side of an added or deleted file.
const devNull = "/dev/null"

// prefixPairs are the source and destination prefixes git writes: the
// default a/ and b/, the mnemonic ones (commit, index, work tree, object)
// and those of diff --no-index.
var prefixPairs = [][2]string{{"a/", "b/"}, {"c/", "w/"}, {"i/", "w/"}, {"c/", "i/"}, {"o/", "w/"}, {"1/", "2/"}}

// stripPair removes the prefixes of a pair of names from a header. A
// side that is "" (/dev/null) matches any prefix. When no known pair
// fits but both names have a first directory and agree after it (diff -ru
// old new), that directory is removed; otherwise the names are kept, as
// git diff --no-prefix writes them.
func stripPair(old, new string) (string, string) {
	for _, pp := range prefixPairs {
		okOld := old == "" || strings.HasPrefix(old, pp[0])
		okNew := new == "" || strings.HasPrefix(new, pp[1])
		if okOld && okNew && (old != "" || new != "") {
			return strings.TrimPrefix(old, pp[0]), strings.TrimPrefix(new, pp[1])
		}
	}
	if old != "" && new != "" {
		_, o, ok1 := strings.Cut(old, "/")
		_, n, ok2 := strings.Cut(new, "/")
		if ok1 && ok2 && o == n && o != "" && old != new {
			return o, n
		}
	}
	return old, new
}

// headerName reads the name of a "---" or "+++" line: quoted or not, with
// a trailing tab and timestamp removed. /dev/null reads as "".
func headerName(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		name, _, err := unquoteC(s)
		if err != nil {
			return "", err
		}
		return nullName(name), nil
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i] // a timestamp, or git's end of a name with spaces
	} else {
		s = strings.TrimRight(s, " ")
	}
	if s == "" {
		return "", fmt.Errorf("file header with no name")
	}
	return nullName(s), nil
}

func nullName(s string) string {
	if s == devNull {
		return ""
	}
	return s
}

// splitGitHeader splits the names of a "diff --git A B" line. Unquoted
// names with spaces are ambiguous; the split chosen is the one whose two
// names agree after their prefixes (git writes a rename's names on lines
// of their own). It returns "", "" when it cannot tell.
func splitGitHeader(rest string) (string, string, error) {
	if strings.HasPrefix(rest, `"`) {
		a, n, err := unquoteC(rest)
		if err != nil {
			return "", "", fmt.Errorf("diff --git line: %v", err)
		}
		tail := strings.TrimPrefix(rest[n:], " ")
		b := tail
		if strings.HasPrefix(tail, `"`) {
			if b, _, err = unquoteC(tail); err != nil {
				return "", "", fmt.Errorf("diff --git line: %v", err)
			}
		}
		a, b = stripPair(a, b)
		return a, b, nil
	}
	if i := strings.Index(rest, ` "`); i >= 0 {
		b, _, err := unquoteC(rest[i+1:])
		if err != nil {
			return "", "", fmt.Errorf("diff --git line: %v", err)
		}
		a, b := stripPair(rest[:i], b)
		return a, b, nil
	}
	var spaces []int
	for i := 0; i < len(rest); i++ {
		if rest[i] == ' ' {
			spaces = append(spaces, i)
		}
	}
	for _, i := range spaces {
		a, b := stripPair(rest[:i], rest[i+1:])
		if a == b && a != "" {
			return a, b, nil
		}
	}
	if len(spaces) == 1 {
		a, b := stripPair(rest[:spaces[0]], rest[spaces[0]+1:])
		return a, b, nil
	}
	return "", "", nil
}

// unquoteName reads a name of a rename or copy line, quoted or not.
func unquoteName(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		name, _, err := unquoteC(s)
		return name, err
	}
	return s, nil
}

// unquoteC reads a C-style quoted string at the start of s, as git writes
// names with special characters, and returns it with the number of bytes
// it took.
func unquoteC(s string) (string, int, error) {
	if !strings.HasPrefix(s, `"`) {
		return "", 0, fmt.Errorf("%q is not quoted", clip(s))
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			i++
			if i >= len(s) {
				return "", 0, fmt.Errorf("unterminated escape in %q", clip(s))
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '"', '\\':
				b.WriteByte(e)
			case '0', '1', '2', '3':
				if i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
					return "", 0, fmt.Errorf("bad octal escape in %q", clip(s))
				}
				b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			default:
				return "", 0, fmt.Errorf("unknown escape \\%c in %q", e, clip(s))
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated quote in %q", clip(s))
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }

// quoteC quotes a name the way git does when it holds a quote, a
// backslash or a control character; other names are returned as they are.
func quoteC(s string) string {
	needs := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c == 0x7f {
			needs = true
			break
		}
	}
	if !needs {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// cleanPath cleans a repository-relative name and reports whether it stays
// inside the repository.
func cleanPath(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
		return p, false
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return p, false
	}
	return c, true
}
