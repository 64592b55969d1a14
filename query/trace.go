package query

import (
	"strconv"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Limits on pasted traces: frames kept, and how far back from a location
// line the argument list and the function name may reach.
const (
	maxFrames   = 64
	maxArgs     = 1024
	maxFuncName = 1024
)

// span is a byte range [start, end) of the query text.
type span struct{ start, end int }

// traces is what parseTraces finds in pasted Go panics and Rust backtraces.
type traces struct {
	frames []Frame
	errors []string // panic messages
	spans  []span   // text that is trace machinery, not prose
}

var (
	// goFileLine is the location line of a Go frame: "\t/app/user.go:42 +0x1d".
	goFileLine = lazyRegexp(`(\S+\.(?:go|s)):(\d+)(?:[ \t]+\+0x[0-9a-fA-F]+)?`)
	// goMachinery is trace text that names nothing in the code.
	goMachinery = lazyRegexp(`goroutine \d+ \[[^\]\n]*\]:|\[signal [^\]\n]*\]|exit status \d+|\bcreated by\b`)
	// goPanic is a panic or fatal error message up to the end of its line.
	goPanic = lazyRegexp(`(?m)(?:^|\s)(?:panic|fatal error): ([^\n]+?)(?:\s+goroutine \d+ \[|\s+\[signal |\s*$)`)
	// rustPanicked is the panic location, new style ("panicked at
	// src/main.rs:10:5:" with the message on the next line) and old style
	// ("panicked at 'msg', src/main.rs:10:5").
	rustPanicked = lazyRegexp(`thread '[^'\n]*' panicked at (?:'([^\n]*)', )?(\S+?\.rs):(\d+):\d+:?[ \t]*(?:\n([^\n]*))?`)
	// rustFrame is one backtrace frame: "  4: app::store::Store::orders_of"
	// optionally followed by "at ./src/store.rs:42:9".
	rustFrame = lazyRegexp(`(?:^|\s)(\d{1,4}): +(<[^>\n]*>::\S+|[A-Za-z_<{][^\s]*)(?:\s+at (\S+?):(\d+)(?::\d+)?)?`)
	// rustHash is the symbol hash printed by RUST_BACKTRACE=full.
	rustHash    = lazyRegexp(`::h[0-9a-f]{16}$`)
	rustMachine = lazyRegexp(`stack backtrace:|note: [^\n]*RUST_BACKTRACE[^\n]*|note: [^\n]*backtrace[^\n]*`)
)

// parseTraces finds the frames of pasted Go panic traces and Rust
// backtraces, innermost first as both runtimes print them. It works on
// traces with their line breaks and on traces flattened onto one line.
func parseTraces(text string) traces {
	var t traces
	if strings.Contains(text, "goroutine ") || strings.Contains(text, "panic") || strings.Contains(text, "+0x") {
		parseGoTrace(text, &t)
	}
	if strings.Contains(text, "panicked at") || strings.Contains(text, "stack backtrace") {
		parseRustTrace(text, &t)
	}
	if len(t.frames) > maxFrames {
		t.frames = t.frames[:maxFrames]
	}
	return t
}

func parseGoTrace(text string, t *traces) {
	for _, m := range goPanic().FindAllStringSubmatchIndex(text, -1) {
		msg := strings.TrimSpace(text[m[2]:m[3]])
		if msg != "" {
			t.errors = append(t.errors, msg)
		}
		t.spans = append(t.spans, span{m[0], m[2]}) // the "panic:" label
		if runtimeMessage(msg) {
			t.spans = append(t.spans, span{m[2], m[3]})
		}
	}
	for _, m := range goMachinery().FindAllStringIndex(text, -1) {
		t.spans = append(t.spans, span{m[0], m[1]})
	}
	for _, m := range goFileLine().FindAllStringSubmatchIndex(text, -1) {
		fnStart, fn, ok := goFuncBefore(text, m[0])
		if !ok {
			continue
		}
		line, _ := strconv.Atoi(text[m[4]:m[5]])
		p := text[m[2]:m[3]]
		t.frames = append(t.frames, Frame{Func: fn, Path: p, Line: line, External: goExternal(fn, p)})
		t.spans = append(t.spans, span{fnStart, m[1]})
	}
}

// goFuncBefore finds the "pkg.(*T).M(args)" call that precedes a Go frame's
// location at text[loc]: blanks, then a balanced "(...)", then the name.
// "created by pkg.F in goroutine 1" has no argument list.
func goFuncBefore(text string, loc int) (start int, fn string, ok bool) {
	i := loc
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n' || text[i-1] == '\r') {
		i--
	}
	if i == 0 {
		return 0, "", false
	}
	if text[i-1] != ')' {
		// "created by main.main in goroutine 1"
		from := max(0, i-300)
		if j := strings.LastIndex(text[from:i], "created by "); j >= 0 {
			j += from
			name, _, _ := strings.Cut(text[j+len("created by "):i], " ")
			if strings.Contains(name, ".") && !strings.ContainsAny(name, "\n\t") {
				return j, name, true
			}
		}
		return 0, "", false
	}
	// Arguments are a few hex words; a longer walk back is not a frame.
	depth := 0
	j := i - 1
	for stop := max(0, i-maxArgs); j >= stop; j-- {
		switch text[j] {
		case ')':
			depth++
		case '(':
			depth--
		case '\n':
			return 0, "", false
		}
		if depth == 0 {
			break
		}
	}
	if j <= 0 || depth != 0 {
		return 0, "", false
	}
	end := j
	k := end
	for k > 0 && end-k < maxFuncName && !isBlank(text[k-1]) {
		k--
	}
	if k > 0 && !isBlank(text[k-1]) {
		return 0, "", false
	}
	name := text[k:end]
	if !strings.Contains(name, ".") || strings.ContainsAny(name, "\"'`") {
		return 0, "", false
	}
	return k, name, true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// goStdRoots are the first path elements of standard library packages that
// show up in traces.
var goStdRoots = setOf(`runtime testing sync reflect syscall internal net os fmt io bufio
encoding context time errors strings bytes strconv sort math crypto database
html text log path regexp unicode compress container debug embed expvar flag
go hash image index mime plugin slices maps iter unique weak cmp`)

func goExternal(fn, file string) bool {
	if strings.Contains(file, "/pkg/mod/") || strings.Contains(file, "/vendor/") ||
		strings.Contains(file, "/go/src/runtime/") || strings.Contains(file, "/libexec/src/") {
		return true
	}
	pkg := fn
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		root := pkg[:strings.IndexByte(pkg, '/')]
		return goStdRoots[root] && !strings.Contains(root, ".")
	}
	pkg, _, _ = strings.Cut(pkg, ".")
	return goStdRoots[pkg]
}

