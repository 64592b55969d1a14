package ignore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Names of the ignore files read in every directory. Within a directory
// the second overrides the first.
const (
	GitIgnoreFile = ".gitignore"
	IgnoreFile    = ".ctxexpandignore"
)

// Options configures Load. The zero value follows git's rules and
// .ctxexpandignore files, and leaves generated and vendored code in (the
// ranker demotes it).
type Options struct {
	// Exclude are extra patterns in gitignore syntax, relative to the
	// root, taking precedence over every ignore file ("!x" re-includes).
	Exclude []string
	// Include are patterns in gitignore syntax, relative to the root, of
	// paths analysed whatever any other rule says: a path is included when
	// it or one of its directories matches. Directories that might hold an
	// included path are never pruned. "!" is not allowed here.
	Include []string
	// Generated are patterns, in gitignore syntax relative to the root, of
	// files to treat as generated besides those analyze.Classify names and
	// those with a "Code generated … DO NOT EDIT." header.
	Generated []string
	// SkipGenerated leaves generated files out entirely; SkipVendored
	// leaves out vendored directories (vendor, third_party, …).
	SkipGenerated bool
	SkipVendored  bool
	// NoGitIgnore skips .gitignore files and .git/info/exclude; only
	// .ctxexpandignore files and the patterns above apply.
	NoGitIgnore bool
}

// Matcher decides which paths of a repository are ignored. It is safe for
// concurrent use, and its answers depend only on the files it reads, never
// on the order of the questions. A nil *Matcher ignores nothing.
type Matcher struct {
	root   string   // absolute
	top    string   // absolute: the git top level, or root outside git
	prefix []string // root relative to top
	opt    Options

	infoExclude []Pattern
	exclude     []Pattern
	include     []Pattern
	generated   []Pattern

	mu       sync.Mutex
	dirRules map[string][]Pattern // top-relative directory → its ignore files' patterns
	dirOut   map[string]bool      // root-relative directory → excluded by the rules
	problems []analyze.Problem
}

// Load prepares the ignore rules of the repository at root. Rules live in
// .gitignore and .ctxexpandignore files at every level from the git top
// level (found by walking up from root to the nearest .git) down, in
// .git/info/exclude, and in opt. Ignore files are read lazily as the walk
// reaches their directories; one that cannot be read, or a bad line in
// one, becomes a problem (see Problems), never an error. Load fails only
// when root is not a directory or a pattern in opt is bad.
//
// Paths asked about are relative to root; rules from files above root
// apply to them as git applies them. The root itself is never ignored.
func Load(root string, opt Options) (*Matcher, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("loading ignore rules of %s: %w", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("loading ignore rules of %s: %w", root, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("loading ignore rules of %s: not a directory", root)
	}
	m := &Matcher{root: abs, top: abs, opt: opt, dirRules: map[string][]Pattern{}, dirOut: map[string]bool{}}
	if !opt.NoGitIgnore {
		if top, gitDir := gitTop(abs); top != "" {
			m.top = top
			if gitDir != "" {
				m.infoExclude = m.readRules(filepath.Join(gitDir, "info", "exclude"), "")
			}
		}
	}
	if rel, err := filepath.Rel(m.top, abs); err == nil && rel != "." {
		m.prefix = strings.Split(filepath.ToSlash(rel), "/")
	}
	base := strings.Join(m.prefix, "/")
	if m.exclude, err = compile("exclude", opt.Exclude, base, true); err != nil {
		return nil, err
	}
	if m.include, err = compile("include", opt.Include, base, false); err != nil {
		return nil, err
	}
	if m.generated, err = compile("generated", opt.Generated, base, false); err != nil {
		return nil, err
	}
	return m, nil
}

// compile parses configured patterns; what is an ignore file's problem is
// the caller's error here.
func compile(what string, lines []string, base string, allowNegate bool) ([]Pattern, error) {
	var out []Pattern
	for i, l := range lines {
		p, ok, err := ParsePattern(l, base)
		if err != nil {
			return nil, fmt.Errorf("%s pattern %d: %w", what, i+1, err)
		}
		if !ok {
			if strings.TrimSpace(l) == "" {
				return nil, fmt.Errorf("%s pattern %d is empty", what, i+1)
			}
			continue // a comment
		}
		if p.negate && !allowNegate {
			return nil, fmt.Errorf("%s pattern %d %q: a %s pattern cannot start with \"!\"; put the exception in exclude", what, i+1, l, what)
		}
		p.Source = "config " + what
		out = append(out, p)
	}
	return out, nil
}

// Root is the absolute directory paths are relative to.
func (m *Matcher) Root() string { return m.root }

// Match reports whether the root-relative, slash-separated path rel (a
// directory when isDir) is ignored. Its signature is that of
// analyze.WalkOptions.Ignore and engine.LoadOptions.Ignore.
//
// Git's own ".git" (a directory, or the file of a linked worktree) is
// always ignored. Otherwise a path is ignored when the last pattern
// matching it, among those of .git/info/exclude, then the ignore files
// from the top down to its directory, then Options.Exclude, is not
// negated; or when one of its directories is ignored (git cannot
// re-include a file inside an ignored directory, and neither can this).
// Options.Include overrides all of it.
// With SkipVendored or SkipGenerated, vendored and generated files are
// ignored too; a generated file is recognised by its name, the configured
// patterns, or a "Code generated … DO NOT EDIT." header (read for .go and
// .rs files only).
func (m *Matcher) Match(rel string, isDir bool) bool {
	if m == nil {
		return false
	}
	segs := splitPath(rel)
	if len(segs) == 0 {
		return false
	}
	if slices.Contains(segs, ".git") {
		return true // git's own data (a directory, or a worktree's .git file)
	}
	if m.included(segs, isDir) {
		return false
	}
	if m.ruleOut(segs, isDir) {
		return !isDir || !m.mayIncludeBelow(segs)
	}
	if m.opt.SkipVendored {
		probe := rel
		if isDir {
			probe += "/x.go"
		}
		if analyze.Classify(probe) == analyze.CatVendored {
			return !isDir || !m.mayIncludeBelow(segs)
		}
	}
	if !isDir && m.opt.SkipGenerated && m.generatedFile(rel) {
		return true
	}
	return false
}

// ruleOut applies the ignore rules, parents first.
func (m *Matcher) ruleOut(segs []string, isDir bool) bool {
	for i := 1; i < len(segs); i++ {
		if m.dirExcluded(segs[:i]) {
			return true
		}
	}
	return m.decide(segs, isDir)
}

// dirExcluded is ruleOut for a directory, remembered.
func (m *Matcher) dirExcluded(segs []string) bool {
	key := strings.Join(segs, "/")
	m.mu.Lock()
	v, ok := m.dirOut[key]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = m.ruleOut(segs, true)
	m.mu.Lock()
	m.dirOut[key] = v
	m.mu.Unlock()
	return v
}

// decide finds the last pattern matching the path itself.
func (m *Matcher) decide(segs []string, isDir bool) bool {
	full := append(append(make([]string, 0, len(m.prefix)+len(segs)), m.prefix...), segs...)
	if v, ok := lastMatch(m.exclude, full, isDir); ok {
		return v
	}
	for d := len(full) - 1; d >= 0; d-- {
		if v, ok := lastMatch(m.rulesOf(full[:d]), full, isDir); ok {
			return v
		}
	}
	v, _ := lastMatch(m.infoExclude, full, isDir)
	return v
}

// lastMatch reports whether the last matching pattern of ps excludes.
func lastMatch(ps []Pattern, full []string, isDir bool) (excluded, matched bool) {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].match(full, isDir) {
			return !ps[i].negate, true
		}
	}
	return false, false
}

