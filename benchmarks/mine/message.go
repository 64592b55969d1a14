package main

import (
	"regexp"
	"strings"
)

// A commit message becomes a query in two shapes:
//
//   - the commit shape (the dev split's): the cleaned subject, then the
//     first prose paragraph of the body, if there is one;
//   - the issue shape: the cleaned subject and the whole body, lines kept,
//     code blocks, logs and traces kept, with only what no reporter would
//     have written taken out (trailers, pull-request template sections that
//     describe the change rather than the problem, squash lists).
//
// Both remove pull-request and issue numbers, URLs, trailers and
// conventional-commit prefixes, and keep area prefixes such as "xds:".

// message is a commit message split into what the cleaners need.
type message struct {
	Subject string // the raw subject line (of the pull request, for a merge commit)
	Body    string // the raw body below it
	Kind    string // the conventional-commit type, lower-cased ("fix", "docs", …), or ""
	// Clean is the subject without prefixes, numbers and URLs.
	Clean string
	// Merge is set for a merge commit (GitHub or bors), whose author is
	// whoever or whatever merged it; BotBranch for one that merged a
	// dependency bot's branch.
	Merge, BotBranch bool
}

var (
	mergePRRe   = regexp.MustCompile(`^Merge pull request #\d+ from \S+`)
	mergeBorsRe = regexp.MustCompile(`^Merge #\d+(\s+#\d+)*\s*$`)
	borsTitleRe = regexp.MustCompile(`^\d+:\s+`)
	borsTailRe  = regexp.MustCompile(`\s+r=\S+(\s+a=\S+)?\s*$`)
	mergeOther  = regexp.MustCompile(`^Merge (branch|remote-tracking branch|tag|commit|remote branch) `)

	// (2.14) or (backport 2.10) before a subject.
	backportRe = regexp.MustCompile(`^\((v?\d+(\.\d+)+|[\w .-]*backport[\w .-]*)\)\s*`)
	// [FIXED], [ENHANCEMENT], [BUGFIX]: upper-case kind tags. Lower-case
	// bracketed words such as [cli] are areas and stay.
	kindTagRe = regexp.MustCompile(`^\[[A-Z][A-Z _/-]{2,}\]\s*`)
	// fix(scope)!: — removed whole, scope included, as the dev split does.
	conventionalRe = regexp.MustCompile(`(?i)^(fix|fixes|fixed|bugfix|bug|hotfix|feat|feature|chore|refactor|perf|docs?|test|tests|build|ci|style|revert|deps|security|improvement|enhancement|release)(\([^)]*\))?!?\s*:\s*`)

	// (fixes #12, #13), (#456), (closes owner/repo#7)
	parenRefRe = regexp.MustCompile(`(?i)\s*\(\s*((fix(es|ed)?|close[sd]?|resolve[sd]?|see|refs?|part of|related to|cf\.?)\s*:?\s*)?([\w.-]+/[\w.-]+)?#\d+(\s*(,|and)\s*([\w.-]+/[\w.-]+)?#\d+)*\s*\)`)
	bareRefRe  = regexp.MustCompile(`([\w.-]+/[\w.-]+)?#\d+\b|\bGH-\d+\b`)
	mdImageRe  = regexp.MustCompile(`!\[[^\]]*\]\([^)]*\)`)
	mdLinkRe   = regexp.MustCompile(`\[([^\]]+)\]\((https?://|#)[^)]*\)`)
	urlRe      = regexp.MustCompile(`<?https?://[^\s>)\]]*>?`)
	spaceParen = regexp.MustCompile(`\s+\)`)
	emptyParen = regexp.MustCompile(`\s\(\s*[,;:]?\s*\)`)
	// "()" after a name goes too: the dev split writes "Copy copies" for
	// "Copy() copies".
	callParens = regexp.MustCompile(`\(\)`)
	// "This fixes #12." keeps "This.", as in the dev split.
	verbRefRe  = regexp.MustCompile(`(?i)\b(fix(es|ed)?|close[sd]?|resolve[sd]?)\s+([\w.-]+/[\w.-]+)?#\d+`)
	spaceRe    = regexp.MustCompile(`[ \t]+`)
	spacePunct = regexp.MustCompile(` +([.,;:!?])(\s|$)`)

	htmlCommentRe = regexp.MustCompile(`(?s)<!--.*?-->`)
	trailerRe     = regexp.MustCompile(`(?i)^(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by|requested-by|approved-by|cc|change-id|pr-url|reviewed-on|release-note|changelog|issue|bug|fixes|fix|closes|close|resolves|refs|ref|see|related|part-of|backport-of|cherry-picked-from|original-commit|git-svn-id)\s*:`)
	refLineRe     = regexp.MustCompile(`(?i)^(fix(es|ed)?|close[sd]?|resolve[sd]?|refs?|see|related( to)?|part of|cc|addresses|this fixes|this closes|follow[- ]up (to|of)|supersedes|replaces)\b[^a-z]*(([\w.-]+/[\w.-]+)?#\d+|https?://\S+)[\s,.#\dA-Za-z/:-]*$`)
	headingRe     = regexp.MustCompile(`^\s{0,3}#{1,6}(\s|$)`)
	ruleRe        = regexp.MustCompile(`^\s*([-=*_]\s*){3,}$`)
	capsLabelRe   = regexp.MustCompile(`^[A-Z][A-Z _-]{2,}:\s*$`)
	checkboxRe    = regexp.MustCompile(`^\s*[-*+]\s+\[[ xX]\]`)
	bulletRe      = regexp.MustCompile(`^\s*([-*+•]|\d+[.)])\s+`)
	cherryRe      = regexp.MustCompile(`(?i)^\(cherry picked from commit [0-9a-f]+\)$`)
	fenceRe       = regexp.MustCompile("^\\s*(```|~~~)")
	squashSepRe   = regexp.MustCompile(`^-{5,}$`)
)