func parseRustTrace(text string, t *traces) {
	for _, m := range rustPanicked().FindAllStringSubmatchIndex(text, -1) {
		line, _ := strconv.Atoi(text[m[6]:m[7]])
		p := text[m[4]:m[5]]
		t.frames = append(t.frames, Frame{Path: p, Line: line, External: rustExternal("", p)})
		t.spans = append(t.spans, span{m[0], m[7]})
		msgAt := 8 // new style: the message is on the next line
		if m[2] >= 0 {
			msgAt = 2
		}
		if m[msgAt] < 0 {
			continue
		}
		msg := strings.TrimSpace(text[m[msgAt]:m[msgAt+1]])
		if msg == "" || strings.HasPrefix(msg, "stack backtrace") || strings.HasPrefix(msg, "note:") {
			continue
		}
		t.errors = append(t.errors, msg)
		if runtimeMessage(msg) {
			t.spans = append(t.spans, span{m[msgAt], m[msgAt+1]})
		}
	}
	for _, m := range rustMachine().FindAllStringIndex(text, -1) {
		t.spans = append(t.spans, span{m[0], m[1]})
	}
	var frames []Frame
	for _, m := range rustFrame().FindAllStringSubmatchIndex(text, -1) {
		fn := rustHash().ReplaceAllString(text[m[4]:m[5]], "")
		if !strings.Contains(fn, "::") && !strings.HasPrefix(fn, "rust_") && !strings.HasPrefix(fn, "__") {
			continue
		}
		f := Frame{Func: fn}
		if m[6] >= 0 {
			f.Path = text[m[6]:m[7]]
			f.Line, _ = strconv.Atoi(text[m[8]:m[9]])
		}
		f.External = rustExternal(fn, f.Path)
		frames = append(frames, f)
		t.spans = append(t.spans, span{m[2], m[1]})
	}
	// The "panicked at" location repeats a backtrace frame's; keep the frame,
	// which names the function too.
	for _, f := range frames {
		for i, g := range t.frames {
			if g.Func == "" && g.Line == f.Line && samePath(g.Path, f.Path) {
				t.frames = append(t.frames[:i], t.frames[i+1:]...)
				break
			}
		}
	}
	t.frames = append(t.frames, frames...)
}

