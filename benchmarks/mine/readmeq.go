package main

// Pseudo-questions from documentation (-shape readme): a section of a
// repository's markdown (a README, a file under docs/, a design note)
// that names source code — a path, or a declared name in code marks —
// becomes a question whose answers are the files it names. The question
// is the section's heading or its first sentence, with the names taken
// out so that it cannot be found by name. Unlike a doc comment, a
// section is about a concept ("Graceful shutdown", "Route groups") and
// often spans files, which is what hand-written questions look like.
//
// A section's markdown is not source, so the question is asked at the
// mined head as it is: nothing the ranker reads holds the question's
// words verbatim because of how it was made.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/eval"
)

// Rejections of a markdown section as a pseudo-question.
const (
	rejectNoAnswer      = "names no source file"
	rejectManyAnswers   = "names too many files"
	rejectNoQuestion    = "no heading or sentence to ask"
	rejectSameQuestion  = "same question elsewhere"
	maxSectionAnswers   = 4
	maxDeclFiles        = 2 // a name declared in more files names none of them
	minHeadingContent   = 2
	maxHeadingWords     = 10
	minReferencedLength = 3
)

// mdSection is one section of a markdown file: its heading and the
// lines up to the next heading, code blocks left out.
type mdSection struct {
	File    string
	N       int // the section's place in its file, from 0
	Heading string
	Lines   []string
}

var (
	codeSpan   = regexp.MustCompile("`([^`\n]+)`")
	mdLinkFull = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)\)`)
	atxHeading = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	identPart  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// blobURL is a link to a file of a GitHub repository at some ref.
	blobURL = regexp.MustCompile(`^https?://github\.com/([^/]+/[^/]+)/(?:blob|tree)/[^/]+/(.+)$`)
)

// mineReadme makes pseudo-questions from the markdown sections of the
// tree at spec's head: at most opt.MaxPerRepo, chosen by the SHA-256 of
// their ids, in path order.
func mineReadme(ctx context.Context, gitDir string, spec repoSpec, opt options) (repoResult, error) {
	res, tmp, err := exportHead(ctx, gitDir, spec, func(p string) bool { return exported(p) || docFile(p) })
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)
	decls, sources, err := declIndex(ctx, tmp, spec.Lang)
	if err != nil {
		return res, err
	}
	var sections []mdSection
	err = filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(tmp, p)
		rel = filepath.ToSlash(rel)
		if !docFile(rel) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sections = append(sections, splitSections(rel, string(src))...)
		return nil
	})
	if err != nil {
		return res, err
	}
	res.Walked = len(sections)
	type cand struct {
		inst eval.Instance
		key  string
	}
	var cands []cand
	seen := map[string]int{}
	qs := make([]string, len(sections))
	answers := make([][]string, len(sections))
	for i, s := range sections {
		files, names := sectionAnswers(s, spec.Repo, decls, sources)
		switch {
		case len(files) == 0:
			res.Rejects[rejectNoAnswer]++
			continue
		case len(files) > maxSectionAnswers:
			res.Rejects[rejectManyAnswers]++
			continue
		}
		q := sectionQuestion(s, names, spec.Repo+"\x00"+s.File+"\x00"+s.Heading)
		if q == "" {
			res.Rejects[rejectNoQuestion]++
			continue
		}
		qs[i], answers[i] = q, files
		seen[sentenceKey(q)]++
	}
	for i, s := range sections {
		if qs[i] == "" {
			continue
		}
		if seen[sentenceKey(qs[i])] > 1 {
			res.Rejects[rejectSameQuestion]++
			continue
		}
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d\x00%s", spec.Repo, s.File, s.N, s.Heading)))
		key := hex.EncodeToString(sum[:])
		cands = append(cands, cand{key: key, inst: eval.Instance{
			ID: spec.Repo + "@md-" + key[:10], Repo: spec.Repo, Lang: spec.Lang,
			Commit: res.Head, Base: res.Head, Query: qs[i],
			GoldFiles: answers[i], TestFiles: []string{}, Kind: "question",
			NSourceFilesAtBase: len(sources), Subject: s.File + " # " + s.Heading,
		}})
	}
	res.Eligible = len(cands)
	slices.SortFunc(cands, func(a, b cand) int { return strings.Compare(a.key, b.key) })
	for _, c := range cands {
		if opt.MaxPerRepo > 0 && len(res.Instances) >= opt.MaxPerRepo {
			break
		}
		res.Instances = append(res.Instances, c.inst)
	}
	slices.SortFunc(res.Instances, func(a, b eval.Instance) int {
		return strings.Compare(a.Subject+"\x00"+a.ID, b.Subject+"\x00"+b.ID)
	})
	return res, nil
}