// parseMessage splits a raw commit message into subject and body,
// unwrapping GitHub and bors merge commits to the pull request's own title
// and description. ok is false for merges of branches and tags, which
// carry no description.
func parseMessage(raw string) (m message, ok bool) {
	raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\r", "\n")
	raw = strings.TrimLeft(raw, "\n")
	subject, body := splitSubject(raw)
	switch {
	case mergeOther.MatchString(subject):
		return m, false
	case mergePRRe.MatchString(subject), mergeBorsRe.MatchString(subject):
		rest := strings.TrimLeft(body, "\n")
		if strings.TrimSpace(rest) == "" {
			return m, false
		}
		m.Merge = true
		m.BotBranch = botRe.MatchString(subject)
		subject, body = splitSubject(rest)
		subject = borsTitleRe.ReplaceAllString(subject, "")
		subject = borsTailRe.ReplaceAllString(subject, "")
	}
	m.Subject = subject
	m.Body = body
	m.Clean, m.Kind = cleanSubject(subject)
	return m, m.Clean != ""
}

// splitSubject returns the first line of a message and its body: what
// follows the first blank line. Lines that continue the subject's
// paragraph belong to neither, as in the dev split.
func splitSubject(raw string) (subject, body string) {
	subject, rest, _ := strings.Cut(raw, "\n")
	if next, _, _ := strings.Cut(rest, "\n"); strings.TrimSpace(next) != "" {
		// The subject's paragraph goes on: the body starts after it.
		if i := strings.Index(rest, "\n\n"); i >= 0 {
			rest = rest[i:]
		} else {
			rest = ""
		}
	}
	return strings.TrimSpace(subject), rest
}

// cleanSubject removes backport markers, kind tags, a conventional-commit
// prefix, issue and pull-request numbers and URLs from a subject line. It
// returns the cleaned subject and the conventional-commit type, if any.
func cleanSubject(s string) (clean, kind string) {
	for {
		before := s
		s = backportRe.ReplaceAllString(s, "")
		s = kindTagRe.ReplaceAllString(s, "")
		if m := conventionalRe.FindStringSubmatch(s); m != nil {
			if kind == "" {
				kind = strings.ToLower(m[1])
			}
			s = s[len(m[0]):]
		}
		if s == before {
			break
		}
	}
	s = cleanInline(s)
	s = strings.TrimRight(s, " .:;,")
	return s, kind
}

// cleanInline removes numbers, links and URLs from one line of prose and
// normalises its spaces.
func cleanInline(s string) string {
	s = mdImageRe.ReplaceAllString(s, "")
	s = mdLinkRe.ReplaceAllString(s, "$1")
	s = parenRefRe.ReplaceAllString(s, "")
	s = verbRefRe.ReplaceAllString(s, "")
	s = urlRe.ReplaceAllStringFunc(s, urlTail)
	s = bareRefRe.ReplaceAllString(s, "")
	s = emptyParen.ReplaceAllString(s, "")
	s = callParens.ReplaceAllString(s, "")
	s = spaceRe.ReplaceAllString(s, " ")
	s = spacePunct.ReplaceAllString(s, "$1$2")
	s = spaceParen.ReplaceAllString(s, ")")
	return strings.TrimSpace(s)
}

// urlTail replaces a URL by the sentence punctuation that ended it: in
// "see https://x.y/z." the final dot belongs to the sentence.
func urlTail(u string) string {
	u = strings.TrimSuffix(u, ">")
	return u[len(strings.TrimRight(u, ".,;:!?'\"")):]
}

// droppable reports whether a body line carries nothing a reader of the
// query needs: trailers, issue references, headings, rules, template
// labels and checkboxes, cherry-pick notes.
func droppable(line string) bool {
	t := strings.TrimSpace(line)
	return trailerRe.MatchString(t) || refLineRe.MatchString(t) || headingRe.MatchString(t) ||
		ruleRe.MatchString(t) || capsLabelRe.MatchString(t) || checkboxRe.MatchString(t) ||
		cherryRe.MatchString(t)
}

