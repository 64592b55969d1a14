package query

import (
	"strings"
	"unicode/utf8"
)

// Limits that keep a pasted log or a hostile query from making a huge plan.
const (
	// MaxQueryBytes is how much of a query is analysed; the rest is ignored
	// with a warning.
	MaxQueryBytes = 64 << 10
	maxTerms      = 96
	maxCollect    = 1024 // terms gathered before the heaviest maxTerms are kept
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
	return AnalyzeWith(text, DefaultTextWeights)
}

// AnalyzeWith is Analyze with the given weights for issue-shaped text
// (the zero value means DefaultTextWeights).
func AnalyzeWith(text string, tw TextWeights) *Plan {
	tw = tw.orDefault()
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

	b := newBuilder(p, tw)
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
	prose = b.readBlocks(clean, prose, tw)
	b.addFrames(tr.frames)
	if !b.multi || len(p.Terms) <= tw.SynonymTerms {
		b.addSynonyms()
	}
	b.finishTerms(tw)
	b.finishEntities(tw)

	p.Keywords = make([]string, len(p.Terms))
	for i, t := range p.Terms {
		p.Keywords[i] = t.Text
	}
	classify(p, prose, area)
	b.addBareNames(titleLine(prose[area.end:]))
	p.Kind = detectKind(p, prose, area, b.multi, hasTaskVerb(prose[area.end:], area), failing(prose[area.end:]) || len(p.Errors) > 0)
	return p
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
		if c == '`' && b.block != blockOutput {
			// (In output, back-ticks quote what a program was given,
			// not names the user insists on.)
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
		if j == i { // a back-tick: lone, or in output
			i++
			continue
		}
		b.addChunk(prose[i:j])
		i = j
	}
}

func (b *builder) addChunk(tok string) {
	if issueRef().MatchString(tok) {
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
	b.full = true // a frame is as salient as a title
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
