package query

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// RefError is a malformed @reference: where it starts in the query (a byte
// offset), what was written and what is wrong with it.
type RefError struct {
	Offset int
	Raw    string
	Msg    string
}

func (e *RefError) Error() string {
	return fmt.Sprintf("reference %q at offset %d: %s", e.Raw, e.Offset, e.Msg)
}

// MaxRefValue caps the length of one reference's value (a path, search
// text, pattern or URL), in bytes.
const MaxRefValue = 4096

// maxLine caps line numbers in #L anchors.
const maxLine = 1 << 30

// fileExts are the extensions that make "@name.ext" a file rather than a
// symbol ("@user.go", "@Cargo.toml"; but "@pkg.Func" is a symbol).
var fileExts = map[string]bool{
	".go": true, ".rs": true, ".mod": true, ".sum": true, ".toml": true, ".lock": true,
	".md": true, ".txt": true, ".yaml": true, ".yml": true, ".json": true, ".proto": true,
	".sql": true, ".sh": true, ".c": true, ".h": true, ".cc": true, ".cpp": true,
	".py": true, ".js": true, ".ts": true, ".tsx": true, ".jsx": true, ".html": true,
	".css": true, ".xml": true, ".ini": true, ".cfg": true, ".conf": true, ".env": true,
	".s": true, ".tmpl": true, ".tpl": true, ".graphql": true, ".csv": true,
	".dockerfile": true, ".mk": true, ".bazel": true, ".bzl": true, ".wit": true,
}

// ParseRefs finds the explicit @references in a query and returns them in
// order of appearance, the query with them removed, and one [*RefError] per
// malformed reference (sorted by offset). The forms are:
//
//	@path/to/file.go            a file (a "/" or a known extension makes it one)
//	@path/to/file.go#L10-20     a line range; also #L10, #10-20, #L10-L20
//	@search:"literal text"      a literal search; single quotes work too
//	@grep:"regex"               a regular expression search (RE2 syntax)
//	@url:https://example.com/x  a web page (http and https only)
//	@Symbol @pkg.Symbol @crate::path::Item   a symbol
//
// An "@" counts only at the start of the text or after a space or an
// opening bracket or quote, so e-mail addresses are not references. Inside
// quotes, a backslash escapes the quote character and itself; any other
// backslash is kept, so "\d" reaches the regular expression intact.
// Pasted code, logs and terminal output (fenced or indented blocks, log
// lines) hold no references: "@dataclass" there is a decorator.
func ParseRefs(text string) (refs []Ref, clean string, errs []error) {
	var out strings.Builder
	last := 0 // text[last:i] has not been copied to out yet
	var code []block
	if strings.IndexByte(text, '@') >= 0 {
		for _, b := range segment(text) {
			if b.kind != blockProse && b.kind != blockHeading {
				code = append(code, b)
			}
		}
	}
	for i := 0; i < len(text); i++ {
		if len(code) > 0 && i >= code[0].start {
			if i < code[0].end {
				i = code[0].end - 1
				continue
			}
			code = code[1:]
			i--
			continue
		}
		if text[i] != '@' || !refBoundary(text, i) {
			continue
		}
		ref, end, err := parseRefAt(text, i)
		if end <= i { // not a reference at all ("@ ", "@@")
			continue
		}
		// A reference ends on a character boundary, so that neither it nor
		// the text left behind holds half of a multi-byte character.
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
		if err != nil {
			errs = append(errs, &RefError{Offset: i, Raw: text[i:end], Msg: err.Error()})
		} else {
			ref.Raw = text[i:end]
			refs = append(refs, ref)
		}
		out.WriteString(text[last:i])
		last = end
		if endsBlank(&out) {
			// Do not leave a double blank where the reference was.
			last = skipBlanks(text, end)
		}
		i = last - 1
	}
	out.WriteString(text[last:])
	return refs, strings.TrimSpace(out.String()), errs
}

