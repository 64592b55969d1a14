package bundle

import (
	"strings"
)

// docInfo returns the frame of a document at a level, with the counts of
// the current plan.
func (b *builder) docInfo(level frameLevel) *docInfo {
	d := &docInfo{
		version: formatVersion, strategy: b.req.Strategy, commit: b.req.Commit,
		tokenizer: b.counter.Name(), budget: b.req.Budget, counts: b.counts(),
	}
	switch level {
	case frameFull, frameNoNotes:
		d.query = cutRunes(b.req.Query, maxQueryRunes)
	case frameShortQuery:
		d.query = cutRunes(b.req.Query, shortQueryRunes)
		d.commit = cutRunes(d.commit, shortCommitRunes)
	case frameMinimal:
		d.strategy, d.commit, d.tokenizer = "", "", ""
	}
	if level == frameFull {
		for i, n := range b.notes {
			if i == maxNotes {
				break
			}
			d.notes = append(d.notes, cutRunes(n, maxNoteRunes))
		}
	}
	d.counts.NotesOmitted = len(b.notes) - len(d.notes)
	if level == frameMinimal {
		// The smallest document states only files and tokens.
		d.counts.NotesOmitted = 0
		if d.counts.ExtrasIncluded == 0 {
			d.counts.Extras = 0
		}
	}
	return d
}

// frameCost is what the frame of a level costs with no item included, or,
// when full, at most: its counts and total set to the largest values they
// can take.
func (b *builder) frameCost(level frameLevel, full bool) int {
	saved := b.snapshot()
	for _, it := range append(append([]*bitem(nil), b.extras...), b.files...) {
		it.cur, it.listed = 0, false
	}
	d := b.docInfo(level)
	b.restore(saved)
	d.total = b.req.Budget
	if full {
		nf, nx := len(b.req.Files), len(b.req.Extras)
		d.counts = Counts{Files: nf, Included: nf, Omitted: nf, Truncated: nf, Extras: nx, ExtrasIncluded: nx,
			NotesOmitted: d.counts.NotesOmitted}
		for r := range d.counts.ByRung {
			d.counts.ByRung[r] = nf
		}
	}
	return b.counter.Count(b.fm.head(d)) + b.counter.Count(b.fm.mid(d)) + b.counter.Count(b.fm.tail(d))
}

type planState struct {
	cur    []int
	listed []bool
}

func (b *builder) snapshot() planState {
	var s planState
	for _, it := range append(append([]*bitem(nil), b.extras...), b.files...) {
		s.cur = append(s.cur, it.cur)
		s.listed = append(s.listed, it.listed)
	}
	return s
}

func (b *builder) restore(s planState) {
	for i, it := range append(append([]*bitem(nil), b.extras...), b.files...) {
		it.cur, it.listed = s.cur[i], s.listed[i]
	}
}

func cutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	k := 0
	for i := range s {
		if k == n {
			return s[:i] + "…"
		}
		k++
	}
	return s
}

// renderDoc renders the planned document. The frame states the total token
// count of the document it is part of, so rendering iterates to a fixed
// point: the count of a number's digits only grows with the number, so the
// iteration settles within a few rounds.
func (b *builder) renderDoc(level frameLevel) (string, int) {
	var pieces []string
	var extras, files []string
	for _, it := range b.extras {
		if it.cur > 0 {
			extras = append(extras, it.chosen().text)
		}
	}
	for _, it := range b.shown {
		switch {
		case it.cur > 0:
			files = append(files, it.chosen().text)
		case it.listed:
			files = append(files, it.listing)
		}
	}
	if n := len(extras); n > 0 {
		extras[n-1] = b.fm.last(extras[n-1])
	}
	if n := len(files); n > 0 {
		files[n-1] = b.fm.last(files[n-1])
	}
	d := b.docInfo(level)
	d.total = b.req.Budget
	var out string
	total := -1
	for round := 0; round < 8; round++ {
		pieces = pieces[:0]
		pieces = append(pieces, b.fm.head(d))
		pieces = append(pieces, extras...)
		pieces = append(pieces, b.fm.mid(d))
		pieces = append(pieces, files...)
		pieces = append(pieces, b.fm.tail(d))
		out = strings.Join(pieces, "")
		total = b.counter.Count(out)
		if total == d.total {
			break
		}
		d.total = total
	}
	return out, total
}

// counts summarises the current plan.
func (b *builder) counts() Counts {
	c := Counts{Files: len(b.files), Extras: len(b.extras)}
	for _, it := range b.files {
		o := it.chosen()
		c.ByRung[o.rung]++
		if o.rung > RungOmitted {
			c.Included++
		}
		if o.trunc {
			c.Truncated++
		}
	}
	c.Omitted = c.ByRung[RungOmitted]
	for _, it := range b.extras {
		if it.cur > 0 {
			c.ExtrasIncluded++
		}
	}
	return c
}

func (b *builder) result(out string, total int) *Result {
	r := &Result{
		Output: []byte(out), TotalTokens: total, Budget: b.req.Budget, Tokenizer: b.counter.Name(),
		Format: b.req.Format, Counts: b.counts(),
	}
	r.Counts.NotesOmitted = len(b.notes) - len(b.docInfo(b.level).notes)
	for _, it := range b.extras {
		o := it.chosen()
		tokens := 0
		if it.cur > 0 {
			tokens = o.cost
		}
		r.Extras = append(r.Extras, ExtraResult{Title: it.base.title, Rung: o.rung, Truncated: o.trunc, Tokens: tokens})
	}
	for _, it := range b.files {
		o := it.chosen()
		fr := FileResult{
			Path: it.base.path, Score: it.base.score, Explicit: it.explicit, Rung: o.rung,
			Truncated: o.trunc, Included: o.rung > RungOmitted, Costs: it.costs,
		}
		if o.trunc {
			fr.Mode = b.req.Options.Truncation
		}
		if fr.Included {
			fr.Tokens = o.cost
		}
		switch {
		case o.rung == RungFull && len(o.sec.ranges) == 0 && it.src != nil && it.src.n() > 0:
			fr.Lines = []LineRange{{1, it.src.n()}}
		case o.rung == RungFull || o.rung == RungSpans:
			for _, r := range o.sec.ranges {
				fr.Lines = append(fr.Lines, LineRange{r.start, r.end})
			}
		}
		switch {
		case it.readErr != nil:
			fr.Reason = "unreadable: " + readProblem(it.readErr)
		case o.rung < RungFull || o.trunc:
			fr.Reason = "budget"
		}
		if !fr.Included {
			r.Omitted = append(r.Omitted, fr.Path)
		}
		r.Files = append(r.Files, fr)
	}
	return r
}
