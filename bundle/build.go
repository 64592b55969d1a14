package bundle

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/tokenize"
)

// ErrBudgetTooSmall is returned when the budget cannot hold even the
// smallest document of the format (a few dozen tokens at most).
var ErrBudgetTooSmall = errors.New("token budget too small")

type builder struct {
	req      Request
	counter  tokenize.Counter
	fm       formatter
	ctxLines int
	weights  []float64

	extras []*bitem // request order
	files  []*bitem // request order
	order  []*bitem // files in output order: explicit first, then by rank
	notes  []string // request notes, then files that could not be read
	level  frameLevel
}

// frameLevel is how much of the frame a document keeps when the budget is
// short: everything, then no notes, then a shortened query, then no query.
type frameLevel int

const (
	frameFull frameLevel = iota
	frameNoNotes
	frameShortQuery
	frameMinimal
	numFrameLevels
)

// shortQueryRunes and shortCommitRunes are what frameShortQuery keeps of
// the query and the commit (a full SHA-1 costs dozens of tokens).
const (
	shortQueryRunes  = 60
	shortCommitRunes = 12
)

// maxPlanAttempts bounds re-planning when the rendered document came out
// larger than planned (it does not for the counters of package tokenize,
// whose counts add up over the document's pieces).
const maxPlanAttempts = 6

// minTruncTokens is the least room worth cutting an item down for.
const minTruncTokens = 12

// Build assembles a bundle from ranked files and extras under req.Budget
// tokens, counted with req.Counter (o200k_base when nil) over the whole
// emitted output. It fails only on a bad request (a budget that cannot hold
// the format's smallest document, an unknown format) or a cancelled
// context; files that cannot be read are reported in the notes and get at
// most a summary line.
func Build(ctx context.Context, req Request) (*Result, error) {
	if req.Budget <= 0 {
		return nil, fmt.Errorf("budget %d: %w: give a positive number of tokens", req.Budget, ErrBudgetTooSmall)
	}
	fm, err := formatterFor(req.Format)
	if err != nil {
		return nil, err
	}
	counter := req.Counter
	if counter == nil {
		if counter, err = tokenize.New(""); err != nil {
			return nil, err
		}
	}
	b := &builder{req: req, counter: counter, fm: fm, weights: fileWeights(req.Files)}
	switch {
	case req.Options.ContextLines < 0:
		b.ctxLines = 0
	case req.Options.ContextLines == 0:
		b.ctxLines = DefaultContextLines
	default:
		b.ctxLines = req.Options.ContextLines
	}
	if err := b.prepare(ctx); err != nil {
		return nil, err
	}
	b.notes = append([]string(nil), req.Notes...)
	for _, it := range b.files {
		if it.readErr != nil {
			b.notes = append(b.notes, fmt.Sprintf("%s: not read: %s", it.base.path, readProblem(it.readErr)))
		}
	}
	for _, it := range b.files {
		if it.explicit {
			b.order = append(b.order, it)
		}
	}
	for _, it := range b.files {
		if !it.explicit {
			b.order = append(b.order, it)
		}
	}
	return b.assemble(ctx)
}

// assemble picks the richest frame that fits, plans the items into what
// is left, renders, and re-plans with a smaller allowance in the unlikely
// case the whole document counts more than the budget.
func (b *builder) assemble(ctx context.Context) (*Result, error) {
	level := frameFull
	frame := 0
	for ; level < numFrameLevels; level++ {
		frame = b.frameCost(level, false)
		if frame <= b.req.Budget {
			break
		}
	}
	if level == numFrameLevels {
		return nil, fmt.Errorf("%w: the smallest %s document costs %d tokens, the budget is %d; raise the budget",
			ErrBudgetTooSmall, b.req.Format, b.frameCost(frameMinimal, false), b.req.Budget)
	}
	// The frame grows a little once files are in (more counts to state);
	// set some of that aside, and re-plan should it not be enough.
	slack := min(b.frameCost(level, true)-frame, b.req.Budget/50)
	allowance := max(b.req.Budget-frame-slack, 0)
	for attempt := 0; attempt < maxPlanAttempts; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.plan(allowance)
		b.level = level
		out, total := b.renderDoc(level)
		if total <= b.req.Budget {
			return b.result(out, total), nil
		}
		allowance -= total - b.req.Budget
		if allowance < 0 {
			break
		}
	}
	// Nothing but the frame: it fit when measured above.
	b.plan(0)
	b.level = frameMinimal
	out, total := b.renderDoc(frameMinimal)
	if total > b.req.Budget {
		return nil, fmt.Errorf("%w: the smallest %s document costs %d tokens, the budget is %d; raise the budget",
			ErrBudgetTooSmall, b.req.Format, total, b.req.Budget)
	}
	return b.result(out, total), nil
}