// included reports whether the path or one of its directories matches an
// Include pattern.
func (m *Matcher) included(segs []string, isDir bool) bool {
	if len(m.include) == 0 {
		return false
	}
	full := append(append([]string(nil), m.prefix...), segs...)
	for n := len(m.prefix) + 1; n <= len(full); n++ {
		dir := n < len(full) || isDir
		for i := range m.include {
			if m.include[i].match(full[:n], dir) {
				return true
			}
		}
	}
	return false
}

// mayIncludeBelow reports whether an Include pattern might match a path
// inside the directory.
func (m *Matcher) mayIncludeBelow(segs []string) bool {
	if len(m.include) == 0 {
		return false
	}
	full := strings.Join(append(append([]string(nil), m.prefix...), segs...), "/")
	for i := range m.include {
		if m.include[i].MayMatchBelow(full) {
			return true
		}
	}
	return false
}

// rulesOf returns the patterns of the ignore files of a directory (split,
// relative to the top), reading them the first time.
func (m *Matcher) rulesOf(dir []string) []Pattern {
	key := strings.Join(dir, "/")
	m.mu.Lock()
	ps, ok := m.dirRules[key]
	m.mu.Unlock()
	if ok {
		return ps
	}
	abs := filepath.Join(m.top, filepath.FromSlash(key))
	if !m.opt.NoGitIgnore {
		ps = append(ps, m.readRules(filepath.Join(abs, GitIgnoreFile), key)...)
	}
	ps = append(ps, m.readRules(filepath.Join(abs, IgnoreFile), key)...)
	m.mu.Lock()
	if prev, ok := m.dirRules[key]; ok {
		ps = prev // another goroutine read it first: keep one copy
	} else {
		m.dirRules[key] = ps
	}
	m.mu.Unlock()
	return ps
}

// readRules reads one ignore file; base is its directory relative to the
// top. A missing file has no rules; an unreadable file or a bad line is a
// problem.
func (m *Matcher) readRules(file, base string) []Pattern {
	data, err := os.ReadFile(file)
	if err != nil {
		if !missing(err) {
			m.addProblem(analyze.Problem{Kind: analyze.ProblemDegraded, Path: m.display(file), Msg: "ignore file unreadable, its rules do not apply: " + err.Error()})
		}
		return nil
	}
	src := m.display(file)
	var out []Pattern
	for i, line := range strings.Split(string(data), "\n") {
		if i == 0 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		p, ok, err := ParsePattern(line, base)
		if err != nil {
			m.addProblem(analyze.Problem{Kind: analyze.ProblemDegraded, Path: src, Line: i + 1, Msg: "ignore pattern dropped: " + err.Error()})
			continue
		}
		if ok {
			p.Source, p.Line = src, i+1
			out = append(out, p)
		}
	}
	return out
}

// missing reports an error that means "no such file here".
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// display names a file relative to the root, for problems and sources.
func (m *Matcher) display(file string) string {
	if rel, err := filepath.Rel(m.root, file); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}

func (m *Matcher) addProblem(p analyze.Problem) {
	m.mu.Lock()
	m.problems = append(m.problems, p)
	m.mu.Unlock()
}

// Problems returns what went wrong reading ignore files so far, sorted.
func (m *Matcher) Problems() []analyze.Problem {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	out := append([]analyze.Problem(nil), m.problems...)
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Msg < out[j].Msg
	})
	// A directory read twice by racing goroutines reports twice.
	return slices.Compact(out)
}
