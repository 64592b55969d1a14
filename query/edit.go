package query

import (
	"slices"
	"strings"
)

// Term weights Analyze gives by origin. They are exported so that other
// planners (query/ollama) weigh what they add consistently, and so that
// ranking can tell how much a term was trusted.
const (
	WeightExplicit  = 4.0 // an identifier from @Symbol or back-ticks
	WeightIdent     = 3.0 // a code-style identifier, whole
	WeightArea      = 2.0 // an area prefix ("xdsclient:")
	WeightIdentPart = 1.5 // a part of a split identifier
	WeightPath      = 1.5 // a segment of a mentioned path
	WeightWord      = 1.0 // a prose word
	WeightNumber    = 0.5 // a number (status code, port)
	WeightSynonym   = 0.5 // from the concept table
)

// Strategies are the expansion strategy names a Plan may recommend, alone
// or joined with "+".
var Strategies = []string{"focused", "broad", "entrypoint", "semantic"}

// ValidStrategy reports whether s is a strategy name or a "+" combination
// of distinct names ("focused+semantic").
func ValidStrategy(s string) bool {
	if s == "" {
		return false
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, "+") {
		if !slices.Contains(Strategies, part) || seen[part] {
			return false
		}
		seen[part] = true
	}
	return true
}

// SplitSymbol splits a qualified name written with "." or "::" into its
// parts, outermost first, without Rust's crate/self/super keywords:
// "crate::store::Store::orders_of" → [store Store orders_of]. It returns
// nil unless every part is an identifier.
func SplitSymbol(s string) []string {
	if !isSymbolPath(s) {
		return nil
	}
	return trimPathKeywords(symbolParts(s))
}

// AddTerm adds t to the plan, keeping Terms deduplicated by text: a term
// already there keeps its position and takes the larger weight (and that
// weight's kind). Keywords follow Terms. It reports whether t was new.
func (p *Plan) AddTerm(t Term) bool {
	if t.Text == "" || t.Weight <= 0 {
		return false
	}
	for i := range p.Terms {
		if p.Terms[i].Text == t.Text {
			if t.Weight > p.Terms[i].Weight {
				p.Terms[i].Weight, p.Terms[i].Kind = t.Weight, t.Kind
			}
			return false
		}
	}
	p.Terms = append(p.Terms, t)
	p.Keywords = append(p.Keywords, t.Text)
	return true
}

// AddEntity adds e unless an entity of the same kind and text is there.
func (p *Plan) AddEntity(e Entity) bool {
	for _, x := range p.Entities {
		if x.Kind == e.Kind && x.Raw == e.Raw {
			return false
		}
	}
	p.Entities = append(p.Entities, e)
	return true
}

// Clone returns a deep copy of the plan.
func (p *Plan) Clone() *Plan {
	c := *p
	c.Terms = slices.Clone(p.Terms)
	c.Keywords = slices.Clone(p.Keywords)
	c.Entities = make([]Entity, len(p.Entities))
	for i, e := range p.Entities {
		e.Parts = slices.Clone(e.Parts)
		c.Entities[i] = e
	}
	if p.Entities == nil {
		c.Entities = nil
	}
	c.Paths = slices.Clone(p.Paths)
	c.Globs = slices.Clone(p.Globs)
	c.Areas = slices.Clone(p.Areas)
	c.Errors = slices.Clone(p.Errors)
	c.Frames = slices.Clone(p.Frames)
	c.Refs = slices.Clone(p.Refs)
	c.Warnings = slices.Clone(p.Warnings)
	return &c
}