// docFile says whether a path is markdown that may describe the code: not
// a changelog, a licence, a template or a policy, nor vendored or test
// data.
func docFile(p string) bool {
	if !strings.HasSuffix(strings.ToLower(p), ".md") || strings.HasPrefix(p, ".github/") {
		return false
	}
	switch analyze.Classify(p) {
	case analyze.CatVendored, analyze.CatTest, analyze.CatGenerated:
		return false
	}
	base := strings.ToLower(strings.TrimSuffix(path.Base(p), path.Ext(p)))
	for _, skip := range []string{"changelog", "changes", "history", "news", "release", "license", "licence", "copying",
		"migrat", "upgrad", "api_changes", "whats_new", "what's_new", "version", "claude", "agents",
		"code_of_conduct", "code-of-conduct", "security", "contributing", "authors", "maintainers", "governance",
		"support", "pull_request_template", "issue_template", "funding", "codeowners", "third_party", "notice"} {
		if strings.HasPrefix(base, skip) {
			return false
		}
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if locale.MatchString(d) {
			return false // a translation: questions are asked in English
		}
		switch strings.ToLower(d) {
		case "changelog", "changelogs", "releases", "release-notes", "release_notes", "release notes", "reports",
			"migration", "migrations", "node_modules", ".claude":
			return false
		}
	}
	return true
}

// locale matches a directory that holds a translation: "de-DE", "pt_BR",
// "zh", "ja".
var locale = regexp.MustCompile(`^([a-z]{2}[-_][A-Z]{2}|zh|ja|ko|fr|de|es|pt|ru|it|tr|vi|uk|pl|zh-hans|zh-hant)$`)

// splitSections cuts markdown into sections at its ATX headings ("## …"),
// leaving fenced code blocks and HTML lines out of their lines. Text
// before the first heading is a section with an empty heading.
func splitSections(file, src string) []mdSection {
	var out []mdSection
	cur := mdSection{File: file}
	fence := ""
	flush := func() {
		if cur.Heading != "" || len(cur.Lines) > 0 {
			cur.N = len(out)
			out = append(out, cur)
		}
	}
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if m := atxHeading.FindStringSubmatch(t); m != nil && !strings.HasPrefix(line, "    ") {
			flush()
			cur = mdSection{File: file, Heading: m[2]}
			continue
		}
		if strings.HasPrefix(t, "<") {
			continue
		}
		cur.Lines = append(cur.Lines, line)
	}
	flush()
	return out
}

// declIndex maps the names declared in the source files under root (the
// askable ones: not tests, examples, vendored or generated) to the files
// that declare them, methods also under "Type.method" (Go) or
// "Type::method" (Rust); it returns the source files too.
func declIndex(ctx context.Context, root, lang string) (map[string][]string, map[string]bool, error) {
	idx := map[string][]string{}
	sources := map[string]bool{}
	add := func(name, file string) {
		if !slices.Contains(idx[name], file) {
			idx[name] = append(idx[name], file)
		}
	}
	switch lang {
	case eval.LangGo:
		_, err := eachGoSource(ctx, root, 0, func(rel string, _ *token.FileSet, f *ast.File) {
			sources[rel] = true
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					add(d.Name.Name, rel)
					if d.Recv != nil && len(d.Recv.List) > 0 {
						if id, ok := baseIdent(d.Recv.List[0].Type); ok {
							add(id+"."+d.Name.Name, rel)
						}
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok {
							add(ts.Name.Name, rel)
						}
					}
				}
			}
		})
		if err != nil {
			return nil, nil, err
		}
	case eval.LangRust:
		facts, ok, _, err := rustSources(ctx, root)
		if err != nil {
			return nil, nil, err
		}
		for i, f := range facts.Files {
			if ok[i] {
				sources[f.Path] = true
			}
		}
		for _, s := range facts.Symbols {
			if s.Test || int(s.File) >= len(ok) || !ok[s.File] || !(s.Kind.IsCallable() || s.Kind.IsType()) {
				continue
			}
			file := facts.Files[s.File].Path
			add(s.Name, file)
			if s.Container != "" {
				add(s.Container+"::"+s.Name, file)
			}
		}
	}
	return idx, sources, nil
}

// baseIdent is a receiver type's name without pointers or type
// parameters.
func baseIdent(e ast.Expr) (string, bool) {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name, true
		default:
			return "", false
		}
	}
}

