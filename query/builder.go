package query

import (
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// builder accumulates a plan's terms, entities, paths and errors,
// deduplicating as it goes.
type builder struct {
	p        *Plan
	termIdx  map[string]int
	entities map[string]bool
	paths    map[string]bool
	errs     map[string]bool
}

func newBuilder(p *Plan) *builder {
	return &builder{p: p, termIdx: map[string]int{}, entities: map[string]bool{}, paths: map[string]bool{}, errs: map[string]bool{}}
}

// addTerm records a term; a repeated term keeps its first position and the
// larger weight (with that weight's kind).
func (b *builder) addTerm(text string, kind TermKind, w float64) {
	if text == "" || len(text) > maxTermLen {
		return
	}
	if i, ok := b.termIdx[text]; ok {
		if t := &b.p.Terms[i]; w > t.Weight {
			t.Weight, t.Kind = w, kind
		}
		return
	}
	if len(b.p.Terms) >= maxTerms {
		return
	}
	b.termIdx[text] = len(b.p.Terms)
	b.p.Terms = append(b.p.Terms, Term{Text: text, Weight: w, Kind: kind})
}

// addWord adds one prose word unless it is a stop word or noise.
func (b *builder) addWord(w string) {
	w = strings.ToLower(w)
	if len(w) < 2 || IsStopWord(w) {
		return
	}
	if isNumber(w) {
		if len(w) >= 3 && len(w) <= 6 { // status codes, ports, error numbers
			b.addTerm(w, TermWord, weightNumber)
		}
		return
	}
	b.addTerm(NormTerm(w), TermWord, weightWord)
}

// addWords splits text into words at anything but letters and digits and
// adds each. Contractions ("doesn't") are function words and are dropped.
func (b *builder) addWords(text string) {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	}) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		w = strings.Trim(w, "'’")
		if strings.ContainsAny(w, "'’") {
			continue
		}
		b.addWord(w)
	}
}

// addIdentTerms adds an identifier whole (NormName, not stemmed: it is
// matched against the NormName of symbol names) and its stemmed parts.
func (b *builder) addIdentTerms(id string, w float64) {
	if !functionWords[strings.ToLower(id)] {
		if n := analyze.NormName(id); len(n) >= 2 {
			b.addTerm(n, TermIdent, w)
		}
	}
	for _, part := range TermsOf(id) {
		if len(part) >= 2 && !isNumber(part) {
			b.addTerm(part, TermIdentPart, weightIdentPt)
		}
	}
}

// addEntity records an entity once per (kind, raw).
func (b *builder) addEntity(e Entity) bool {
	key := string(rune('0'+e.Kind)) + e.Raw
	if e.Raw == "" || b.entities[key] || len(b.p.Entities) >= maxEntities {
		return false
	}
	b.entities[key] = true
	b.p.Entities = append(b.p.Entities, e)
	return true
}

func (b *builder) addSymbol(raw string, parts []string, explicit bool) {
	w := weightIdent
	if explicit {
		w = weightExplicit
	}
	b.addEntity(Entity{Raw: raw, Kind: EntitySymbol, Parts: parts, Explicit: explicit})
	for _, part := range parts {
		b.addIdentTerms(part, w)
	}
}

// addPath records a path mentioned in prose and its meaningful segments as
// terms; file refs give terms but are not Paths.
func (b *builder) addPath(p string, mention bool) {
	clean := strings.TrimPrefix(p, "./")
	if mention {
		if !b.paths[clean] && len(b.p.Paths) < maxPaths {
			b.paths[clean] = true
			b.p.Paths = append(b.p.Paths, clean)
		}
		b.addEntity(Entity{Raw: p, Kind: EntityPath, Parts: pathParts(p)})
	}
	for _, seg := range pathParts(clean) {
		seg = strings.TrimSuffix(seg, path.Ext(seg))
		if genericPathParts[seg] {
			continue
		}
		for _, t := range TermsOf(seg) {
			if len(t) >= 2 && !genericPathParts[t] && !IsStopWord(t) {
				b.addTerm(t, TermPath, weightPath)
			}
		}
	}
}