// maxParagraph caps the body paragraph of a commit-shaped query, in bytes;
// a longer one is cut at the last sentence end before the cap.
const maxParagraph = 800

// firstParagraph returns the body's first prose paragraph, joined into one
// line and cleaned, or "" when the body opens with a list (a squash
// commit's list of its commits), a table, a code block or HTML.
func firstParagraph(body string) string {
	body = htmlCommentRe.ReplaceAllString(body, "")
	var para []string
	flush := func() bool { return len(para) > 0 }
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			if flush() {
				break
			}
			continue
		}
		if fenceRe.MatchString(t) {
			break
		}
		if droppable(t) {
			continue
		}
		if len(para) == 0 && (bulletRe.MatchString(t) || strings.HasPrefix(t, "|") ||
			strings.HasPrefix(t, "<") || strings.HasPrefix(t, ">")) {
			return ""
		}
		para = append(para, t)
	}
	p := cleanInline(strings.Join(para, " "))
	p = capSentences(p, maxParagraph)
	return strings.TrimRight(p, " :;,")
}

// capSentences shortens s to at most max bytes, at the end of a sentence
// when there is one, else at a word boundary.
func capSentences(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := s[:max]
	if i := strings.LastIndex(cut, ". "); i > max/3 {
		return cut[:i+1]
	}
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		return cut[:i]
	}
	return cut
}

// commitQuery is the dev split's query: the cleaned subject, then the
// body's first prose paragraph.
func commitQuery(m message) string {
	p := firstParagraph(m.Body)
	if p == "" || strings.EqualFold(p, m.Clean) {
		return m.Clean
	}
	sep := ". "
	if strings.HasSuffix(m.Clean, "?") || strings.HasSuffix(m.Clean, "!") {
		sep = " "
	}
	return m.Clean + sep + p
}

// solutionHeadingRe names pull-request template sections that say what the
// change does or how it was checked; an issue report holds none of them.
var solutionHeadingRe = regexp.MustCompile(`(?i)^\s{0,3}#{1,6}\s*(\W\s*)?(test(s|ing)?( plan| done)?|how (was|to|has) (this|it)? ?(been )?test(ed)?|checklist|changes( made| proposed)?|proposed changes|solution|implementation( details)?|approach|what (this|the) (pr|change) does|release notes?|changelog|screenshots?|ai (disclosure|usage)|notes? (for|to) reviewers?|reviewer notes?|additional (notes|context for reviewers)|documentation|breaking changes?|migration|benchmarks?|performance|user-facing changes|tests \+ formatting|after submitting)\b`)

// maxIssueQuery caps an issue-shaped query, in bytes.
const maxIssueQuery = 8000

// issueQuery is the issue shape: the cleaned subject, a blank line, then
// the body with its line structure, code blocks and logs kept. Removed:
// HTML comments, trailers and reference lines outside code blocks,
// checkboxes, sections under a heading about the change itself (tests,
// changes, checklist, release notes…), and everything after a squash
// separator (a line of dashes followed by the squashed commits' list).
func issueQuery(m message) string {
	body := htmlCommentRe.ReplaceAllString(m.Body, "")
	var out []string
	inFence, skipping := false, false
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimRight(line, " \t")
		t := strings.TrimSpace(line)
		if fenceRe.MatchString(t) {
			inFence = !inFence
			if !skipping {
				out = append(out, line)
			}
			continue
		}
		if inFence {
			if !skipping {
				out = append(out, line)
			}
			continue
		}
		if headingRe.MatchString(t) {
			skipping = solutionHeadingRe.MatchString(t)
			if !skipping {
				out = append(out, t)
			}
			continue
		}
		if squashSepRe.MatchString(t) {
			break // squash separator: the squashed commits' messages follow
		}
		if skipping || trailerRe.MatchString(t) || refLineRe.MatchString(t) ||
			checkboxRe.MatchString(t) || cherryRe.MatchString(t) {
			continue
		}
		out = append(out, cleanIssueLine(line))
	}
	text := strings.TrimSpace(collapseBlankLines(strings.Join(out, "\n")))
	q := m.Clean
	if text != "" {
		q += "\n\n" + text
	}
	if len(q) > maxIssueQuery {
		q = q[:maxIssueQuery]
		if i := strings.LastIndexByte(q, '\n'); i > maxIssueQuery/2 {
			q = q[:i]
		}
	}
	return strings.ToValidUTF8(q, "")
}

// cleanIssueLine removes URLs and reference numbers from a prose line of an
// issue body, keeping its indentation.
func cleanIssueLine(line string) string {
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	t := strings.TrimSpace(line)
	if t == "" {
		return ""
	}
	return indent + cleanInline(t)
}

// collapseBlankLines keeps at most one blank line in a row.
func collapseBlankLines(s string) string {
	var out []string
	blank := false
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == "" {
			if blank {
				continue
			}
			blank = true
			out = append(out, "")
			continue
		}
		blank = false
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