// refBoundary reports whether the "@" at text[i] may start a reference.
func refBoundary(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	if unicode.IsSpace(r) {
		return true
	}
	switch r {
	case '(', '[', '{', '"', '\'', '`', ',', ';', '<':
		return true
	}
	return false
}

// parseRefAt parses the reference whose "@" is at text[at]. It returns the
// end of what it consumed; end <= at means "not a reference".
func parseRefAt(text string, at int) (Ref, int, error) {
	rest := text[at+1:]
	for _, p := range []struct {
		prefix string
		kind   RefKind
	}{{"search:", RefSearch}, {"grep:", RefGrep}, {"url:", RefURL}, {"file:", RefFile}} {
		if hasPrefixFold(rest, p.prefix) {
			start := at + 1 + len(p.prefix)
			return parseKeyed(text, start, p.kind, p.prefix)
		}
	}
	if hasPrefixFold(rest, "http://") || hasPrefixFold(rest, "https://") {
		return parseKeyed(text, at+1, RefURL, "")
	}
	end := at + 1
	for end < len(text) && refTokenByte(text[end]) {
		end++
	}
	// Trailing punctuation belongs to the sentence, not the reference.
	for end > at+1 && strings.ContainsRune(".,:;!?", rune(text[end-1])) {
		end--
	}
	tok := text[at+1 : end]
	if tok == "" {
		return Ref{}, at, nil
	}
	if len(tok) > MaxRefValue {
		return Ref{}, end, fmt.Errorf("longer than %d bytes", MaxRefValue)
	}
	if isFileToken(tok) {
		ref, err := parseFileRef(tok)
		return ref, end, err
	}
	if isSymbolPath(tok) {
		return Ref{Kind: RefSymbol, Value: tok}, end, nil
	}
	return Ref{}, end, fmt.Errorf("not a file path (add a / or an extension), a symbol, or @search:/@grep:/@url:")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// refTokenByte is true for the bytes of an unquoted reference: letters,
// digits and the punctuation of paths, anchors and symbol paths. Bytes of
// multi-byte UTF-8 runes are allowed (non-ASCII file names).
func refTokenByte(c byte) bool {
	if c >= utf8.RuneSelf {
		return true
	}
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("_./-:#~+*", c) >= 0
}

// parseKeyed parses the value of @search:, @grep:, @url: and @file:, quoted
// or not, starting at text[start].
func parseKeyed(text string, start int, kind RefKind, prefix string) (Ref, int, error) {
	var val string
	end := start
	if start < len(text) && (text[start] == '"' || text[start] == '\'') {
		v, e, ok := unquote(text, start)
		if !ok {
			return Ref{}, len(text), fmt.Errorf("unterminated %c quote", text[start])
		}
		val, end = v, e
	} else {
		for end < len(text) && !unicode.IsSpace(rune(text[end])) {
			end++
		}
		val = text[start:end]
		if kind == RefURL {
			// A sentence's full stop or closing bracket is not part of the
			// URL, but the parenthesis of "wiki/Go_(language)" is.
			opens, closes := strings.Count(val, "("), strings.Count(val, ")")
			for len(val) > 0 && strings.ContainsRune(".,;:!?)]}>'\"", rune(val[len(val)-1])) {
				if val[len(val)-1] == ')' {
					if opens >= closes {
						break
					}
					closes--
				}
				val = val[:len(val)-1]
				end--
			}
		}
	}
	if val == "" {
		return Ref{}, end, fmt.Errorf("empty @%svalue", prefix)
	}
	if len(val) > MaxRefValue {
		return Ref{}, end, fmt.Errorf("longer than %d bytes", MaxRefValue)
	}
	switch kind {
	case RefURL:
		if !hasPrefixFold(val, "http://") && !hasPrefixFold(val, "https://") {
			return Ref{}, end, fmt.Errorf("only http:// and https:// URLs can be fetched")
		}
		if len(val) <= len("https://") || strings.ContainsAny(val, " \t\r\n") {
			return Ref{}, end, fmt.Errorf("malformed URL")
		}
	case RefFile:
		ref, err := parseFileRef(val)
		return ref, end, err
	case RefSearch, RefGrep:
		if strings.ContainsAny(val, "\r\n") {
			return Ref{}, end, fmt.Errorf("search text must be on one line")
		}
	}
	return Ref{Kind: kind, Value: val}, end, nil
}

// unquote reads the quoted string starting at text[start] (a ' or ").
// It returns the value, the end offset just past the closing quote and
// whether the quote was closed.
func unquote(text string, start int) (string, int, bool) {
	q := text[start]
	var b strings.Builder
	for i := start + 1; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text) && (text[i+1] == q || text[i+1] == '\\'):
			b.WriteByte(text[i+1])
			i++
		case c == q:
			return b.String(), i + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", len(text), false
}