// plan chooses every item's option within allowance tokens: explicit items
// (extras and explicit files) first with the whole allowance, then the
// implicit files with what is left, each group topped up with truncated
// content; then formats that list omitted files list as many as still fit.
func (b *builder) plan(allowance int) {
	var explicit, implicit []*bitem
	explicit = append(explicit, b.extras...)
	for _, it := range b.order {
		it.opts, it.cur, it.listed = it.opts[:it.nBase], 0, false
		if it.explicit {
			explicit = append(explicit, it)
		} else {
			implicit = append(implicit, it)
		}
	}
	for _, it := range b.extras {
		it.opts, it.cur = it.opts[:it.nBase], 0
	}
	left := allowance
	left = b.allocate(explicit, left)
	left = b.fillTruncated(explicit, left)
	left = b.allocate(implicit, left)
	left = b.fillTruncated(implicit, left)
	for _, it := range b.order {
		if it.cur == 0 && it.listing != "" && it.listingCost <= left {
			it.listed = true
			left -= it.listingCost
		}
	}
}

func (b *builder) allocate(items []*bitem, left int) int {
	ps := make([]*pitem, len(items))
	for i, it := range items {
		p := &pitem{cur: it.cur}
		for _, o := range it.opts {
			p.opts = append(p.opts, choice{cost: o.cost, value: o.value})
		}
		ps[i] = p
	}
	left = allocate(ps, left)
	for i, it := range items {
		it.cur = ps[i].cur
	}
	return left
}

// fillTruncated gives each item still below its target rung (spans, or the
// whole file or extra) a cut-down version of the target when the leftover
// pays for one that is worth more than what the item has.
func (b *builder) fillTruncated(items []*bitem, left int) int {
	for _, it := range items {
		cur := it.chosen()
		if !it.hasTarget || cur.rung >= it.targetRung {
			continue
		}
		limit := cur.cost + left
		if limit < minTruncTokens {
			continue
		}
		o, ok := b.truncate(it, limit)
		if !ok || o.value <= cur.value {
			continue
		}
		left -= o.cost - cur.cost
		it.opts = append(it.opts, o)
		it.cur = len(it.opts) - 1
	}
	return left
}

// truncate finds the largest cut of an item's target that costs at most
// limit tokens, by binary search over the truncation parameter.
func (b *builder) truncate(it *bitem, limit int) (bopt, bool) {
	mode := b.req.Options.Truncation
	maxP := it.target.truncParams(mode)
	total := shownLines(it.target.ranges)
	try := func(p int) bopt {
		shown := it.target.truncated(it.src, mode, p)
		ranges := shown
		if it.extra {
			ranges = nil
		}
		o := b.render(it, it.targetRung, it.src.render(shown), ranges, true)
		o.value = it.weight * rungValue[it.targetRung] * float64(shownLines(shown)) / float64(max(total, 1))
		return o
	}
	if maxP < 1 {
		return bopt{}, false
	}
	best := try(1)
	if best.cost > limit {
		return bopt{}, false
	}
	lo, hi := 1, maxP
	for lo < hi {
		mid := (lo + hi + 1) / 2
		o := try(mid)
		if o.cost <= limit {
			lo, best = mid, o
		} else {
			hi = mid - 1
		}
	}
	return best, true
}

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
	for _, it := range b.order {
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
