package query

import (
	"strings"
)

// Issue-shaped text.
//
// A bug report or a pull request's description is not one sentence: it
// has a title line, paragraphs, markdown headings from a template, fenced
// code, pasted terminal output, logs and version lists. Each carries a
// different kind of signal. segment cuts a text into blocks so that the
// builder can read each kind for what it holds: prose for its words and
// code-style names, code for its identifiers, output for its error lines
// and commands, and nothing from headings' template words or version
// lists.

// blockKind is what a stretch of text holds.
type blockKind uint8

const (
	blockProse   blockKind = iota // sentences, list items, quoted replies
	blockHeading                  // a markdown heading line: "## Summary"
	blockCode                     // Go, Rust, a diff, or untagged code
	blockForeign                  // code of another language (Python, TOML, JSON…): the program's input
	blockOutput                   // terminal output: commands, logs, what programs print
	blockMeta                     // version lists and environment details
)

var blockNames = [...]string{"prose", "heading", "code", "foreign", "output", "meta"}

func (k blockKind) String() string {
	if int(k) < len(blockNames) {
		return blockNames[k]
	}
	return "block?"
}

// block is a byte range [start, end) of the text and what it holds; fence
// lines are not part of a fenced block.
type block struct {
	kind       blockKind
	start, end int
	lang       string // a fence's language, lower case ("rust", "console"); "" when untagged
}

// Fence languages by what they hold. Any other tag is a foreign language.
var (
	codeLangs   = setOf(`go golang rust rs diff patch`)
	outputLangs = setOf(`console shell sh bash zsh fish shell-session shellsession sh-session
		powershell ps1 pwsh cmd bat batch text txt plain plaintext log logs output terminal stdout stderr
		ansi term none raw`)
)

var (
	fenceOpen = lazyRegexp("^[ \t>]*(```+|~~~+)[ \t]*([^`\n]*)$")
	heading   = lazyRegexp(`^[ \t]{0,3}#{1,6}(?:[ \t]|$)`)
	// Lines of pasted output inside prose: log lines (a timestamp or a
	// level first), shell prompts with a command, test runner lines.
	logLine    = lazyRegexp(`^\s*(?:\[?\d{4}[-/]\d\d[-/]\d\d[T ]\d\d:\d\d|\[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?\s|\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRIT)\]?[\s:]|(?:trace|debug|info|warn)\[\d+\]|--- (?:FAIL|PASS)|=== (?:RUN|PAUSE|CONT)|(?:ok|FAIL)\s+\S+\s+[\d.]+s)`)
	promptLine = lazyRegexp(`^\s*(?:\$|❯|➜|λ|%|PS [^>\n]*>|[\w.@-]+[@:][\w.~/-]*[$#%])\s+\S`)
	// metaLine is a line of a version list or an environment report.
	metaLine = lazyRegexp(`(?i)^\s*(?:[-*]\s+)?(?:\*\*)?(?:(?:os|platform|arch|architecture|kernel|distro|distribution|shell|terminal|version|versions|rustc|cargo|rustup|go|golang|toolchain|python|node|npm|docker|browser|environment|env|build|commit|hash|uname|cpu|memory|installed via|installation method)(?:\s+version)?(?:\*\*)?\s*[:=]|(?:go version go\d|rustc \d|cargo \d|[\w-]+ v?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?(?: \([^)\n]*\))?\s*$))`)
)

