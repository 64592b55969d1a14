package diffmode

import (
	"fmt"
	"strings"
)

// Seed is a place to pin first in the bundle and to expand from: the span
// of a changed symbol, or a changed range.
type Seed struct {
	Path       string
	Start, End int // 0, 0: the whole file
	Reason     string
}

// DefaultMaxSeeds caps the seeds of a diff.
const DefaultMaxSeeds = 200

// Seeds turns the changes into seeds, in change order, at most max (0
// means DefaultMaxSeeds); dropped counts those left out. A deletion seeds
// the place it was removed from when its file is still there.
func (r *Report) Seeds(max int) (seeds []Seed, dropped int) {
	if max <= 0 {
		max = DefaultMaxSeeds
	}
	seen := map[Seed]bool{}
	for _, c := range r.Changes {
		s := Seed{Path: c.Path, Start: c.Start, End: c.End, Reason: "changed: " + c.String()}
		switch c.Kind {
		case ChangeDeleted:
			if c.HeadPath == "" || c.At <= 0 {
				continue
			}
			s.Path, s.Start, s.End = c.HeadPath, max1(c.At-1), c.At
		case ChangeRenamed:
			s.Start, s.End = 0, 0
		}
		if seen[s] {
			continue
		}
		if len(seeds) == max {
			dropped++
			continue
		}
		seen[s] = true
		seeds = append(seeds, s)
	}
	return seeds, dropped
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// Deleted lists the deletions in words, for notes.
func (r *Report) Deleted() []string {
	var out []string
	for _, c := range r.Changes {
		if c.Kind == ChangeDeleted {
			out = append(out, c.String())
		}
	}
	return out
}

// Summary lists every change, one per line, for the bundle's first extra.
func (r *Report) Summary() string {
	var b strings.Builder
	for _, c := range r.Changes {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// maxQueryNames caps the symbol names written into a query.
const maxQueryNames = 8

// QueryText is the text of the query plan for a diff: the changed symbols
// that still exist, then the commit subjects. '@' is dropped from the
// subjects so that they are never read as references.
func (r *Report) QueryText(subjects []string) string {
	var names []string
	seen := map[string]bool{}
	more := 0
	for _, c := range r.Changes {
		if c.Symbol == "" || c.Kind == ChangeDeleted || seen[c.Symbol] {
			continue
		}
		seen[c.Symbol] = true
		if len(names) == maxQueryNames {
			more++
			continue
		}
		names = append(names, c.Symbol)
	}
	var b strings.Builder
	b.WriteString("review the change")
	if len(names) > 0 {
		b.WriteString(" to " + strings.Join(names, ", "))
		if more > 0 {
			fmt.Fprintf(&b, " and %d more", more)
		}
	}
	const maxSubjects = 5
	for i, s := range subjects {
		if i == maxSubjects {
			break
		}
		s = strings.Join(strings.Fields(strings.ReplaceAll(s, "@", "")), " ")
		if s == "" {
			continue
		}
		if r := []rune(s); len(r) > 120 {
			s = string(r[:120]) + "…"
		}
		b.WriteString("; " + s)
	}
	return b.String()
}