// sectionAnswers are the source files a section names, sorted: paths in
// code marks or links (relative to the markdown file or to the root, or
// a GitHub link into the repository), and names in code marks that are
// declared in at most maxDeclFiles files. names are the code marks that
// named a file, for the question to leave out.
func sectionAnswers(s mdSection, repo string, decls map[string][]string, sources map[string]bool) (files, names []string) {
	text := strings.Join(s.Lines, "\n")
	found := map[string]bool{}
	resolvePath := func(p string) bool {
		p = strings.TrimPrefix(strings.SplitN(p, "#", 2)[0], "./")
		if m := blobURL.FindStringSubmatch(p); m != nil {
			if !strings.EqualFold(m[1], repo) {
				return false
			}
			p = m[2]
		} else if strings.Contains(p, "://") {
			return false
		}
		for _, c := range []string{path.Join(path.Dir(s.File), p), path.Clean(strings.TrimPrefix(p, "/"))} {
			if sources[c] {
				found[c] = true
				return true
			}
		}
		return false
	}
	for _, m := range mdLinkFull.FindAllStringSubmatch(s.Heading+"\n"+text, -1) {
		if resolvePath(m[2]) {
			names = append(names, m[0]) // the whole link leaves the question
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(s.Heading+"\n"+text, -1) {
		span := strings.TrimSpace(m[1])
		if strings.HasSuffix(span, ".go") || strings.HasSuffix(span, ".rs") {
			if resolvePath(span) {
				names = append(names, span)
			}
			continue
		}
		if hit := declFiles(span, decls); len(hit) > 0 {
			for _, f := range hit {
				found[f] = true
			}
			names = append(names, span)
		}
	}
	for f := range found {
		files = append(files, f)
	}
	slices.Sort(files)
	return files, names
}

// declFiles resolves a code mark to the files declaring what it names:
// "Router", "Router.Group", "router::Router", "Group()", "&mut Builder".
// The most qualified form declared in at most maxDeclFiles files wins:
// "Type.method" first, then the method, then the type.
func declFiles(span string, decls map[string][]string) []string {
	span = strings.TrimSpace(strings.TrimLeft(span, "&*"))
	span = strings.TrimPrefix(span, "mut ")
	if i := strings.IndexAny(span, "(<[{ "); i >= 0 {
		span = span[:i]
	}
	sep := "."
	if strings.Contains(span, "::") {
		sep = "::"
	}
	parts := strings.Split(span, sep)
	for _, p := range parts {
		if !identPart.MatchString(p) {
			return nil
		}
	}
	if len(parts) == 1 && !distinctive(parts[0]) {
		return nil // `version`, `format`: a word as much as a name
	}
	var tries []string
	if n := len(parts); n >= 2 {
		tries = append(tries, parts[n-2]+"."+parts[n-1], parts[n-2]+"::"+parts[n-1])
	}
	tries = append(tries, parts[len(parts)-1])
	if n := len(parts); n >= 2 {
		tries = append(tries, parts[n-2])
	}
	for _, t := range tries {
		last := t[strings.LastIndexAny(t, ".:")+1:]
		if len(last) < minReferencedLength {
			continue
		}
		if fs := decls[t]; len(fs) > 0 && len(fs) <= maxDeclFiles {
			return fs
		}
	}
	return nil
}

// distinctive says whether a bare name in code marks is unlikely to be a
// plain word: it has a capital after its first letter or an underscore
// inside it (FindByEmail, find_by_email), or starts with a capital and is
// not in capitals throughout (Router, not README or PATH).
func distinctive(name string) bool {
	if name == "" {
		return false
	}
	inner := strings.Trim(name, "_")
	if strings.Contains(inner, "_") {
		return strings.ToUpper(inner) != inner
	}
	if len(name) > 1 && strings.ContainsAny(name[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ToUpper(name) != name {
		return true
	}
	return name[0] >= 'A' && name[0] <= 'Z' && strings.ToUpper(name) != name
}

// genericHeading are headings that name no concept of the code.
var genericHeading = map[string]bool{"installation": true, "install": true, "usage": true, "example": true,
	"examples": true, "license": true, "getting started": true, "quick start": true, "quickstart": true,
	"contributing": true, "features": true, "overview": true, "introduction": true, "documentation": true,
	"table of contents": true, "contents": true, "requirements": true, "building": true, "build": true,
	"testing": true, "tests": true, "status": true, "roadmap": true, "motivation": true, "faq": true,
	"credits": true, "authors": true, "acknowledgements": true, "acknowledgments": true, "support": true,
	"benchmarks": true, "performance": true, "related projects": true, "see also": true, "links": true,
	"notes": true, "summary": true, "background": true, "goals": true, "non-goals": true, "alternatives": true,
	"todo": true, "changelog": true, "development": true, "community": true, "sponsors": true, "api": true,
	"configuration": true, "options": true, "how to use": true, "what is it": true, "why": true}

// sectionQuestion makes the question a section asks: its heading as a
// concept ("how does request body limits work?") or its first sentence
// put as the doc miner puts one, picked by seed where both will do, with
// the names that gave its answers taken out. Empty when neither will do.
func sectionQuestion(s mdSection, names []string, seed string) string {
	h := cleanHeading(s.Heading, names)
	var sentence string
	for _, para := range strings.Split(strings.Join(s.Lines, "\n"), "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" || strings.HasPrefix(para, "[!") || strings.HasPrefix(para, "![") {
			continue
		}
		sentence = para
		break
	}
	var words []string
	if sentence != "" {
		sentence = dropNames(sentence, names)
		words = strings.Fields(firstSentence(sentence))
		for _, n := range names {
			if !strings.HasPrefix(n, "[") {
				words = withoutName(words, lastName(n), "func")
			}
		}
		if !sentenceOK(words) {
			words = nil
		}
	}
	sum := sha256.Sum256([]byte(seed))
	useHeading := h != "" && (len(words) == 0 || sum[1]%2 == 0)
	switch {
	case useHeading && questionWord[strings.Fields(h)[0]]:
		return h + "?" // "how to use a custom id", "why include …"
	case useHeading:
		return []string{"how does " + h + " work?", h, "where is " + h + " handled?"}[int(sum[2])%3]
	case len(words) > 0:
		return sentenceQuestion(words, seed)
	}
	return ""
}

// questionWord starts a heading that is already a question.
var questionWord = map[string]bool{"how": true, "what": true, "why": true, "where": true, "when": true, "which": true,
	"can": true, "does": true, "is": true}

// sentenceQuestion puts a section's first sentence as a question when it
// starts with a verb, as the doc miner does, and leaves any other
// sentence as it is, lower-cased: "how does <a whole sentence> work?"
// reads as no one writes.
func sentenceQuestion(words []string, seed string) string {
	first := strings.ToLower(words[0])
	if thirdPerson(first) || imperative[first] {
		return phrase(words, seed)
	}
	return strings.TrimRight(strings.Join(append([]string{first}, words[1:]...), " "), ".:;, ")
}

// cleanHeading is a heading in lower case without code marks that named
// answers, links, numbering or punctuation; empty when it is generic or
// names too little or too much.
func cleanHeading(h string, names []string) string {
	h = dropNames(h, names)
	h = mdLink.ReplaceAllString(h, "$1$2")
	h = strings.NewReplacer("`", "", "*", "", "_", " ", ":", " ", "#", " ").Replace(h)
	var words []string
	for _, w := range strings.Fields(h) {
		w = strings.Trim(w, ".,;!?()[]\"'")
		if w == "" || strings.Trim(w, "0123456789.") == "" {
			continue // "3.2" numbering
		}
		if !strings.ContainsFunc(w, func(r rune) bool { return r >= 'A' && r <= 'z' }) {
			continue // emoji and symbols
		}
		words = append(words, strings.ToLower(w))
	}
	for _, n := range names {
		if !strings.HasPrefix(n, "[") {
			words = withoutName(words, strings.ToLower(lastName(n)), "func")
		}
	}
	q := strings.Join(words, " ")
	if genericHeading[q] || len(words) > maxHeadingWords {
		return ""
	}
	if contentWords(words, genericWord) < minHeadingContent {
		return ""
	}
	return q
}

// genericWord are heading words that say what kind of text follows, not
// what the code does: a heading needs two content words besides them.
var genericWord = map[string]bool{"installation": true, "install": true, "installing": true, "usage": true,
	"example": true, "examples": true, "introduction": true, "overview": true, "release": true, "version": true,
	"changes": true, "changed": true, "breaking": true, "deprecated": true, "removed": true, "migration": true,
	"migrating": true, "guide": true, "documentation": true, "docs": true, "section": true, "notes": true,
	"potentially": true, "here": true, "getting": true, "started": true, "quick": true, "start": true, "basic": true,
	"basics": true, "advanced": true, "more": true, "about": true, "using": true}

// dropNames takes the links that named answers out of markdown text, and
// puts each code mark that did as its last name ("`server.Stop()`" →
// "Stop"), which withoutName then takes out with the article before it.
func dropNames(text string, names []string) string {
	for _, n := range names {
		if strings.HasPrefix(n, "[") {
			text = strings.ReplaceAll(text, n, "")
		} else {
			text = strings.ReplaceAll(text, "`"+n+"`", lastName(n))
		}
	}
	return text
}

// lastName is a code mark's last identifier: "Router::new()" → "new".
func lastName(span string) string {
	if i := strings.IndexAny(span, "(<[{ "); i >= 0 {
		span = span[:i]
	}
	return span[strings.LastIndexAny(span, ".:")+1:]
}

// sentenceOK applies the doc miner's rules to a sentence's words.
func sentenceOK(words []string) bool {
	return wordsReject(words) == "" && !isBoilerplate(strings.Join(words, " "))
}
