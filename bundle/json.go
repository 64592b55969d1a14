package bundle

import (
	"bytes"
	"encoding/json"
	"strings"
)

// jsonFormat renders a bundle as one JSON object (schema in doc.go), one
// element of the extras and files arrays per line.
type jsonFormat struct{}

type jsonHead struct {
	Version     int    `json:"version"`
	Query       string `json:"query,omitempty"`
	Strategy    string `json:"strategy,omitempty"`
	Commit      string `json:"commit,omitempty"`
	Tokenizer   string `json:"tokenizer,omitempty"`
	Budget      int    `json:"budget"`
	TotalTokens int    `json:"total_tokens"`
}

type jsonSummary struct {
	Files          int `json:"files"`
	Included       int `json:"included,omitempty"`
	Omitted        int `json:"omitted,omitempty"`
	Full           int `json:"full,omitempty"`
	Spans          int `json:"spans,omitempty"`
	Skeleton       int `json:"skeleton,omitempty"`
	Summary        int `json:"summary,omitempty"`
	Truncated      int `json:"truncated,omitempty"`
	Extras         int `json:"extras,omitempty"`
	ExtrasIncluded int `json:"extras_included,omitempty"`
	NotesOmitted   int `json:"notes_omitted,omitempty"`
}

type jsonExtra struct {
	Kind      string `json:"kind"`
	Title     string `json:"title"`
	Included  bool   `json:"included"`
	Rung      string `json:"rung"`
	Truncated string `json:"truncated,omitempty"`
	Tokens    int    `json:"tokens"`
	Content   string `json:"content"`
}

type jsonSpan struct {
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Symbol    string `json:"symbol"`
}

type jsonFile struct {
	Path      string     `json:"path"`
	Lang      string     `json:"lang,omitempty"`
	Category  string     `json:"category,omitempty"`
	Explicit  bool       `json:"explicit,omitempty"`
	Score     float64    `json:"score"`
	Included  bool       `json:"included"`
	Rung      string     `json:"rung"`
	Truncated string     `json:"truncated,omitempty"`
	Tokens    int        `json:"tokens"`
	Need      int        `json:"tokens_needed,omitempty"`
	Lines     string     `json:"lines,omitempty"`
	Reasons   []string   `json:"reasons"`
	Spans     []jsonSpan `json:"spans"`
	Content   string     `json:"content"`
}

// marshal encodes v without HTML escaping and without the trailing newline.
func marshal(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only non-finite floats could fail, and scores are rounded first.
		return "null"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func (jsonFormat) head(d *docInfo) string {
	h := marshal(jsonHead{d.version, d.query, d.strategy, d.commit, d.tokenizer, d.budget, d.total})
	c := d.counts
	sum := marshal(jsonSummary{c.Files, c.Included, c.Omitted, c.ByRung[RungFull], c.ByRung[RungSpans],
		c.ByRung[RungSkeleton], c.ByRung[RungSummary], c.Truncated, c.Extras, c.ExtrasIncluded, c.NotesOmitted})
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(h, "}") + `,"summary":` + sum + ",\n")
	if len(d.notes) > 0 {
		b.WriteString(`"notes":` + marshal(d.notes) + ",\n")
	}
	if c.ExtrasIncluded > 0 {
		b.WriteString(`"extras":[` + "\n")
	}
	return b.String()
}

func (jsonFormat) mid(d *docInfo) string {
	if d.counts.ExtrasIncluded > 0 {
		return "],\n" + `"files":[` + "\n"
	}
	return `"files":[` + "\n"
}

func (jsonFormat) tail(*docInfo) string { return "]}\n" }

func (jsonFormat) last(p string) string {
	if strings.HasSuffix(p, ",\n") {
		return p[:len(p)-2] + "\n"
	}
	return p
}

func truncName(s *section) string {
	if !s.truncated {
		return ""
	}
	return s.mode.String()
}

func (jsonFormat) extra(s *section) string {
	return withContent(marshal(jsonExtra{
		Kind: s.kind, Title: s.title, Included: s.rung > RungOmitted, Rung: s.rung.String(),
		Truncated: truncName(s), Tokens: s.tokens,
	}), s.content) + ",\n"
}

// withContent returns obj, an object marshalled with an empty "content"
// as its last value, with content there instead: what marshalling it
// with content gives, byte for byte, its escaping kept per text for the
// process (jsonString).
func withContent(obj, content string) string {
	const empty = `""}`
	if content == "" || !strings.HasSuffix(obj, `"content":`+empty) {
		return obj
	}
	return obj[:len(obj)-len(empty)] + jsonString(content) + "}"
}

// jsonString is marshal(s): s quoted and escaped as a JSON string. The
// escaping of a text shown before is found in a memo (escaped): the
// sections of a JSON bundle show the same files' code under other
// headers query after query, and encoding it was a tenth of a warm
// query's CPU.
func jsonString(s string) string {
	const minKept = 256 // shorter texts cost less to escape than to look up
	if len(s) < minKept {
		return marshal(s)
	}
	return escaped.of(keyOfText(s), false, func() string { return marshal(s) })
}

func (jsonFormat) file(s *section) string {
	f := jsonFile{
		Path: s.path, Lang: s.lang, Category: s.category, Explicit: s.explicit, Score: roundScore(s.score),
		Included: s.rung > RungOmitted, Rung: s.rung.String(), Truncated: truncName(s), Tokens: s.tokens,
		Lines: formatRanges(s.ranges), Reasons: s.reasons, Spans: []jsonSpan{},
	}
	if s.rung == RungOmitted {
		f.Need = s.need
	}
	if f.Reasons == nil {
		f.Reasons = []string{}
	}
	for _, sp := range s.spans {
		f.Spans = append(f.Spans, jsonSpan{sp.Start, sp.End, sp.Symbol})
	}
	return withContent(marshal(f), s.content) + ",\n"
}

// listing is an omitted file's element: compact, since every omitted file
// is listed inside the budget (builder.plan): its path, score, first
// reason and tokens_needed, with no spans and no content.
func (j jsonFormat) listing(s *section) string {
	lean := *s
	lean.spans = nil
	if len(lean.reasons) > 1 {
		lean.reasons = lean.reasons[:1]
	}
	return j.file(&lean)
}

func (jsonFormat) listsAll() bool { return true }
