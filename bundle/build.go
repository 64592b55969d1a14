package bundle

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

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
	order  []*bitem // files in planning order: explicit first, then by rank
	shown  []*bitem // files in output order: order, or the reading order (File.ReadAt)
	notes  []string // request notes, then files that could not be read
	level  frameLevel
	// priming is Prime's: lookups in the memos are not counted.
	priming bool
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
// larger than planned: the counts of package tokenize add up over the
// document's pieces, but the frame of a document with files in can grow
// past the slack set aside for it (its counts and lists), by a few tokens.
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
	b, err := newBuilder(req)
	if err != nil {
		return nil, err
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
	b.shown = readingOrder(b.order, b.req.Files)
	return b.assemble(ctx)
}

// newBuilder checks req and sets up its assembly.
func newBuilder(req Request) (*builder, error) {
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
	return b, nil
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
		used := b.plan(allowance)
		b.level = level
		out, total := b.renderDoc(level)
		if total <= b.req.Budget {
			return b.result(out, total), nil
		}
		// Shrink what the plan used, not the allowance: a plan that left
		// room would come back unchanged from an allowance cut by less
		// than that room, and the attempts would run out with nothing
		// shown.
		allowance = min(allowance, used) - (total - b.req.Budget)
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

// plan chooses every item's option within allowance tokens, and which
// omitted files the format lists. Explicit items (extras and explicit
// files) are planned first with the whole allowance, then the companion
// files (File.Companion) with what is left, then the implicit files, each
// group topped up with truncated content (the explicit items only after
// the companions are planned);
// then omitted files are listed, in rank order, while what is left pays
// for their entries.
//
// Formats that list every omitted file (JSON) keep a reserve for the
// entries out of the content: the cost of every file's entry, at most a
// tenth of what is left (listingShare). The entries are compact, so the
// reserve lists every omitted file at ordinary budgets; at a tight one the
// list stops after the best-ranked omitted files that fit.
//
// plan returns the tokens its choices take of allowance.
func (b *builder) plan(allowance int) int {
	for _, it := range b.order {
		it.opts, it.cur, it.listed = it.opts[:it.nBase], 0, false
	}
	for _, it := range b.extras {
		it.opts, it.cur = it.opts[:it.nBase], 0
	}
	explicit, companions, implicit := b.groups()
	left := allowance
	left = b.allocate(explicit, left)
	// Companions before the explicit items' cut-down versions: the part
	// of a changed file that does not fit (the diff shows the change)
	// is worth less to a reviewer than the tests of the change. They
	// take at most a share of the allowance, so that a long table test
	// does not crowd out every ranked file.
	share := max(allowance/companionShare, companionFloor)
	room := min(left, share)
	spent := room - b.allocate(companions, room)
	left -= spent
	left = b.fillTruncated(explicit, left)
	room = min(left, share-spent)
	left -= room - b.fillTruncated(companions, room)
	reserve := b.listingReserve(implicit, left/listingShare)
	left -= reserve
	left = b.cover(implicit, left)
	left = b.allocate(implicit, left)
	left = b.fillTruncated(implicit, left)
	left += reserve
	prefix := b.fm.listsAll()
	for _, it := range b.order {
		switch {
		case it.cur != 0 || it.listing == "":
		case it.listingCost <= left:
			it.listed = true
			left -= it.listingCost
		case prefix:
			return allowance - left
		}
	}
	return allowance - left
}

// companionShare bounds what the companion files take together: a third
// of the allowance, or companionFloor tokens when that is more. A
// review's companions are tests, and a test file's spans can be one table
// of cases thousands of lines long; planned with the whole allowance, at
// 16k tokens one took 10.9k and left the co-changed file ranked third
// out. At a small budget the floor keeps room for a test function or two,
// the file a reviewer reads after the change.
const (
	companionShare = 3
	companionFloor = 1000
)

// listingShare bounds the reserve for omitted files' entries (a tenth of
// what the explicit items leave): they are metadata, and the content of
// the files that fit comes first.
const listingShare = 10

// listingReserve is what formats that list every omitted file keep out of
// the content for the entries: the cost of every item's entry, at most
// limit; 0 for other formats.
func (b *builder) listingReserve(items []*bitem, limit int) int {
	if !b.fm.listsAll() {
		return 0
	}
	sum := 0
	for _, it := range items {
		if it.listing != "" {
			sum += it.listingCost
		}
	}
	return min(sum, limit)
}

// groups are the items planned first (extras and explicit files), the
// companion files planned next, and the implicit files, each in order.
func (b *builder) groups() (explicit, companions, implicit []*bitem) {
	explicit = append(explicit, b.extras...)
	for _, it := range b.order {
		switch {
		case it.explicit:
			explicit = append(explicit, it)
		case it.companion:
			companions = append(companions, it)
		default:
			implicit = append(implicit, it)
		}
	}
	return explicit, companions, implicit
}

// allocate plans the items' options by value density, never below the
// option an item already holds (its floor from cover). The best-spans
// options are left out of the trade.
func (b *builder) allocate(items []*bitem, left int) int {
	ps := make([]*pitem, len(items))
	// index[i][k] is the option of items[i] that planner option k stands for.
	index := make([][]int, len(items))
	for i, it := range items {
		floor := 0
		if it.cur > 0 {
			floor = it.cur
			left += it.opts[floor].cost // allocate counts current costs itself
		}
		p := &pitem{}
		p.opts = append(p.opts, choice{cost: it.opts[floor].cost, value: it.opts[floor].value})
		index[i] = append(index[i], floor)
		for j, o := range it.opts {
			if j == floor || o.best || (floor > 0 && (o.cost < it.opts[floor].cost || o.rung < it.opts[floor].rung)) {
				continue
			}
			if floor == 0 && j == 0 {
				continue
			}
			p.opts = append(p.opts, choice{cost: o.cost, value: o.value})
			index[i] = append(index[i], j)
		}
		ps[i] = p
	}
	left = allocate(ps, left)
	for i, it := range items {
		it.cur = index[i][ps[i].cur]
	}
	return left
}

// coverFiles is how many of the best implicit files cover considers, and
// coverShare the most of what is left that one of them may take.
const (
	coverFiles = 5
	coverShare = 0.5
)

// cover gives the best-ranked implicit files, in rank order, their
// relevant spans (all of them, else the most relevant that fit, else their
// skeleton when no spans fit or there are none) before any trade by value
// density, so that a handful of small, lower-ranked files never crowd out
// the files the ranking put first. A file whose cheapest such rung costs
// more than half of what is left is passed over. allocate then upgrades
// from these floors.
func (b *builder) cover(items []*bitem, left int) int {
	n := 0
	for _, it := range items {
		if n == coverFiles || left <= 0 {
			break
		}
		n++
		fits := func(o *bopt, want Rung) bool {
			return o.rung == want && !o.trunc && float64(o.cost) <= coverShare*float64(left)
		}
		// The most valuable that fits (all the spans, or the best of
		// them), the cheaper of equals.
		better := func(o, than *bopt) bool {
			return o.value > than.value || (o.value == than.value && o.cost < than.cost)
		}
		best := -1
		for _, want := range []Rung{RungSpans, RungSkeleton} {
			for j := range it.opts {
				if o := &it.opts[j]; fits(o, want) && (best < 0 || better(o, &it.opts[best])) {
					best = j
				}
			}
			// The best spans not among the options are worth less than
			// all the spans: they are rendered only when those do not fit.
			if want == RungSpans && best < 0 {
				lazy, pick := b.bestOf(it), -1
				for j := range lazy {
					if fits(&lazy[j], want) && (pick < 0 || better(&lazy[j], &lazy[pick])) {
						pick = j
					}
				}
				if pick >= 0 {
					it.opts = append(it.opts, lazy[pick])
					best = len(it.opts) - 1
				}
			}
			if best >= 0 {
				break
			}
		}
		if best < 0 {
			continue
		}
		it.cur = best
		left -= it.opts[best].cost
	}
	return left
}

// fillTruncated gives each item still below its target rung (spans, or the
// whole file or extra) a cut-down version of the target when the leftover
// pays for one that is worth more than what the item has: its most
// relevant spans alone, or the target truncated, whichever is worth more.
func (b *builder) fillTruncated(items []*bitem, left int) int {
	for _, it := range items {
		cur := it.chosen()
		if !it.hasTarget || (cur.rung >= it.targetRung && !cur.best) {
			continue
		}
		limit := cur.cost + left
		if limit < minTruncTokens {
			continue
		}
		// The most valuable of the best spans that fit (rendered now,
		// bestOf), or the target truncated, whichever is worth more.
		var add *bopt
		for j := range b.bestOf(it) {
			if o := &it.best[j]; o.cost <= limit && o.value > cur.value && (add == nil || o.value > add.value) {
				add = o
			}
		}
		if o, ok := b.truncate(it, limit); ok && o.value > cur.value && (add == nil || o.value > add.value) {
			add = &o
		}
		if add == nil {
			continue
		}
		left -= add.cost - cur.cost
		it.opts = append(it.opts, *add)
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

// readingOrder is the order files are shown in: the planning order, or,
// when the request gives reading places (File.ReadAt), explicit files
// first and then by place (files without one last, in planning order).
// What fits the budget is still chosen in the planning order.
func readingOrder(order []*bitem, files []File) []*bitem {
	place := func(it *bitem) int {
		if p := files[it.idx].ReadAt; p > 0 {
			return p
		}
		return math.MaxInt
	}
	any := false
	for _, it := range order {
		any = any || files[it.idx].ReadAt > 0
	}
	if !any {
		return order
	}
	shown := slices.Clone(order)
	slices.SortStableFunc(shown, func(a, b *bitem) int {
		if a.explicit != b.explicit {
			if a.explicit {
				return -1
			}
			return 1
		}
		return cmp.Compare(place(a), place(b))
	})
	return shown
}
