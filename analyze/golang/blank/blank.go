// Package blank blanks the bodies of Go source files, so that a file can
// be parsed for its declarations alone.
//
// The Go loader (package golang) type-checks dependencies from their
// declarations only, yet parsing them whole cost a cold load of hugo
// 1.4 s of CPU, more than checking them: function bodies are most of the
// code, and the parser builds syntax for every statement before the
// loader drops it. [Bodies] reads a file once with a lexer that knows
// only what it must (comments, string and rune literals, brackets, words,
// Go's automatic semicolons) and overwrites the inside of every top-level
// function body with spaces, keeping newlines so that every position in
// the file stays where it was; the parser then reads a body as "{ }".
//
// # Variables
//
// Package-level variables lose the elements of their composite literals
// too: a checker that skips function bodies still checks every element of
// a variable's initial value, and some dependencies hold tables of
// thousands (golang.org/x/text/collate took 320 ms to check, most of a
// cold load of hugo's dependencies). A literal's type is written before
// its brace, so T{...} as T{ } has the type it had; the exception is an
// array whose length is counted from its elements, [...]T{...}, kept
// whole. Function literals in a variable lose their bodies, which a
// checker skipping bodies ignores anyway. Constants are never touched:
// their values are part of their declarations.
//
// # Costs
//
// BenchmarkParseDeclarations parses net/http whole and blanked;
// BenchmarkCheckDeclarations type-checks package unicode (tables of
// thousands of elements) from both.
package blank

import "bytes"

// Tokens of the lexer.
const (
	tkEOF = iota
	tkWord
	tkLBrace
	tkRBrace
	tkOpen  // ( or [
	tkClose // ) or ]
	tkSemi  // ; or a newline Go turns into one
	tkOther
)

