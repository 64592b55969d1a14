package query

import (
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Limits that keep a pasted log or a hostile query from making a huge plan.
const (
	// MaxQueryBytes is how much of a query is analysed; the rest is ignored
	// with a warning.
	MaxQueryBytes = 64 << 10
	maxTerms      = 96
	maxEntities   = 32
	maxPaths      = 32
	maxErrors     = 16
	maxErrorLen   = 300
	maxTermLen    = 64
	maxFrameSyms  = 5
)

// Local names for the exported weights (see edit.go).
const (
	weightIdent    = WeightIdent
	weightExplicit = WeightExplicit
	weightIdentPt  = WeightIdentPart
	weightArea     = WeightArea
	weightPath     = WeightPath
	weightWord     = WeightWord
	weightNumber   = WeightNumber
	weightSynonym  = WeightSynonym
)

// Analyze turns a task description into a Plan with heuristics alone: no
// model, no I/O, a few microseconds for a typical query. It never fails:
// any text, even empty or binary, gives a usable plan, with anything odd
// said in Plan.Warnings.
func Analyze(text string) *Plan {
	p := &Plan{Text: text, Planner: "heuristic"}
	work := text
	if len(work) > MaxQueryBytes {
		cut := MaxQueryBytes
		for cut > 0 && !utf8.RuneStart(work[cut]) {
			cut--
		}
		work = work[:cut]
		p.Warnings = append(p.Warnings, "query longer than 64 KiB: only its start was analysed")
	}
	if strings.TrimSpace(work) == "" {
		p.Warnings = append(p.Warnings, "empty query: describe the task, or name a symbol or a file")
	}
	refs, clean, errs := ParseRefs(work)
	p.Refs, p.Clean = refs, clean
	for _, err := range errs {
		p.Warnings = append(p.Warnings, err.Error())
	}

	b := newBuilder(p)
	tr := parseTraces(clean)
	prose := clean
	area := parseAreaPrefix(clean)
	if area.end > 0 {
		tr.spans = append(tr.spans, span{0, area.end})
	}
	prose = blankSpans(prose, tr.spans)

	for _, a := range area.areas {
		b.addArea(a)
	}
	for _, r := range refs {
		b.addRef(r)
	}
	for _, e := range tr.errors {
		b.addError(e)
	}
	b.addErrorsFrom(prose)
	b.scanProse(prose)
	b.addFrames(tr.frames)
	b.addSynonyms()

	p.Keywords = make([]string, len(p.Terms))
	for i, t := range p.Terms {
		p.Keywords[i] = t.Text
	}
	classify(p, prose, area)
	return p
}

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

// scanProse walks the prose in order: back-ticked code, then
// whitespace-separated chunks, each classified as code, path, URL or words.
func (b *builder) scanProse(prose string) {
	for i := 0; i < len(prose); {
		c := prose[i]
		if isBlank(c) {
			i++
			continue
		}
		if c == '`' {
			if end := strings.IndexAny(prose[i+1:], "`\n"); end >= 0 && prose[i+1+end] == '`' {
				b.addCode(prose[i+1 : i+1+end])
				i += end + 2
				continue
			}
		}
		j := i
		for j < len(prose) && !isBlank(prose[j]) && prose[j] != '`' {
			j++
		}
		if j == i { // a lone back-tick
			i++
			continue
		}
		b.addChunk(prose[i:j])
		i = j
	}
}

func (b *builder) addChunk(tok string) {
	if issueRef.MatchString(tok) {
		return
	}
	ch := classifyChunk(tok)
	switch ch.kind {
	case chunkSymbol:
		b.addSymbol(ch.raw, ch.parts, false)
	case chunkPath:
		b.addPath(ch.raw, true)
	case chunkURL:
	case chunkModule:
		// "golang.org/x/net": the packages it names, not the host.
		for _, seg := range ch.parts[1:] {
			b.addWords(seg)
		}
	default:
		b.addWords(tok)
	}
}

// addCode handles back-ticked code: a plain symbol or path becomes an
// explicit entity; other code becomes an EntityCode whose identifiers are
// terms, with its qualified or code-style names as explicit symbols.
func (b *builder) addCode(code string) {
	code = strings.TrimSpace(code)
	if code == "" {
		return
	}
	if p, ok := pathLike(code); ok {
		b.addPath(p, true)
		return
	}
	name, _ := stripCall(code)
	if name != "" && isSymbolPath(strings.TrimSuffix(name, "!")) {
		parts := trimPathKeywords(symbolParts(strings.TrimSuffix(name, "!")))
		b.addSymbol(name, parts, true)
		return
	}
	toks := codeTokens(code)
	b.addEntity(Entity{Raw: code, Kind: EntityCode, Parts: toks, Explicit: true})
	for _, t := range toks {
		if parts, ok := codeSymbol(t, false); ok {
			b.addSymbol(t, parts, true)
			continue
		}
		b.addIdentTerms(t, weightIdent)
	}
}

// addFrames records stack frames and makes the innermost frames in the
// user's own code entities; the innermost gives the heaviest terms.
func (b *builder) addFrames(frames []Frame) {
	b.p.Frames = frames
	n := 0
	for _, f := range frames {
		if f.External {
			continue
		}
		if f.Path != "" && !strings.HasPrefix(f.Path, "/") {
			b.addPath(f.Path, true)
		}
		if f.Func == "" || n >= maxFrameSyms {
			continue
		}
		parts := frameEntityParts(f.Func)
		if len(parts) == 0 {
			continue
		}
		b.addEntity(Entity{Raw: f.Func, Kind: EntitySymbol, Parts: parts})
		w := weightIdent
		if n > 0 {
			w = weightIdentPt
		}
		n++
		// The package qualifier of a Go frame ("main") is not a term, and
		// neither are program entry points, which every trace ends in.
		name := parts[len(parts)-1]
		if name == "main" || name == "init" {
			continue
		}
		b.addIdentTerms(name, w)
		if len(parts) >= 2 && startsUpper(parts[len(parts)-2]) {
			b.addIdentTerms(parts[len(parts)-2], weightIdentPt)
		}
	}
}

// addSynonyms adds the concept-table synonyms of prose words and
// identifier parts.
func (b *builder) addSynonyms() {
	added := 0
	n := len(b.p.Terms)
	for i := 0; i < n && added < maxSynonyms; i++ {
		t := b.p.Terms[i]
		if t.Kind != TermWord && t.Kind != TermIdentPart {
			continue
		}
		per := 0
		for _, s := range Synonyms(t.Text) {
			if _, ok := b.termIdx[s]; ok {
				continue
			}
			if added >= maxSynonyms || per >= maxSynonymsPerTerm {
				break
			}
			b.addTerm(s, TermSynonym, weightSynonym)
			added++
			per++
		}
	}
}

func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// blankSpans replaces the given byte ranges of s with spaces, keeping
// newlines so that line structure survives.
func blankSpans(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	buf := []byte(s)
	for _, sp := range spans {
		for i := max(sp.start, 0); i < sp.end && i < len(buf); i++ {
			if buf[i] != '\n' {
				buf[i] = ' '
			}
		}
	}
	return string(buf)
}
