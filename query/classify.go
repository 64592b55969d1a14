package query

import (
	"path"
	"strings"
	"unicode"
)

// areaPrefix is the "area: " or conventional-commit "type(scope): " head of
// a query written like a commit message.
type areaPrefix struct {
	areas []string
	conv  string // conventional commit type: "feat", "fix"…
	end   int    // byte offset just past the prefix; 0 when there is none
}

var (
	bracketArea = lazyRegexp(`^\s*\[([a-z0-9][a-z0-9_.\-/]*)\][ \t]+\S`)
	convCommit  = lazyRegexp(`(?i)^\s*(feat|feature|fix|bugfix|hotfix|refactor|perf|test|tests|docs|doc|chore|build|ci|style|revert)(?:\(([^)\n]{1,80})\))?!?:[ \t]+`)
	goArea      = lazyRegexp(`^\s*([a-z0-9][a-z0-9_.\-/]*(?:[ \t]*,[ \t]*[a-z0-9][a-z0-9_.\-/]*)*):[ \t]+\S`)
)

// notAreas are lower-case words that end in a colon at the start of a query
// without naming a package: headings and log levels.
var notAreas = setOf(`panic error warning warn note fatal todo fixme bug question context
summary goal task problem update edit ps hint example expected actual steps repro
output input result results thread goroutine stack info debug trace log logs
description details background motivation solution answer reason why how what
http https file`)

// parseAreaPrefix reads the area prefix of the first line: "xdsclient: …",
// "tsdb/wlog: …", "net/http, net/url: …", "nu-command: …", "[nu-cli] …",
// or a conventional commit head "fix(auth): …".
func parseAreaPrefix(text string) areaPrefix {
	if m := convCommit().FindStringSubmatchIndex(text); m != nil {
		a := areaPrefix{conv: strings.ToLower(text[m[2]:m[3]]), end: m[1]}
		if m[4] >= 0 {
			for _, s := range strings.FieldsFunc(text[m[4]:m[5]], func(r rune) bool { return r == ',' || r == ' ' }) {
				if s = strings.ToLower(s); validArea(s) {
					a.areas = append(a.areas, s)
				}
			}
		}
		return a
	}
	if m := bracketArea().FindStringSubmatchIndex(text); m != nil && validArea(text[m[2]:m[3]]) {
		return areaPrefix{areas: []string{text[m[2]:m[3]]}, end: m[3] + 1} // "[nu-cli] fix …"
	}
	m := goArea().FindStringSubmatchIndex(text)
	if m == nil {
		return areaPrefix{}
	}
	var areas []string
	for _, s := range strings.Split(text[m[2]:m[3]], ",") {
		s = strings.TrimSpace(s)
		if !validArea(s) {
			return areaPrefix{}
		}
		areas = append(areas, s)
	}
	return areaPrefix{areas: areas, end: m[3] + 1}
}

