package query

import (
	"math"
	"sort"
	"strings"
)

// TextWeights are the constants of reading a long, issue-shaped text
// (segment.go): how much what each kind of block says counts against
// prose, how much repetition adds, and when the concept synonyms stop
// helping. A one-line task is all title and none of them matter but the
// title's. The zero value means [DefaultTextWeights].
type TextWeights struct {
	// Title scales the terms of the first line of a text of several
	// lines: the subject of a bug report or a pull request.
	Title float64
	// Code scales identifiers of fenced or indented Go, Rust and diff
	// blocks; Foreign those of code in other languages (the program's
	// input: Python for a linter, TOML for a package manager), which give
	// no entities.
	Code, Foreign float64
	// Output scales the words of pasted terminal output and logs, except
	// their command lines and error lines, which count as prose.
	Output float64
	// Repeat is how much a term's weight grows with the number of times
	// the text uses it: × (1 + Repeat·ln n).
	Repeat float64
	// SynonymTerms is the most terms a text of several lines may give for
	// the concept synonyms to be added: a long report names its own
	// words.
	SynonymTerms int
	// CodeEntities makes code-style names of Go and Rust code blocks
	// entities (seeds), as back-ticked names are; otherwise they are
	// only terms.
	CodeEntities bool
	// EntityProse and EntityCode are the salience (Entity.Salience) of a
	// name a text of several lines gives outside its title: in its
	// prose, or in its code and output. EntityPlain multiplies that of a
	// plain word in back-ticks ("close", "timeout": config keys and
	// values, more often than not). EntityRepeat is how much salience
	// grows with mentions: × (1 + EntityRepeat·ln n), at most 1.
	EntityProse, EntityCode, EntityPlain, EntityRepeat float64
}

// DefaultTextWeights are the weights Analyze uses. The salience of names
// outside the title was fitted on benchmarks/data/issues-train.jsonl
// (82 instances, five a repository, the hand-weighted ranker; `ctxexpand
// bench --text-weights`, benchmarks/README.md): against every name seeding at
// full strength it raised MRR from 0.73 to 0.76 (Go) and from 0.75 to 0.79
// (Rust). The block factors and CodeEntities were each varied once there
// and no other value did better; Repeat 0.3 gained about 0.01 MRR but was
// not tried with the chosen salience, so it stays 0; SynonymTerms was not
// varied.
var DefaultTextWeights = TextWeights{
	Title:        1.0,
	Code:         1.0,
	Foreign:      0.5,
	Output:       0.5,
	Repeat:       0.0,
	SynonymTerms: 40,
	CodeEntities: true,
	EntityProse:  0.4,
	EntityCode:   0.2,
	EntityPlain:  0.3,
	EntityRepeat: 0.3,
}

func (w TextWeights) orDefault() TextWeights {
	if w == (TextWeights{}) {
		return DefaultTextWeights
	}
	return w
}

// readBlocks reads the blocks of the prose (the query without @references,
// with trace frames and area prefix blanked) in order, and returns the
// text of the prose blocks alone, for classification. The blocks are cut
// in clean, the same text before blanking: blanks where an area prefix
// was would look like indented code.
func (b *builder) readBlocks(clean, prose string, w TextWeights) string {
	blocks := segment(clean)
	multi := strings.Contains(strings.TrimSpace(clean), "\n")
	b.multi = multi
	keep := make([]span, 0, len(blocks))
	for _, bl := range blocks {
		text := prose[bl.start:bl.end]
		b.block = bl.kind
		b.full = !multi
		b.factor, b.noWords, b.noEntities = 1, false, false
		switch bl.kind {
		case blockProse:
			keep = append(keep, span{bl.start, bl.end})
			if multi && bl.start == 0 {
				// The title: the first line.
				cut := strings.IndexByte(text, '\n')
				if cut < 0 {
					cut = len(text)
				}
				b.factor, b.full = w.Title, true
				b.addErrorsFrom(text[:cut])
				b.scanProse(text[:cut])
				b.factor, b.full = 1, false
				text = text[cut:]
			}
			b.addErrorsFrom(text)
			b.scanProse(text)
		case blockHeading:
			// Template headings ("## Summary", "### Steps to reproduce")
			// name nothing; a name in code style in one still counts.
			b.noWords = true
			b.scanProse(text)
		case blockCode:
			b.factor, b.noEntities = w.Code, !w.CodeEntities
			b.scanCode(text, bl.lang)
		case blockForeign:
			b.factor, b.noEntities = w.Foreign, true
			b.scanForeign(text)
		case blockOutput:
			b.scanOutput(text, w.Output)
		case blockMeta:
			// Version lists and environment details: nothing to find.
		}
	}
	b.block, b.factor, b.noWords, b.noEntities, b.full = blockProse, 1, false, false, true
	return keepSpans(prose, keep)
}

// scanCode reads Go, Rust or diff code: a diff's file headers are paths,
// its +/- markers are dropped, and the code's names are read as
// back-ticked code is, line by line so that a long block does not make
// one huge entity.
func (b *builder) scanCode(code, lang string) {
	for _, ln := range strings.Split(code, "\n") {
		t := strings.TrimSpace(ln)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "diff --git "), strings.HasPrefix(t, "+++ "), strings.HasPrefix(t, "--- "):
			for _, f := range strings.Fields(t) {
				f = strings.TrimPrefix(strings.TrimPrefix(f, "a/"), "b/")
				if p, ok := pathLike(f); ok && strings.Contains(p, ".") {
					b.addPath(p, true)
				}
			}
			continue
		case strings.HasPrefix(t, "@@"):
			// "@@ -10,6 +10,7 @@ func (s *Store) Get(": the enclosing declaration.
			if i := strings.LastIndex(t, "@@"); i > 1 {
				t = strings.TrimSpace(t[i+2:])
			}
		case lang == "diff" || lang == "patch":
			if t[0] == '+' || t[0] == '-' {
				t = t[1:]
			}
		}
		if strings.HasPrefix(t, "//") {
			// A comment is prose.
			b.scanProse(strings.TrimLeft(t, "/!"))
			continue
		}
		for _, tok := range codeTokens(t) {
			if codeKeywords[tok] || stdNames[tok] {
				continue
			}
			if parts, ok := codeSymbol(tok, false); ok {
				b.addSymbol(tok, parts, false)
				continue
			}
			b.addIdentTerms(tok, weightIdentPt)
		}
	}
}