// segment cuts text into blocks, in order, covering every line. A text
// with no fence, heading, indented code or pasted output is one prose
// block.
func segment(text string) []block {
	var out []block
	add := func(k blockKind, start, end int, lang string) {
		if end <= start {
			return
		}
		if n := len(out); n > 0 && out[n-1].kind == k && out[n-1].end == start && k != blockCode && k != blockForeign && k != blockHeading {
			out[n-1].end = end
			return
		}
		out = append(out, block{kind: k, start: start, end: end, lang: lang})
	}
	lines := splitLines(text)
	prevBlank := true
	for i := 0; i < len(lines); {
		ln := lines[i]
		s := text[ln.start:ln.end]
		if m := fenceOpen().FindStringSubmatch(s); m != nil {
			marker := m[1]
			lang := fenceLang(m[2])
			j := i + 1
			for j < len(lines) && !closesFence(text[lines[j].start:lines[j].end], marker) {
				j++
			}
			start, end := ln.next, len(text)
			if i+1 < len(lines) {
				start = lines[i+1].start
			}
			if j < len(lines) {
				end = lines[j].start
			}
			if start > end {
				start = end
			}
			body := text[start:end]
			add(fenceKind(lang, body), start, end, lang)
			i = j + 1
			prevBlank = true
			continue
		}
		if heading().MatchString(s) {
			add(blockHeading, ln.start, ln.next, "")
			i++
			prevBlank = false
			continue
		}
		if prevBlank && i > 0 && indented(s) {
			// An indented block after a blank line: code or output.
			j := i
			for j < len(lines) && (indented(text[lines[j].start:lines[j].end]) || blank(text[lines[j].start:lines[j].end]) && j+1 < len(lines) && indented(text[lines[j+1].start:lines[j+1].end])) {
				j++
			}
			start, end := ln.start, lines[j-1].next
			add(fenceKind("", text[start:end]), start, end, "")
			i = j
			prevBlank = false
			continue
		}
		switch {
		case blank(s):
			add(blockProse, ln.start, ln.next, "")
			prevBlank = true
		case i == 0:
			// The first line is the title, whatever it looks like
			// ("build: …" is an area, not an environment detail).
			add(blockProse, ln.start, ln.next, "")
			prevBlank = false
		case logLine().MatchString(s) || promptLine().MatchString(s):
			add(blockOutput, ln.start, ln.next, "")
			prevBlank = false
		case metaLine().MatchString(s):
			add(blockMeta, ln.start, ln.next, "")
			prevBlank = false
		default:
			add(blockProse, ln.start, ln.next, "")
			prevBlank = false
		}
		i++
	}
	return out
}

// line is one line of the text: [start, end) without its line break,
// next the offset of the following line.
type line struct{ start, end, next int }

func splitLines(text string) []line {
	var out []line
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			out = append(out, line{start, len(text), len(text)})
			break
		}
		e := start + end
		le := e
		if le > start && text[le-1] == '\r' {
			le--
		}
		out = append(out, line{start, le, e + 1})
		start = e + 1
	}
	return out
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// indented is a line of an indented code block: four spaces or a tab,
// with something after them. List items continued under their bullet are
// indented too, but they follow their bullet without a blank line.
func indented(s string) bool {
	if blank(s) {
		return false
	}
	return strings.HasPrefix(s, "    ") || strings.HasPrefix(s, "\t")
}

// fenceLang is the language of a fence's info string: its first word,
// lower case, without the braces and dots some renderers allow.
func fenceLang(info string) string {
	info = strings.TrimSpace(strings.Trim(strings.TrimSpace(info), "{}."))
	if i := strings.IndexAny(info, " \t,{"); i >= 0 {
		info = info[:i]
	}
	return strings.ToLower(strings.TrimPrefix(info, "."))
}

// closesFence reports whether line s closes a fence opened with marker.
func closesFence(s, marker string) bool {
	s = strings.TrimSpace(strings.TrimLeft(s, " \t>"))
	if len(s) < len(marker) || s[0] != marker[0] {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != marker[0] {
			return false
		}
	}
	return true
}

// fenceKind decides what a fenced or indented block holds: its tag says
// so, or, untagged, its lines do.
func fenceKind(lang, body string) blockKind {
	switch {
	case codeLangs[lang]:
		return blockCode
	case outputLangs[lang]:
		return blockOutput
	case lang != "":
		return blockForeign
	}
	code, output := 0, 0
	for _, l := range strings.Split(body, "\n") {
		switch {
		case blank(l):
		case logLine().MatchString(l) || promptLine().MatchString(l) || outputCue().MatchString(l):
			output++
		case codeCue().MatchString(l):
			code++
		}
	}
	if code > output {
		return blockCode
	}
	return blockOutput
}

var (
	// codeCue is a line that reads as Go or Rust source.
	codeCue = lazyRegexp(`^\s*(?:(?:pub(?:\([\w:]+\))?\s+)?(?:fn|struct|enum|impl|trait|mod|use|let|const|static|type|match|func|package|import|var|return|if|for|defer|go|switch|case|loop|while|where|async|unsafe)\b|[})\]];?\s*$|//|/\*|#\[)|(?:[;{]|:=|=>|->)\s*$|\berr != nil\b`)
	// outputCue is a line that reads as something a program printed.
	outputCue = lazyRegexp(`(?i)^\s*(?:error|warning|warn|note|help|hint|caused by|panic|fatal|thread '|stack backtrace|at |-->|\s*\d+:\s+0x|[\w./-]*\.[a-z]+:\d+(?::\d+)?:?(?:\s|$)|usage:|tip:|×|╭|│|╰|goroutine \d)`)
	// errorCue is a line of output that reports a failure, wherever the
	// word is (log lines put a timestamp and a level first).
	errorCue = lazyRegexp(`(?i)\b(?:error|errors|fatal|panic|panicked|failed|failure|exception|traceback|caused by)\b`)
)
