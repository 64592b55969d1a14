package query

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// chunkKind is what one whitespace-separated piece of prose turned out to be.
type chunkKind uint8

const (
	chunkWords  chunkKind = iota // ordinary words
	chunkSymbol                  // a code-style name: UserService.find_by_email
	chunkPath                    // a file or directory path
	chunkURL                     // a URL: neither words nor code
	chunkModule                  // a module path: golang.org/x/net
)

// chunk is a classified piece of prose.
type chunk struct {
	kind  chunkKind
	raw   string   // as written, without surrounding punctuation or line suffix
	parts []string // symbol: qualifier chain; path: segments
}

// strongDirs are directory names that make "a/b" a path even without an
// extension ("internal/auth", "crates/store").
var strongDirs = setOf(`internal pkg cmd src lib crates testdata vendor third_party`)

// genericPathParts name no concept; they give no path terms.
var genericPathParts = setOf(`internal pkg src cmd lib crates mod main . .. ~ app`)

// notCode are words in CamelCase that are product names, not code.
var notCode = setOf(`github gitlab bitbucket javascript typescript postgresql mysql sqlite
mongodb dynamodb bigquery graphql oauth websocket websockets macos ios iphone ipad
youtube linkedin powershell openai chatgpt vscode intellij jetbrains webassembly
devops github's fastapi nodejs grpc http2 ipv4 ipv6 openapi openssl openssh
`)

// tlds end dotted words that are host names, not symbols ("example.com").
var tlds = setOf(`com org net io dev edu gov co uk de fr rs app ai me info biz in`)

var (
	// lineSuffix is ":42" or ":42:7" after a path.
	lineSuffix = lazyRegexp(`(?::\d+){1,2}$`)
	// methodExpr is Go's method expression "(*T).M" or "pkg.(*T).M".
	methodExpr = lazyRegexp(`^(?:([A-Za-z_]\w*)\.)?\(\*?([A-Za-z_]\w*)\)\.([A-Za-z_]\w*)$`)
	// genericArgs is a Rust or Go type argument list: "Vec<T>", "Map[K, V]".
	genericArgs = lazyRegexp(`<[^<>]*>|\[[^\[\]]*\]`)
)

// classifyChunk decides what a whitespace-separated piece of prose is.
func classifyChunk(tok string) chunk {
	tok = trimSentence(tok)
	if tok == "" {
		return chunk{kind: chunkWords}
	}
	if strings.Contains(tok, "://") || strings.HasPrefix(strings.ToLower(tok), "www.") {
		return chunk{kind: chunkURL, raw: tok}
	}
	if m := methodExpr().FindStringSubmatch(strings.TrimSuffix(tok, "()")); m != nil {
		parts := []string{m[2], m[3]}
		if m[1] != "" {
			parts = append([]string{m[1]}, parts...)
		}
		return chunk{kind: chunkSymbol, raw: tok, parts: parts}
	}
	tok = strings.Trim(tok, "([{<\"'")
	if parts := modulePath(tok); parts != nil {
		return chunk{kind: chunkModule, raw: tok, parts: parts}
	}
	if p, ok := pathLike(tok); ok {
		return chunk{kind: chunkPath, raw: p, parts: pathParts(p)}
	}
	name, call := stripCall(tok)
	if name == "" {
		return chunk{kind: chunkWords, raw: tok}
	}
	if parts, ok := codeSymbol(name, call); ok {
		return chunk{kind: chunkSymbol, raw: name, parts: parts}
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 && tlds[strings.ToLower(name[i+1:])] {
		return chunk{kind: chunkURL, raw: tok} // a host name: "example.com"
	}
	return chunk{kind: chunkWords, raw: tok}
}

// trimSentence removes the punctuation that belongs to the sentence around
// a token: a trailing full stop, comma, colon, question mark, closing
// quote or bracket (unless it closes a call's argument list).
func trimSentence(tok string) string {
	if strings.HasSuffix(tok, "'s") || strings.HasSuffix(tok, "’s") {
		tok = tok[:strings.LastIndexAny(tok, "'’")]
	}
	open := [3]int{strings.Count(tok, "("), strings.Count(tok, "["), strings.Count(tok, "<")}
	closed := [3]int{strings.Count(tok, ")"), strings.Count(tok, "]"), strings.Count(tok, ">")}
	for len(tok) > 0 {
		c := tok[len(tok)-1]
		k := strings.IndexByte(")]>", c)
		switch {
		case strings.IndexByte(".,;:!?\"'", c) >= 0:
		case k >= 0 && open[k] < closed[k]:
			closed[k]--
		default:
			return strings.TrimLeft(tok, "\"'")
		}
		tok = tok[:len(tok)-1]
	}
	return tok
}

// stripCall removes a trailing argument list: "FindByEmail()" and
// "orders_of(id)" are calls, which marks them as code.
func stripCall(tok string) (string, bool) {
	open := strings.IndexByte(tok, '(')
	if open < 0 {
		return tok, false
	}
	if !strings.HasSuffix(tok, ")") {
		return "", false
	}
	return tok[:open], true
}

// pathLike reports whether tok is a path and returns it without a
// ":line:col" suffix.
func pathLike(tok string) (string, bool) {
	p := lineSuffix().ReplaceAllString(tok, "")
	if p == "" || strings.ContainsAny(p, "()<>{}[]\"'`|*?,;") || strings.Contains(p, "::") {
		return "", false
	}
	ext := strings.ToLower(path.Ext(p))
	hasExt := fileExts[ext] && len(p) > len(ext) && !strings.HasSuffix(p, "/"+ext)
	if !strings.Contains(p, "/") {
		// "user.go", "Cargo.toml"; not "pkg.Func" nor a bare ".go"
		return p, hasExt && validPathSegment(strings.TrimSuffix(p, ext))
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for _, s := range segs {
		if s != "." && s != ".." && s != "~" && !validPathSegment(s) {
			return "", false
		}
	}
	switch {
	case hasExt,
		strings.HasPrefix(p, "./"), strings.HasPrefix(p, "../"), strings.HasPrefix(p, "~/"),
		strings.HasPrefix(p, "/") && len(segs) >= 2,
		strings.HasSuffix(p, "/") && len(segs) >= 1 && segs[0] != "",
		len(segs) >= 3:
		return p, true
	}
	for _, s := range segs {
		if strongDirs[s] {
			return p, true
		}
	}
	return "", false
}

// modulePath splits a Go module or import path whose first element is a
// host name ("github.com/x/y", "golang.org/x/net", "k8s.io/api"); it
// returns nil for anything else.
func modulePath(tok string) []string {
	host, rest, ok := strings.Cut(tok, "/")
	if !ok || rest == "" {
		return nil
	}
	i := strings.LastIndexByte(host, '.')
	if i <= 0 || !tlds[strings.ToLower(host[i+1:])] && !moduleHosts[strings.ToLower(host)] {
		return nil
	}
	parts := []string{host}
	for _, s := range strings.Split(rest, "/") {
		if s == "" || !validPathSegment(s) {
			return nil
		}
		parts = append(parts, s)
	}
	return parts
}

// moduleHosts are module hosts whose top-level domain tlds does not list.
var moduleHosts = setOf(`gopkg.in k8s.io sigs.k8s.io go.uber.org go.etcd.io go.opentelemetry.io cloud.google.com google.golang.org`)

// validPathSegment accepts the characters that real file and directory
// names use.
func validPathSegment(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-.@+~", r)) {
			return false
		}
	}
	return true
}