// scanForeign reads code of another language for its identifiers only,
// as low-weight parts: the names of a Python test case or the keys of a
// TOML file can be what the program handles, but they are not its code.
func (b *builder) scanForeign(code string) {
	for _, tok := range codeTokens(stripStrings(code)) {
		for _, part := range strings.FieldsFunc(tok, func(r rune) bool { return r == '.' || r == ':' }) {
			if codeKeywords[part] {
				continue
			}
			b.addIdentTerms(part, weightIdentPt)
		}
	}
}

// scanOutput reads pasted terminal output line by line: the commands
// typed and the error lines printed count as prose; the rest (progress,
// timing, values) at the output factor, without its numbers.
func (b *builder) scanOutput(text string, factor float64) {
	for _, ln := range strings.Split(text, "\n") {
		if blank(ln) {
			continue
		}
		if promptLine().MatchString(ln) || outputCue().MatchString(ln) || errorCue().MatchString(ln) {
			b.factor = 1
			b.addErrorsFrom(ln)
		} else {
			b.factor = factor
		}
		b.scanProse(ln)
	}
	b.factor = 1
}

// stdNames are names every Go or Rust program uses: they say nothing
// about where in a repository a snippet belongs.
var stdNames = setOf(`self Self Some None Ok Err Box Vec String Option Result Arc Rc
new unwrap expect clone into from as_ref to_string iter collect map len push
err nil ctx context fmt Println Printf Sprintf Errorf Error string int bool byte
true false usize u8 u16 u32 u64 i32 i64 f32 f64 str println format assert assert_eq`)

// stripStrings blanks the contents of quoted strings of foreign code:
// values, not names.
func stripStrings(code string) string {
	buf := []byte(code)
	var quote byte
	for i := 0; i < len(buf); i++ {
		c := buf[i]
		switch {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote != 0 && c == '\\' && i+1 < len(buf):
			buf[i], buf[i+1] = ' ', ' '
			i++
		case quote != 0 && c == quote, c == '\n':
			quote = 0
		case quote != 0:
			buf[i] = ' '
		}
	}
	return string(buf)
}

// keepSpans blanks everything of s outside the given spans, newlines kept.
func keepSpans(s string, keep []span) string {
	buf := []byte(s)
	at := 0
	for _, sp := range append(keep, span{len(s), len(s)}) {
		for i := at; i < sp.start && i < len(buf); i++ {
			if buf[i] != '\n' {
				buf[i] = ' '
			}
		}
		at = max(at, sp.end)
	}
	return string(buf)
}

// noiseWord reports whether a lower-case word is machine output rather
// than a name: a commit hash or other long hex number, a hex literal
// ("0x1f"), a duration or a timestamp's tail ("23s", "250ms", "345z"), or
// digits, letters and digits again ("17t01"). Other words that start with
// a digit ("1xx", "2fa", "64bit") are kept.
func noiseWord(w string) bool {
	if w == "" {
		return false
	}
	if w[0] >= '0' && w[0] <= '9' {
		return !isNumber(w) && digitNoise().MatchString(w)
	}
	if len(w) < 7 {
		return false
	}
	digit := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
		default:
			return false
		}
	}
	return digit
}

var digitNoise = lazyRegexp(`^(?:0x[0-9a-f]+|\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|z)|\d+[a-z]+\d.*)$`)

// finishTerms applies repetition to the weights and, when there are more
// than maxTerms, keeps the heaviest (ties by first appearance), in order
// of first appearance.
func (b *builder) finishTerms(w TextWeights) {
	ts := b.p.Terms
	if w.Repeat > 0 {
		for i := range ts {
			if n := b.mass[ts[i].Text]; n > 1 {
				ts[i].Weight *= 1 + w.Repeat*math.Log(n)
			}
		}
	}
	if len(ts) <= maxTerms {
		return
	}
	idx := make([]int, len(ts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return ts[idx[x]].Weight > ts[idx[y]].Weight })
	idx = idx[:maxTerms]
	sort.Ints(idx)
	kept := make([]Term, len(idx))
	for i, j := range idx {
		kept[i] = ts[j]
	}
	b.p.Terms = kept
	b.termIdx = make(map[string]int, len(kept))
	for i, t := range kept {
		b.termIdx[t.Text] = i
	}
}

// finishEntities sets the salience of the symbols a text of several lines
// names (TextWeights); a one-line task leaves it unset: every name in it
// is the task.
func (b *builder) finishEntities(w TextWeights) {
	if !b.multi {
		return
	}
	for i := range b.p.Entities {
		e := &b.p.Entities[i]
		if e.Kind != EntitySymbol || i >= len(b.mentions) {
			continue
		}
		m := b.mentions[i]
		s := m.place
		if m.plain && s < 1 {
			s *= w.EntityPlain
		}
		if m.count > 1 {
			s *= 1 + w.EntityRepeat*math.Log(m.count)
		}
		e.Salience = min(1, max(s, 0.01))
	}
}