func (b *builder) addArea(a string) {
	b.p.Areas = append(b.p.Areas, a)
	for _, seg := range strings.Split(a, "/") {
		if seg == "" || genericPathParts[seg] {
			continue
		}
		b.addTerm(analyze.NormName(seg), TermArea, weightArea)
		if parts := TermsOf(seg); len(parts) > 1 {
			for _, t := range parts {
				if len(t) >= 2 {
					b.addTerm(t, TermArea, weightArea/2)
				}
			}
		}
	}
}

func (b *builder) addRef(r Ref) {
	switch r.Kind {
	case RefSymbol:
		parts := trimPathKeywords(symbolParts(r.Value))
		b.addSymbol(r.Value, parts, true)
	case RefFile:
		b.addPath(r.Value, false)
	case RefSearch:
		if analyze.IsIdent(r.Value) {
			b.addIdentTerms(r.Value, weightIdent)
		} else {
			b.addWords(r.Value)
		}
	case RefGrep:
		// The identifiers spelled out in a pattern are what it looks for.
		for _, m := range grepWords.FindAllStringSubmatch(r.Value, -1) {
			if !codeKeywords[m[1]] {
				b.addWord(m[1])
			}
		}
	}
}

var grepWords = regexp.MustCompile(`(?:^|[^\\\pL])([\pL_][\pL\pN_]{2,})`)

// codeKeywords are Go and Rust keywords, which patterns spell out but which
// name nothing.
var codeKeywords = setOf(`func type struct interface package import return var const
go defer chan select range map fn impl pub let mut trait enum use mod crate self
Self super where async await dyn match loop`)

func (b *builder) addError(msg string) {
	msg = strings.TrimSpace(msg)
	if msg == "" || b.errs[msg] {
		return
	}
	for i, e := range b.p.Errors {
		switch {
		case strings.Contains(e, msg):
			return // "error: x" inside a panic message already kept
		case strings.Contains(msg, e):
			b.p.Errors[i] = msg
			b.errs[msg] = true
			return
		}
	}
	if len(b.p.Errors) >= maxErrors {
		return
	}
	if len(msg) > maxErrorLen {
		cut := maxErrorLen
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut]
	}
	b.errs[msg] = true
	b.p.Errors = append(b.p.Errors, msg)
}

var (
	// quoted is a quoted string in prose: an error message, usually.
	// Single quotes count only as a pair around a phrase, so that
	// apostrophes ("doesn't") do not.
	quoted       = regexp.MustCompile(`["“]([^"“”\n]{3,300})["”]`)
	singleQuoted = regexp.MustCompile(`(?:^|[\s(\[:=,])['‘]([^'‘’\n]{3,300})['’](?:$|[\s).,;:!?\]])`)
	// issueRef is "#1234" or "(#1234)": an issue number, not a term.
	issueRef = regexp.MustCompile(`^\(?#\d+\)?[.,;:]?$`)
	// errorLine is an "error: ..." line from a compiler or a log.
	errorLine = regexp.MustCompile(`(?mi)(?:^|\s)(?:error(?:\[E\d+\])?|fatal error|fatal|err): ([^\n]{3,})$`)
)

// addErrorsFrom collects quoted strings and "error: ..." messages.
func (b *builder) addErrorsFrom(prose string) {
	type hit struct {
		at  int
		msg string
	}
	var hits []hit
	for _, re := range []*regexp.Regexp{quoted, singleQuoted} {
		for _, m := range re.FindAllStringSubmatchIndex(prose, -1) {
			hits = append(hits, hit{m[2], prose[m[2]:m[3]]})
		}
	}
	for _, m := range errorLine.FindAllStringSubmatchIndex(prose, -1) {
		hits = append(hits, hit{m[2], prose[m[2]:m[3]]})
	}
	// In order of appearance.
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].at < hits[j-1].at; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	for _, h := range hits {
		b.addError(h.msg)
	}
}
