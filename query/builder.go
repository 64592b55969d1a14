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
	p         *Plan
	tw        TextWeights
	termIdx   map[string]int
	entityIdx map[string]int
	paths     map[string]bool
	errs      map[string]bool
	// mass is, per term, the sum of the block factors of its
	// occurrences: how much the text dwells on it (see finishTerms).
	mass map[string]float64
	// factor scales the weight of what the current block adds (1 for
	// prose); noWords keeps a block's plain words out (headings) and
	// noEntities its names out of the entities (foreign code).
	factor     float64
	noWords    bool
	noEntities bool
	block      blockKind // the kind of the block being read
	// full marks what is read where names are fully salient: a one-line
	// task, a report's title, @references and stack frames.
	full  bool
	multi bool // the text has several lines (finishEntities)
	// mentions are, per entity (by index), where and how often the text
	// names it (see finishEntities).
	mentions []mention
}

// mention is what the builder knows of an entity's mentions.
type mention struct {
	place float64 // the best place it was named in: 1 title, else the block's weight
	count float64 // how often, each mention weighed by its block's factor
	plain bool    // a plain word (no code style, no qualifier, no call)
}

func (b *builder) inOutput() bool { return b.block == blockOutput }

func newBuilder(p *Plan, tw TextWeights) *builder {
	return &builder{p: p, tw: tw, termIdx: map[string]int{}, entityIdx: map[string]int{}, paths: map[string]bool{},
		errs: map[string]bool{}, mass: map[string]float64{}, factor: 1, full: true}
}

// addTerm records a term, its weight scaled by the current block's
// factor; a repeated term keeps its first position and the larger weight
// (with that weight's kind), and adds to the term's mass.
func (b *builder) addTerm(text string, kind TermKind, w float64) {
	if text == "" || len(text) > maxTermLen {
		return
	}
	w *= b.factor
	if w <= 0 {
		return
	}
	if i, ok := b.termIdx[text]; ok {
		b.mass[text] += b.factor
		if t := &b.p.Terms[i]; w > t.Weight {
			t.Weight, t.Kind = w, kind
		}
		return
	}
	if len(b.p.Terms) >= maxCollect {
		return
	}
	b.mass[text] += b.factor
	b.termIdx[text] = len(b.p.Terms)
	b.p.Terms = append(b.p.Terms, Term{Text: text, Weight: w, Kind: kind})
}

// addWord adds one prose word unless it is a stop word or noise.
func (b *builder) addWord(w string) {
	if b.noWords {
		return
	}
	w = strings.ToLower(w)
	if len(w) < 2 || IsStopWord(w) {
		return
	}
	if isNumber(w) {
		if len(w) >= 3 && len(w) <= 6 && !b.inOutput() { // status codes, ports, error numbers
			b.addTerm(w, TermWord, weightNumber)
		}
		return
	}
	if noiseWord(w) {
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
	if noiseWord(strings.ToLower(id)) {
		return
	}
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
	if b.noEntities {
		return false
	}
	key := string(rune('0'+e.Kind)) + e.Raw
	if e.Raw == "" {
		return false
	}
	place := b.place()
	if i, ok := b.entityIdx[key]; ok {
		m := &b.mentions[i]
		m.place = max(m.place, place)
		m.count += b.factor
		return false
	}
	if len(b.p.Entities) >= maxEntities {
		return false
	}
	b.entityIdx[key] = len(b.p.Entities)
	b.p.Entities = append(b.p.Entities, e)
	plain := e.Kind == EntitySymbol && len(e.Parts) == 1 && !codeStyle(e.Parts[0]) && !strings.ContainsAny(e.Raw, "().:")
	b.mentions = append(b.mentions, mention{place: place, count: b.factor, plain: plain})
	return true
}

// place is the salience of a name in the block being read (see
// TextWeights): 1 in the title, else by the kind of block.
func (b *builder) place() float64 {
	switch {
	case b.full:
		return 1
	case b.block == blockProse, b.block == blockHeading:
		return b.tw.EntityProse
	}
	return b.tw.EntityCode
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
	if mention && !b.noEntities {
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
		for _, m := range grepWords().FindAllStringSubmatch(r.Value, -1) {
			if !codeKeywords[m[1]] {
				b.addWord(m[1])
			}
		}
	}
}

var grepWords = lazyRegexp(`(?:^|[^\\\pL])([\pL_][\pL\pN_]{2,})`)

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
	quoted       = lazyRegexp(`["“]([^"“”\n]{3,300})["”]`)
	singleQuoted = lazyRegexp(`(?:^|[\s(\[:=,])['‘]([^'‘’\n]{3,300})['’](?:$|[\s).,;:!?\]])`)
	// issueRef is "#1234" or "(#1234)": an issue number, not a term.
	issueRef = lazyRegexp(`^\(?#\d+\)?[.,;:]?$`)
	// errorLine is an "error: ..." line from a compiler or a log.
	errorLine = lazyRegexp(`(?mi)(?:^|\s)(?:error(?:\[E\d+\])?|fatal error|fatal|err): ([^\n]{3,})$`)
)

// addErrorsFrom collects quoted strings and "error: ..." messages.
func (b *builder) addErrorsFrom(prose string) {
	type hit struct {
		at  int
		msg string
	}
	var hits []hit
	for _, re := range []*regexp.Regexp{quoted(), singleQuoted()} {
		for _, m := range re.FindAllStringSubmatchIndex(prose, -1) {
			hits = append(hits, hit{m[2], prose[m[2]:m[3]]})
		}
	}
	for _, m := range errorLine().FindAllStringSubmatchIndex(prose, -1) {
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