// runtimeMessages open the panic messages that the Go runtime and Rust's
// standard library write. Their words name the runtime, not the user's
// code, so they are kept as errors but give no terms.
var runtimeMessages = []string{
	"runtime error:", "assignment to entry in nil map", "send on closed channel",
	"close of closed channel", "close of nil channel", "all goroutines are asleep",
	"concurrent map", "called `Option::unwrap()`", "called `Result::unwrap()`",
	"index out of bounds", "attempt to ", "explicit panic", "not yet implemented",
	"not implemented", "internal error: entered unreachable code", "already borrowed",
	"already mutably borrowed", "byte index ",
}

func runtimeMessage(msg string) bool {
	for _, p := range runtimeMessages {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

func samePath(a, b string) bool {
	a, b = strings.TrimPrefix(a, "./"), strings.TrimPrefix(b, "./")
	return a == b || strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a)
}

var rustStdRoots = setOf(`std core alloc test backtrace panic_unwind panic_abort
std_detect tokio futures futures_util hyper tower`)

func rustExternal(fn, file string) bool {
	if strings.Contains(file, "/rustc/") || strings.Contains(file, "/.cargo/registry/") ||
		strings.Contains(file, "/.cargo/git/") || strings.Contains(file, "/.rustup/toolchains/") ||
		strings.Contains(file, "/library/std/") || strings.Contains(file, "/library/core/") ||
		strings.Contains(file, "/library/alloc/") {
		return true
	}
	if fn == "" {
		return false
	}
	if strings.HasPrefix(fn, "rust_") || strings.HasPrefix(fn, "__") || fn == "main" || fn == "_start" {
		return true
	}
	root := strings.TrimPrefix(fn, "<")
	root, _, _ = strings.Cut(root, "::")
	return rustStdRoots[root]
}

// frameEntityParts turns a frame's function into the qualifier chain of an
// entity: "main.(*UserService).FindByEmail" → [main UserService
// FindByEmail], "app::store::Store::orders_of::{{closure}}" → [app store
// Store orders_of], "pkg.F.func1" → [pkg F].
func frameEntityParts(fn string) []string {
	if strings.Contains(fn, "::") {
		fn = strings.TrimPrefix(fn, "<")
		if head, tail, ok := strings.Cut(fn, " as "); ok {
			// "<app::Store as core::fmt::Debug>::fmt" → app::Store::fmt
			_, method, _ := strings.Cut(tail, ">::")
			fn = head + "::" + method
		}
		var parts []string
		for _, p := range strings.Split(fn, "::") {
			p = strings.Trim(p, "<>")
			if i := strings.IndexByte(p, '<'); i > 0 {
				p = p[:i]
			}
			if p == "" || strings.HasPrefix(p, "{{") || !analyze.IsIdent(p) {
				continue
			}
			parts = append(parts, p)
		}
		return parts
	}
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	fn = strings.NewReplacer("(*", "", "(", "", ")", "").Replace(fn)
	if i := strings.Index(fn, "["); i >= 0 {
		// generic instantiation: "pkg.Map[...]" and "pkg.(*T[...]).M"
		j := strings.LastIndex(fn, "]")
		if j > i {
			fn = fn[:i] + fn[j+1:]
		} else {
			fn = fn[:i]
		}
	}
	var parts []string
	for _, p := range strings.Split(fn, ".") {
		if p == "" || strings.HasPrefix(p, "func") && allDigitsAfter(p, 4) || p == "gowrap1" || !analyze.IsIdent(p) {
			continue
		}
		parts = append(parts, p)
	}
	return parts
}

func allDigitsAfter(s string, n int) bool {
	if len(s) <= n {
		return false
	}
	for i := n; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