// lexer splits Go source into the few tokens Bodies needs.
type lexer struct {
	src  []byte
	i    int
	semi bool // a newline now ends a statement (Go's semicolon rule)
	word []byte
	bad  bool
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// next returns the next token and its offset.
func (x *lexer) next() (int, int) {
	src := x.src
	for x.i < len(src) {
		c := src[x.i]
		switch {
		case c == '\n':
			x.i++
			if x.semi {
				x.semi = false
				return x.i - 1, tkSemi
			}
		case c == ' ' || c == '\t' || c == '\r':
			x.i++
		case c == '/' && x.i+1 < len(src) && src[x.i+1] == '/':
			for x.i < len(src) && src[x.i] != '\n' {
				x.i++
			}
		case c == '/' && x.i+1 < len(src) && src[x.i+1] == '*':
			end := indexFrom(src, x.i+2, "*/")
			if end < 0 {
				x.bad = true
				return x.i, tkEOF
			}
			newline := bytes.IndexByte(src[x.i:end], '\n') >= 0
			at := x.i
			x.i = end + 2
			if newline && x.semi {
				x.semi = false
				return at, tkSemi
			}
		case c == '"' || c == '\'':
			at := x.i
			x.i++
			for {
				if x.i >= len(src) || src[x.i] == '\n' {
					x.bad = true
					return at, tkEOF
				}
				if src[x.i] == '\\' {
					x.i += 2
					continue
				}
				if src[x.i] == c {
					x.i++
					break
				}
				x.i++
			}
			x.semi = true
			return at, tkOther
		case c == '`':
			at := x.i
			end := indexFrom(src, x.i+1, "`")
			if end < 0 {
				x.bad = true
				return at, tkEOF
			}
			x.i = end + 1
			x.semi = true
			return at, tkOther
		case isWordByte(c):
			at := x.i
			for x.i < len(src) && isWordByte(src[x.i]) {
				x.i++
			}
			x.word = src[at:x.i]
			x.semi = true
			return at, tkWord
		default:
			at := x.i
			x.i++
			x.semi = false
			switch c {
			case '{':
				return at, tkLBrace
			case '}':
				x.semi = true
				return at, tkRBrace
			case '(', '[':
				return at, tkOpen
			case ')', ']':
				x.semi = true
				return at, tkClose
			case ';':
				return at, tkSemi
			case '+', '-':
				if x.i < len(src) && src[x.i] == c {
					x.i++
					x.semi = true
				}
			}
			return at, tkOther
		}
	}
	if x.semi {
		x.semi = false
		return x.i, tkSemi
	}
	return x.i, tkEOF
}

// indexFrom is the offset of sep in b at or after from, or -1.
func indexFrom(b []byte, from int, sep string) int {
	if from > len(b) {
		return -1
	}
	if j := bytes.Index(b[from:], []byte(sep)); j >= 0 {
		return from + j
	}
	return -1
}

func (x *lexer) is(word string) bool { return string(x.word) == word }

// opensType reports whether the word read announces a brace that opens a
// type, not a body or a literal.
func (x *lexer) opensType() bool { return x.is("struct") || x.is("interface") }

// Bodies returns a copy of src with the bodies of its top-level function
// declarations, and the values in its package-level variables (see the
// package documentation), blanked, or nil when it finds none or the file
// does not read cleanly (the caller then parses src as it is). The copy
// has src's length and its newlines where src has them.
func Bodies(src []byte) []byte {
	x := &lexer{src: src}
	var out []byte
	// blank overwrites what lies between two braces.
	blank := func(open, closeAt int) {
		if out == nil {
			out = append([]byte(nil), src...)
		}
		for i := open + 1; i < closeAt; i++ {
			if c := out[i]; c != '\n' && c != '\r' {
				out[i] = ' '
			}
		}
	}
	depth := 0     // of braces, outside the function being read
	prev := tkSemi // the token before, at depth 0
	for {
		_, tok := x.next()
		if tok == tkEOF {
			break
		}
		atStart := depth == 0 && prev == tkSemi
		if depth == 0 {
			prev = tok
		}
		switch tok {
		case tkLBrace:
			depth++
			continue
		case tkRBrace:
			depth--
			if depth == 0 {
				prev = tok
			}
			continue
		case tkWord:
			if atStart && x.is("var") {
				if prev = x.varLiterals(blank); prev == tkEOF {
					return nil
				}
				continue
			}
			if !x.is("func") {
				continue
			}
		default:
			continue
		}
		if !atStart {
			continue // a function type or literal inside a declaration
		}
		// A function declaration: find its body's opening brace, skipping
		// the braces of struct and interface types in its signature.
		open, st := x.bodyStart()
		switch st {
		case noBody:
			prev = tkSemi
			continue
		case unsure:
			return nil
		}
		closeAt, ok := x.matchBrace()
		if !ok {
			return nil
		}
		prev = tkRBrace
		blank(open, closeAt)
	}
	if x.bad {
		return nil
	}
	return out
}

// varLiterals reads a package-level var declaration, the keyword read,
// and blanks the elements of its composite literals and the bodies of its
// function literals, except literals in a specification that writes an
// array of counted length ([...]T) before them. It returns the token that
// ended the declaration: the semicolon after it, the group's closing
// parenthesis, or tkEOF when the file ends first.
func (x *lexer) varLiterals(blank func(open, closeAt int)) int {
	grouped := false   // var ( ... )
	parens := 0        // open ( and [ inside the declaration, the group's own not counted
	typeBrace := false // the next brace opens a struct or interface type
	counted := false   // this specification holds [...]
	first := true
	for {
		at, tok := x.next()
		if first {
			first = false
			if tok == tkOpen && x.src[at] == '(' {
				grouped = true
				continue
			}
		}
		switch tok {
		case tkEOF:
			return tkEOF
		case tkOpen:
			parens++
			if x.src[at] == '[' && isEllipsisArray(x.src[at+1:]) {
				counted = true
			}
		case tkClose:
			if parens == 0 {
				if !grouped {
					return tkEOF // unbalanced: let the parser say
				}
				return tkClose
			}
			parens--
		case tkWord:
			if x.opensType() {
				typeBrace = true
			}
		case tkLBrace:
			closeAt, ok := x.matchBrace()
			if !ok {
				return tkEOF
			}
			if !typeBrace && !counted {
				blank(at, closeAt)
			}
			typeBrace = false
		case tkSemi:
			if parens == 0 {
				if !grouped {
					return tkSemi
				}
				counted, typeBrace = false, false
			}
		}
	}
}

// isEllipsisArray reports whether b, what follows a [, reads "...]".
func isEllipsisArray(b []byte) bool {
	b = bytes.TrimLeft(b, " \t")
	if !bytes.HasPrefix(b, []byte("...")) {
		return false
	}
	b = bytes.TrimLeft(b[3:], " \t")
	return len(b) > 0 && b[0] == ']'
}

// What bodyStart found.
const (
	hasBody = iota
	noBody  // the declaration ends at a semicolon (a function in assembly)
	unsure  // the file ends, or a brace no struct or interface announced
)

// bodyStart reads a function's signature up to the brace that opens its
// body, and returns the brace's offset.
func (x *lexer) bodyStart() (int, int) {
	parens := 0
	typeBrace := false // the next brace opens a struct or interface type
	for {
		at, tok := x.next()
		switch tok {
		case tkEOF:
			return 0, unsure
		case tkOpen:
			parens++
		case tkClose:
			parens--
		case tkWord:
			if x.opensType() {
				typeBrace = true
			}
		case tkLBrace:
			if typeBrace {
				typeBrace = false
				if _, ok := x.matchBrace(); !ok {
					return 0, unsure
				}
				continue
			}
			if parens == 0 {
				return at, hasBody
			}
			return 0, unsure
		case tkSemi:
			if parens == 0 {
				return 0, noBody
			}
		}
	}
}

// matchBrace reads up to the brace that closes one already open, and
// returns its offset.
func (x *lexer) matchBrace() (int, bool) {
	depth := 1
	for {
		at, tok := x.next()
		switch tok {
		case tkEOF:
			return 0, false
		case tkLBrace:
			depth++
		case tkRBrace:
			depth--
			if depth == 0 {
				return at, true
			}
		}
	}
}