// isFileToken says whether an unquoted reference names a file: it has a
// slash, a known extension, or a #L anchor.
func isFileToken(tok string) bool {
	p, anchor, hasAnchor := strings.Cut(tok, "#")
	if hasAnchor && (strings.HasPrefix(anchor, "L") || (anchor != "" && anchor[0] >= '0' && anchor[0] <= '9')) {
		return true
	}
	if strings.Contains(p, "/") || strings.HasPrefix(p, "~") {
		return true
	}
	return fileExts[strings.ToLower(path.Ext(p))]
}

// parseFileRef parses "path" or "path#anchor".
func parseFileRef(tok string) (Ref, error) {
	p, anchor, hasAnchor := strings.Cut(tok, "#")
	if p == "" {
		return Ref{}, fmt.Errorf("missing file path")
	}
	ref := Ref{Kind: RefFile, Value: p}
	if !hasAnchor {
		return ref, nil
	}
	lo, hi, err := parseLineRange(anchor)
	if err != nil {
		return Ref{}, err
	}
	ref.StartLine, ref.EndLine = lo, hi
	return ref, nil
}

// parseLineRange parses "L10", "L10-20", "L10-L20", "10" and "10-20".
func parseLineRange(a string) (int, int, error) {
	bad := fmt.Errorf("bad line range %q: write #L10 or #L10-20", "#"+a)
	a = strings.TrimPrefix(a, "L")
	from, to, isRange := strings.Cut(a, "-")
	to = strings.TrimPrefix(to, "L")
	lo, err := strconv.Atoi(from)
	if err != nil || lo < 1 || lo > maxLine || from[0] == '+' {
		return 0, 0, bad
	}
	if !isRange {
		return lo, lo, nil
	}
	hi, err := strconv.Atoi(to)
	if err != nil || hi < 1 || hi > maxLine || to[0] == '+' {
		return 0, 0, bad
	}
	if hi < lo {
		return 0, 0, fmt.Errorf("bad line range %q: the end comes before the start", "#"+a)
	}
	return lo, hi, nil
}

// isSymbolPath reports whether s is a symbol or a qualified one: identifiers
// joined by "." or "::" ("Store", "pkg.Func", "crate::store::Store").
func isSymbolPath(s string) bool {
	parts := symbolParts(s)
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		if !analyze.IsIdent(p) {
			return false
		}
	}
	return true
}

// symbolParts splits a qualified name at "::" and ".", outermost first. It
// returns nil when a separator is doubled, leading or trailing.
func symbolParts(s string) []string {
	if s == "" {
		return nil
	}
	var parts []string
	for _, seg := range strings.Split(s, "::") {
		for _, p := range strings.Split(seg, ".") {
			if p == "" {
				return nil
			}
			parts = append(parts, p)
		}
	}
	return parts
}

// skipBlanks returns the offset of the first byte at or after i in text
// that is not a space or tab.
func skipBlanks(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

// endsBlank reports whether the text written so far ends in a space or tab,
// or is empty (so a reference at the start leaves no leading blank).
func endsBlank(b *strings.Builder) bool {
	s := b.String()
	return s == "" || s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\n'
}