func validArea(s string) bool {
	s = strings.Trim(s, "/")
	if s == "" || notAreas[s] || IsStopWord(s) || fileExts[path.Ext(s)] || strings.Contains(s, "..") {
		return false
	}
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// actionVerbs maps the verbs that state a task to its action.
var actionVerbs = func() map[string]Action {
	m := map[string]Action{}
	for a, words := range map[Action]string{
		ActionDebug:    `fix fixes fixing debug debugging investigate diagnose troubleshoot repair resolve`,
		ActionRefactor: `refactor refactoring rename extract simplify restructure reorganize reorganise split dedupe deduplicate decouple consolidate unify move cleanup`,
		ActionCreate:   `add adding implement implementing create introduce build write support design scaffold`,
		ActionTest:     `test cover unittest`,
		ActionExplain:  `explain understand describe document summarize summarise overview`,
		ActionSearch:   `find search locate list grep show`,
		ActionModify: `update change modify make replace remove delete bump upgrade improve optimize optimise
			speed increase decrease reduce allow handle avoid prevent switch migrate convert enable disable
			port tweak adjust drop deprecate expose limit`,
	} {
		for _, w := range strings.Fields(words) {
			m[w] = a
		}
	}
	return m
}()

// conventionalActions maps conventional commit types to actions.
var conventionalActions = map[string]Action{
	"feat": ActionCreate, "feature": ActionCreate, "fix": ActionDebug, "bugfix": ActionDebug,
	"hotfix": ActionDebug, "refactor": ActionRefactor, "perf": ActionModify, "test": ActionTest,
	"tests": ActionTest, "docs": ActionExplain, "doc": ActionExplain, "chore": ActionModify,
	"build": ActionModify, "ci": ActionModify, "style": ActionRefactor, "revert": ActionModify,
}

var (
	failureRe    = lazyRegexp(`(?i)\b(?:fail(?:s|ed|ing|ure)?|errors?|crash(?:es|ed|ing)?|panic(?:s|ked)?|broken|wrong|race|racy|deadlocks?|leaks?|hangs?|stuck|flaky|regression|segfault|nil (?:pointer|dereference|map|deref)|null pointer|dereferenc(?:e|es|ing)|overflow|underflow|off-by-one|data loss|memory leak|corrupt(?:s|ed|ion)?|incorrect|unexpected(?:ly)?|doesn't work|not working|[45]\d\d)\b`)
	crossRe      = lazyRegexp(`(?i)\b(?:all|every|everywhere|across|throughout|entire|whole|codebase|project-wide|globally)\b`)
	packageRe    = lazyRegexp(`(?i)\b(?:package|module|crate|pkg|subsystem|layer|component)\b`)
	entryRe      = lazyRegexp(`(?i)\bentry ?points?\b|\bmain(?:\(\)| function\b| func\b| package\b)|\b(?:fn|func) main\b|\bstart(?:s|ed|ing|up)?\b|\bboot(?:strap|straps|s)?\b|\binitiali[sz](?:e|es|ed|ation)\b|\blifecycle\b|\b(?:control |request |data )?flows?\b|\bwalk (?:me )?through\b|\bend.to.end\b|\bhow (?:does|do|is|are) .{1,60}\b(?:work|run|begin|happen)s?\b`)
	noTestsRe    = lazyRegexp(`(?i)\b(?:no|without|exclude|excluding|skip|skipping|ignore|ignoring|not|minus)\s+(?:the\s+|any\s+)?(?:unit\s+)?tests?\b|\bnon-tests?\b|--no-tests\b`)
	testNounRe   = lazyRegexp(`(?i)^(?:unit|integration|regression|e2e|fuzz|table|golden)?\s*tests?\b|^(?:a|an|the|some|more)\s+(?:\w+\s+)?tests?\b|^coverage\b`)
	wordSplitter = lazyRegexp(`[\pL\pN_'’-]+`)
)

// classify fills in the plan's action, scope, complexity, strategy, depth
// and test preference from what the builder found.
//
// In a text of several lines (a bug report), the scope and the strategy
// follow from its title line alone: the description's incidental "all",
// "started" or "flow" say nothing about the task's reach.
func classify(p *Plan, prose string, area areaPrefix) {
	body := prose[area.end:]
	p.Action = detectAction(p, body, area)
	gist := body
	if i := strings.IndexByte(body, '\n'); i >= 0 && strings.TrimSpace(body[i:]) != "" {
		gist = body[:i]
	}

	hasFocus := false
	for _, e := range p.Entities {
		if e.Kind == EntitySymbol || (e.Kind == EntityPath && path.Ext(e.Raw) != "") {
			hasFocus = true
		}
	}
	for _, r := range p.Refs {
		if r.Kind == RefSymbol || r.Kind == RefFile {
			hasFocus = true
		}
	}
	cross := crossRe().MatchString(gist)
	switch {
	case hasFocus && !cross:
		p.Scope = ScopeFocused
	case cross:
		p.Scope = ScopeCodebase
	case len(p.Areas) > 0 || len(p.Paths) > 0 || packageRe().MatchString(gist):
		p.Scope = ScopeModule
	case p.Action == ActionCreate:
		p.Scope = ScopeCodebase
	default:
		p.Scope = ScopeModule
	}

	p.Complexity = complexity(p, gist, cross)

	words := 0
	for _, t := range p.Terms {
		if t.Kind == TermWord {
			words++
		}
	}
	entry := entryRe().MatchString(gist)
	switch {
	case entry && hasFocus:
		p.Strategy = "focused+entrypoint"
	case entry:
		p.Strategy = "entrypoint"
	case hasFocus && (p.Action == ActionRefactor || p.Scope == ScopeCodebase):
		p.Strategy = "focused+broad"
	case hasFocus && words >= 3 && p.Action != ActionSearch:
		p.Strategy = "focused+semantic"
	case hasFocus:
		p.Strategy = "focused"
	case len(p.Terms) == 0:
		p.Strategy = "broad"
	case p.Scope == ScopeCodebase || p.Action == ActionRefactor:
		p.Strategy = "broad+semantic"
	default:
		p.Strategy = "semantic"
	}

	p.Depth = 2
	switch {
	case p.Action == ActionSearch && hasFocus:
		p.Depth = 1
	case entry, strings.Contains(p.Strategy, "broad"), p.Action == ActionRefactor:
		p.Depth = 3
	}
	p.IncludeTests = !noTestsRe().MatchString(prose)
}

// detectAction decides what the user wants to do. Pasted traces mean
// debugging; a conventional commit type says it outright; then questions
// ("why does…", "how does…") and the first action verb decide; a modify
// verb next to failure words ("avoid data race") is a fix.
func detectAction(p *Plan, body string, area areaPrefix) Action {
	if len(p.Frames) > 0 {
		return ActionDebug
	}
	if a, ok := conventionalActions[area.conv]; ok {
		return a
	}
	failing := failureRe().MatchString(body) || len(p.Errors) > 0
	words := wordSplitter().FindAllString(strings.ToLower(body), 64)
	if len(words) > 0 {
		if a, ok := questionAction(words); ok {
			if a == ActionExplain && failing && words[0] == "why" {
				return ActionDebug
			}
			return a
		}
	}
	for i, w := range words {
		a, ok := actionVerbs[w]
		if !ok {
			continue
		}
		rest := strings.Join(words[i+1:min(i+5, len(words))], " ")
		switch {
		case a == ActionCreate && testNounRe().MatchString(rest):
			return ActionTest
		case a == ActionTest && i > 0 && words[i-1] == "the":
			continue // "the test" is a noun
		case a == ActionModify && failing:
			return ActionDebug
		case (a == ActionSearch || a == ActionModify) && i > 0 && isArticle(words[i-1]):
			continue // "the list", "a change": nouns
		}
		return a
	}
	switch {
	case failing:
		return ActionDebug
	case strings.Contains(body, "?"):
		return ActionExplain
	case len(p.Entities) > 0 && countWordTerms(p) == 0:
		return ActionSearch
	}
	return ActionModify
}

func isArticle(w string) bool {
	return w == "a" || w == "an" || w == "the" || w == "this" || w == "that"
}

// questionAction reads the opening of a question: "why does…" is a
// failure to explain, "how does…" a request to explain, "where is…" a
// search, "how do I add…" whatever the verb after it says.
func questionAction(words []string) (Action, bool) {
	first := words[0]
	second := ""
	if len(words) > 1 {
		second = words[1]
	}
	switch first {
	case "why":
		return ActionDebug, true
	case "where", "which":
		return ActionSearch, true
	case "who":
		return ActionSearch, true
	case "what":
		return ActionExplain, true
	case "how":
		switch second {
		case "to", "can", "should", "would", "could", "might":
			for _, w := range words[2:] {
				if a, ok := actionVerbs[w]; ok {
					return a, true
				}
			}
			return ActionModify, true
		case "do":
			if len(words) > 2 && (words[2] == "i" || words[2] == "we" || words[2] == "you") {
				for _, w := range words[3:] {
					if a, ok := actionVerbs[w]; ok {
						return a, true
					}
				}
				return ActionModify, true
			}
		}
		return ActionExplain, true
	case "is", "are":
		if second == "there" {
			return ActionSearch, true
		}
	}
	return "", false
}

func countWordTerms(p *Plan) int {
	n := 0
	for _, t := range p.Terms {
		if t.Kind == TermWord {
			n++
		}
	}
	return n
}

// complexity estimates the size of the task from 1 (a one-line fix) to 5
// (a cross-cutting feature).
func complexity(p *Plan, body string, cross bool) int {
	c := 2
	switch p.Action {
	case ActionSearch:
		c = 1
	case ActionRefactor, ActionCreate:
		c = 3
	}
	switch p.Scope {
	case ScopeFocused:
		c--
	case ScopeCodebase:
		c++
	}
	if cross {
		c++
	}
	symbols := 0
	for _, e := range p.Entities {
		if e.Kind == EntitySymbol {
			symbols++
		}
	}
	if symbols >= 3 {
		c++
	}
	if len(strings.Fields(body)) > 40 && len(p.Frames) == 0 {
		c++
	}
	return max(1, min(5, c))
}