// pathParts splits a path into its meaningful segments, dropping "." and "..".
func pathParts(p string) []string {
	var parts []string
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." && s != ".." {
			parts = append(parts, s)
		}
	}
	return parts
}

// codeSymbol reports whether name is written as code and returns its
// qualifier chain. Qualified names ("a::b::C", "pkg.Func",
// "UserService.find_by_email"), CamelCase with an inner capital
// ("FindByEmail", "userID"), snake_case ("find_by_email") and calls
// ("parse()") count; ordinary capitalised words ("Store", "API") do not.
func codeSymbol(name string, call bool) ([]string, bool) {
	name = strings.TrimSuffix(name, "!") // Rust macros: vec!
	if strings.Contains(name, "::") {
		name = genericArgs().ReplaceAllString(name, "")
		parts := symbolParts(strings.TrimPrefix(name, "::"))
		if len(parts) < 2 || !allIdents(parts) {
			return nil, false
		}
		return trimPathKeywords(parts), true
	}
	name = genericArgs().ReplaceAllString(name, "")
	parts := symbolParts(name)
	if len(parts) == 0 || !allIdents(parts) {
		return nil, false
	}
	if len(parts) == 1 {
		if call || codeStyle(parts[0]) {
			return parts, true
		}
		return nil, false
	}
	// Dotted: reject host names, abbreviations and versions.
	last := parts[len(parts)-1]
	if tlds[strings.ToLower(last)] && !call {
		return nil, false
	}
	code := call
	for i, p := range parts {
		if len(p) < 2 && !call {
			return nil, false
		}
		if codeStyle(p) || (i > 0 && startsUpper(p)) {
			code = true
		}
	}
	if !code && len(parts) == 2 && allLowerWords(parts) {
		// "store.get", "self.cache": plausible receivers and methods.
		code = !IsStopWord(parts[0]) && !IsStopWord(parts[1])
	}
	if !code {
		return nil, false
	}
	return trimPathKeywords(parts), true
}

// codeStyle reports whether an identifier is written as code: an inner
// capital after a lower-case letter or after a run of capitals followed by
// lower case ("FindByEmail", "userID", "HTTPServer"), or an underscore
// between word characters ("find_by_email", "MAX_RETRIES").
func codeStyle(id string) bool {
	if notCode[strings.ToLower(id)] {
		return false
	}
	// snake_case, with or without leading underscores (__log_rejection).
	if core := strings.Trim(id, "_"); strings.Contains(core, "_") || (core != id && core != "") {
		return true
	}
	lower, innerUpper := false, false
	for i, r := range id {
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r) && i > 0:
			innerUpper = true
		}
	}
	return lower && innerUpper
}

func startsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

func allIdents(parts []string) bool {
	for _, p := range parts {
		if !analyze.IsIdent(p) {
			return false
		}
	}
	return true
}

func allLowerWords(parts []string) bool {
	for _, p := range parts {
		if strings.ToLower(p) != p {
			return false
		}
	}
	return true
}

// trimPathKeywords drops Rust path keywords and receivers that name no
// symbol: "crate::store::Store" → [store Store], "self.cache" → [cache].
func trimPathKeywords(parts []string) []string {
	for len(parts) > 1 {
		switch parts[0] {
		case "crate", "self", "super", "Self":
			parts = parts[1:]
			continue
		}
		break
	}
	return parts
}

// codeTokens returns the identifier-like tokens of back-ticked code,
// qualified names kept whole: "store.Get(ctx, id)" → [store.Get ctx id].
func codeTokens(code string) []string {
	return codeTokenRe().FindAllString(code, -1)
}

var codeTokenRe = lazyRegexp(`[\p{L}_][\p{L}\p{N}_]*(?:(?:::|\.)[\p{L}_][\p{L}\p{N}_]*)*`)
