package main

import (
	"regexp"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/eval"
)

// The rules a commit passes to become an instance. They follow the dev
// split's (../shared/bench/README.md) and are tested in filter_test.go.

// fixRe is the vocabulary of a fix: a commit is a candidate when its raw
// subject or the first paragraph of its body says one of these words.
// "handle", "error", "missing" and "correct" are in it because the dev
// split keeps commits such as "client: handle 1xx HTTP status HEADERS".
var fixRe = regexp.MustCompile(`(?i)\b(fix(es|ed|ing)?|bug(s|fix|fixes)?|hotfix|crash(es|ed|ing)?|panic(s|ked|king)?|regress(ion|ions|ed)?|broken|break(s|ing)?|incorrect(ly)?|wrong(ly)?|errors?|erroneous(ly)?|fail(s|ed|ing|ure|ures)?|issues?|handle[sd]?|handling|prevent(s|ed|ing)?|avoid(s|ed|ing)?|leak(s|ed|ing)?|deadlocks?|races?|data race|overflow(s|ed)?|underflow|hang(s|ing)?|stuck|missing|invalid|unexpected(ly)?|infinite|corrupt(s|ed|ion)?|mistaken(ly)?|segfault|nil pointer|null pointer|out of bounds|resolve[sd]?|correct(ly|ed|s|ion)?|workaround)\b`)

// skipKinds are conventional-commit types whose commits are not code fixes.
var skipKinds = map[string]bool{
	"docs": true, "doc": true, "test": true, "tests": true, "ci": true, "build": true,
	"chore": true, "style": true, "release": true, "deps": true, "revert": true,
}

// skipSubjectRe matches housekeeping subjects (after cleaning).
var skipSubjectRe = regexp.MustCompile(`(?i)^(revert\b|reapply\b|bump\b|release\b|prepare (for )?release|update (dependency|dependencies|deps|version|changelog)|upgrade (dependency|dependencies|deps)|v?\d+\.\d+(\.\d+)?\b|auto-?generated|regenerate|cargo update|go mod tidy)`)

// chore words: a short subject built around one of them is a lint, typo or
// formatting commit whose query names no behaviour.
var choreWordRe = regexp.MustCompile(`(?i)\b(typos?|lints?|linter|linting|clippy|rustfmt|gofmt|fmt|formatting|spelling|misspell(ed|ing)?|golangci(-lint)?|vet|staticcheck|ci|flaky)\b`)

// botRe matches bot authors (dependency updaters, release bots).
var botRe = regexp.MustCompile(`(?i)\[bot\]|dependabot|renovate|github-actions|mergify|bors\b`)

// rejectReason says why a message is not a fix candidate, or "" when it is.
func rejectReason(m message, author string) string {
	switch {
	case m.BotBranch || (!m.Merge && botRe.MatchString(author)):
		return "bot author"
	case skipKinds[m.Kind]:
		return "conventional type " + m.Kind
	case skipSubjectRe.MatchString(m.Clean):
		return "housekeeping subject"
	case words(m.Clean) <= 5 && choreWordRe.MatchString(m.Clean):
		return "chore subject"
	}
	if !fixRe.MatchString(m.Subject) && !fixRe.MatchString(firstParagraph(m.Body)) {
		return "not fix-like"
	}
	return ""
}

// minQueryWords is the fewest words a commit-shaped query may have: "fix
// bug" and "fix typo" name nothing to look for.
const minQueryWords = 3

// words counts the words of s.
func words(s string) int { return len(strings.Fields(s)) }

// File limits of an instance.
const (
	maxGold    = 4 // modified source files: 1..maxGold
	maxAdded   = 2 // source files the fix added
	maxDropped = 1 // source files the fix deleted
	maxChanged = 40
)

// change is one file of a commit's diff against its first parent.
type change struct {
	Status byte // 'M', 'A', 'D' (renames are split into D and A), 'T'
	Path   string
}

// fileSets sorts a commit's changes into the dataset's fields; ok is false
// when the commit breaks a file limit.
type fileSets struct {
	Gold, Tests, Added, Dropped []string
}

// isTestFile reports a test file of lang: the language's extension under
// the benchmark's test rules (a scored source file it is not, but neither
// is it excluded or generated).
func isTestFile(p, lang string) bool {
	if eval.IsScoredSource(p, lang) {
		return false
	}
	ext := map[string]string{eval.LangGo: ".go", eval.LangRust: ".rs"}[lang]
	if !strings.HasSuffix(p, ext) {
		return false
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	if strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, "_test.rs") ||
		strings.HasSuffix(base, "_tests.rs") || base == "tests.rs" || base == "test.rs" ||
		base == "test_utils.rs" || base == "testutil.rs" {
		return true
	}
	for _, d := range strings.Split(p, "/") {
		switch d {
		case "test", "tests", "testdata", "testutil", "testutils", "integration", "e2e",
			"snapshots", "mock", "mocks", "fixture", "fixtures":
			return true
		}
		if strings.Contains(d, "-test-") || strings.HasSuffix(d, "-testing") {
			return true
		}
	}
	return false
}

// classify applies the file limits: 1..maxGold modified source files, at
// most maxAdded added and maxDropped deleted ones, at most maxChanged files
// changed in all.
func classify(changes []change, lang string) (fs fileSets, reason string) {
	if len(changes) > maxChanged {
		return fs, "too many files changed"
	}
	for _, c := range changes {
		switch {
		case eval.IsScoredSource(c.Path, lang):
			switch c.Status {
			case 'M':
				fs.Gold = append(fs.Gold, c.Path)
			case 'A':
				fs.Added = append(fs.Added, c.Path)
			case 'D':
				fs.Dropped = append(fs.Dropped, c.Path)
			default:
				return fs, "source file changed type"
			}
		case isTestFile(c.Path, lang) && c.Status != 'D':
			fs.Tests = append(fs.Tests, c.Path)
		}
	}
	switch {
	case len(fs.Gold) == 0:
		return fs, "no modified source file"
	case len(fs.Gold) > maxGold:
		return fs, "too many modified source files"
	case len(fs.Added) > maxAdded:
		return fs, "too many added source files"
	case len(fs.Dropped) > maxDropped:
		return fs, "too many deleted source files"
	}
	for _, s := range [][]string{fs.Gold, fs.Tests, fs.Added, fs.Dropped} {
		sort.Strings(s)
	}
	return fs, ""
}
