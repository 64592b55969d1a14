package bundle

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// Value of each rung as a share of a file's weight. Spans hold most of
// what made a file relevant; a skeleton shows its shape; a summary line
// little more than that it exists.
var rungValue = [numRungs]float64{
	RungOmitted:  0,
	RungSummary:  0.05,
	RungSkeleton: 0.3,
	RungSpans:    0.8,
	RungFull:     1,
}

// maxBytesPerBudgetToken: a section longer than this many bytes per token
// of budget is not counted (it cannot fit: code runs near 4 bytes a token).
const maxBytesPerBudgetToken = 16

// bitem is one extra or file being assembled.
type bitem struct {
	extra    bool
	idx      int // index in Request.Extras or Request.Files
	explicit bool
	// companion: planned after the explicit items (File.Companion).
	companion bool
	weight    float64
	base      section
	src       *srcFile
	readErr   error

	opts  []bopt // opts[0] is omitted; truncated options are appended by plans
	nBase int    // options before any truncated one
	cur   int

	// The best spans are not among opts: bestOf renders them on first use
	// (cover and fillTruncated) from bestAll, the ranges of the option
	// with every span (nil once rendered, or for a file without one), into
	// best; plans append the one they choose to opts, as truncations.
	bestAll []lineRange
	best    []bopt

	target     view // what truncation cuts down
	targetRung Rung
	hasTarget  bool

	listing     string // the omitted entry of formats that list them
	listingCost int
	listed      bool
	costs       [numRungs]int
}

// bopt is one rendered option of an item.
type bopt struct {
	rung  Rung
	trunc bool
	// best marks a spans option that shows only the file's most relevant
	// spans: the planner takes it as a floor (cover) or with the leftover
	// (fillTruncated), never in the trade by value density.
	best  bool
	sec   section
	text  string
	cost  int
	value float64
}

func (it *bitem) chosen() *bopt { return &it.opts[it.cur] }

// need is what the item's section costs at the cheapest rung that shows
// its relevant content: its spans when it has relevant spans, else the
// whole file; 0 when neither was measured (an unreadable file, or one too
// large for the budget ever to hold). BudgetReport asks for the same rung.
func (it *bitem) need() int {
	for _, r := range []Rung{RungSpans, RungFull} {
		if c := it.costs[r]; c > 0 {
			return c
		}
	}
	return 0
}

// prepare reads every file and renders and counts every rung of every item
// (but the best spans: see bitem.best), a bounded number of files at a
// time.
func (b *builder) prepare(ctx context.Context) error {
	for i := range b.req.Extras {
		it := &bitem{extra: true, idx: i, explicit: true, weight: 1}
		b.prepareExtra(it)
		b.extras = append(b.extras, it)
	}
	b.files = make([]*bitem, len(b.req.Files))
	workers := b.req.Options.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(b.req.Files)))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				it := &bitem{idx: i, explicit: b.req.Files[i].Explicit, companion: b.req.Files[i].Companion, weight: b.weights[i]}
				b.prepareFile(ctx, it)
				b.files[i] = it
			}
		}()
	}
	for i := range b.req.Files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}

// fileWeights normalises the implicit files' scores to (0, 1]; explicit
// and companion files weigh 1 (they are planned apart, first). Files without a positive
// score weigh a little, falling with rank, so they still fill spare room.
func fileWeights(files []File) []float64 {
	top := 0.0
	for _, f := range files {
		if s := roundScore(f.Score); !f.Explicit && !f.Companion && s > top {
			top = s
		}
	}
	w := make([]float64, len(files))
	for i, f := range files {
		switch s := roundScore(f.Score); {
		case f.Explicit || f.Companion:
			w[i] = 1
		case top > 0 && s > 0:
			w[i] = s / top
		default:
			w[i] = 1e-3 / float64(1+i)
		}
		w[i] = max(w[i], 1e-6/float64(1+i))
	}
	return w
}

func langTag(l analyze.Lang) string {
	switch l {
	case analyze.LangGo:
		return "go"
	case analyze.LangRust:
		return "rust"
	case analyze.LangTypeScript:
		return "typescript"
	case analyze.LangJavaScript:
		return "javascript"
	case analyze.LangPython:
		return "python"
	}
	return "text"
}

func langFromTag(tag string) analyze.Lang {
	switch strings.ToLower(tag) {
	case "go", "golang":
		return analyze.LangGo
	case "rust", "rs":
		return analyze.LangRust
	case "typescript", "ts":
		return analyze.LangTypeScript
	case "javascript", "js":
		return analyze.LangJavaScript
	case "python", "py":
		return analyze.LangPython
	}
	return analyze.LangUnknown
}

// readProblem says briefly why a file could not be read, without the
// machine paths that os errors carry.
func readProblem(err error) string {
	for _, known := range []struct {
		err  error
		text string
	}{
		{fs.ErrNotExist, "not found"}, {fs.ErrPermission, "permission denied"},
		{analyze.ErrBinary, "binary file"}, {analyze.ErrTooLarge, "file too large"},
		{analyze.ErrOutsideRoot, "outside the repository"}, {analyze.ErrNotRegular, "not a regular file"},
		{context.Canceled, "cancelled"}, {context.DeadlineExceeded, "timed out"},
	} {
		if errors.Is(err, known.err) {
			return known.text
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

func (b *builder) read(ctx context.Context, path string) ([]byte, error) {
	if b.req.Options.Read != nil {
		return b.req.Options.Read(ctx, path)
	}
	return analyze.ReadSource(b.req.Root, path, b.req.Options.MaxFileSize)
}

func (b *builder) prepareFile(ctx context.Context, it *bitem) {
	f := &b.req.Files[it.idx]
	lang := f.Lang
	if lang == analyze.LangUnknown {
		lang = analyze.LangOf(f.Path)
	}
	it.base = section{
		path: f.Path, lang: langTag(lang), score: f.Score, explicit: f.Explicit,
		category: f.Category, reasons: f.Reasons, spans: f.Spans,
	}
	it.opts = []bopt{{rung: RungOmitted}}
	defer func() {
		it.nBase = len(it.opts)
		omitted := it.base
		omitted.rung = RungOmitted
		omitted.need = it.need()
		if l := b.fm.listing(&omitted); l != "" {
			it.listing, it.listingCost = l, b.counter.Count(l)
		}
	}()

	var names []string
	for _, sym := range f.Symbols {
		if sym.Kind != "field" && sym.Kind != "variant" && sym.Name != "" {
			names = append(names, qualName(sym, lang))
		}
	}
	data, err := b.read(ctx, f.Path)
	if err != nil {
		it.readErr = err
		b.addOption(it, RungSummary, summaryText(names), nil)
		return
	}
	src := newSrc(data, lang)
	it.src = src

	var skel string
	var skelNames []string
	if lang == analyze.LangGo {
		var ok bool
		if skel, skelNames, ok = memoGoSkeleton(src.text, src.key(), !b.priming); !ok {
			skel, skelNames = symbolSkeleton(src, f.Symbols)
		}
	} else if isSpanLang(lang) {
		skel, skelNames = spanSkeleton(src, f.Symbols)
	} else if lang == analyze.LangRust || len(f.Symbols) > 0 {
		skel, skelNames = symbolSkeleton(src, f.Symbols)
	}
	if len(names) == 0 {
		names = skelNames
	}
	b.addOption(it, RungSummary, summaryText(names), nil)
	full := src.whole()
	if skel != "" && len(skel) < len(full) {
		b.addOption(it, RungSkeleton, skel, nil)
	}
	it.target, it.targetRung, it.hasTarget = src.fullView(), RungFull, src.n() > 0
	spansOnly := false
	if len(f.Spans) > 0 {
		v := src.spansView(f.Spans, f.Symbols, b.ctxLines)
		if len(v.ranges) > 0 && !v.covers(src) {
			b.addOption(it, RungSpans, src.render(v.ranges), v.ranges)
			it.bestAll = v.ranges
			// Truncation cuts the spans themselves, without context lines.
			it.target, it.targetRung = src.spansView(f.Spans, f.Symbols, 0), RungSpans
			spansOnly = f.SpansOnly
		}
	}
	if !spansOnly {
		b.addOption(it, RungFull, full, nil)
	}
}

func (b *builder) prepareExtra(it *bitem) {
	x := &b.req.Extras[it.idx]
	it.base = section{extra: true, kind: x.Kind, title: x.Title, lang: fenceTag(x.Lang)}
	it.opts = []bopt{{rung: RungOmitted}}
	src := newSrc([]byte(x.Content), langFromTag(x.Lang))
	it.src = src
	b.addOption(it, RungSummary, "", nil)
	it.target, it.targetRung, it.hasTarget = src.fullView(), RungFull, src.n() > 0
	b.addOption(it, RungFull, src.whole(), nil)
	it.nBase = len(it.opts)
}

// addOption renders and counts an item's section at a rung, unless it is
// too long to ever fit the budget.
func (b *builder) addOption(it *bitem, r Rung, content string, ranges []lineRange) {
	if len(content) > maxBytesPerBudgetToken*b.req.Budget {
		return
	}
	o := b.render(it, r, content, ranges, false)
	o.value = it.weight * rungValue[r]
	it.costs[r] = o.cost
	it.opts = append(it.opts, o)
}

// maxBestSpans is how many of a file's most relevant spans the smaller
// spans options show at most (the best one, the best two, ...).
const maxBestSpans = 3

// bestSpans renders, for a file whose spans have several ranks, the
// options that show only its most relevant spans: the best, then the best
// two, up to maxBestSpans. The best span alone is worth half of all of
// them, the best two three quarters, and so on: each further span adds
// half of what the one before added. A file whose spans do not all fit
// can still show the code that put it in the ranking, instead of falling
// to its skeleton. all is what the option with every span shows.
func (b *builder) bestSpans(it *bitem, all []lineRange) []bopt {
	f, src := &b.req.Files[it.idx], it.src
	var ranks []int
	for _, sp := range f.Spans {
		ranks = append(ranks, sp.Rank)
	}
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	var opts []bopt
	for k := 1; k < len(ranks) && k <= maxBestSpans; k++ {
		var best []Span
		for _, sp := range f.Spans {
			if sp.Rank < ranks[k] {
				best = append(best, sp)
			}
		}
		v := src.spansView(best, f.Symbols, b.ctxLines)
		if len(v.ranges) == 0 || slices.Equal(v.ranges, all) {
			continue
		}
		content := src.render(v.ranges)
		if len(content) > maxBytesPerBudgetToken*b.req.Budget {
			continue
		}
		o := b.renderSpans(it, RungSpans, content, v.ranges, false, best)
		o.value = it.weight * rungValue[RungSpans] * (1 - math.Pow(0.5, float64(k)))
		o.best = true
		opts = append(opts, o)
	}
	return opts
}

// bestOf is the item's best-spans options that are not among its opts
// (see bitem.best), rendered on the first call.
func (b *builder) bestOf(it *bitem) []bopt {
	if it.bestAll != nil {
		it.best, it.bestAll = b.bestSpans(it, it.bestAll), nil
	}
	return it.best
}

// render builds an option's section text and counts it.
func (b *builder) render(it *bitem, r Rung, content string, ranges []lineRange, trunc bool) bopt {
	return b.renderSpans(it, r, content, ranges, trunc, it.base.spans)
}

// renderSpans is render for an option that shows the given spans.
func (b *builder) renderSpans(it *bitem, r Rung, content string, ranges []lineRange, trunc bool, spans []Span) bopt {
	sec := it.base
	sec.rung, sec.content, sec.ranges, sec.spans = r, content, ranges, spans
	sec.truncated, sec.mode = trunc, b.req.Options.Truncation
	if b.req.Format == JSON {
		sec.tokens = b.counter.Count(content)
	}
	var text string
	if it.extra {
		text = b.fm.extra(&sec)
	} else {
		text = b.fm.file(&sec)
	}
	lo, hi := contentIn(b.req.Format, text, content)
	return bopt{rung: r, trunc: trunc, sec: sec, text: text, cost: tokenize.CountAround(b.counter, text, lo, hi)}
}

// contentIn returns where a section's text holds its content: escaped as
// the last value of the object in JSON, in CDATA in XML (where a "]]>"
// splits it in two sections), as it is in the other formats (the last
// copy: only a fence follows it). (-1, -1) when there is none. The count
// of the text is the same wherever it says: it only lets the counter
// find the content's count again under another header
// (tokenize.CountAround).
func contentIn(f Format, text, content string) (lo, hi int) {
	if content == "" {
		return -1, -1
	}
	switch f {
	case JSON:
		const key, end = `"content":"`, `"},` + "\n"
		i := strings.Index(text, key)
		if i < 0 || !strings.HasSuffix(text, end) || i+len(key) > len(text)-len(end) {
			return -1, -1
		}
		return i + len(key), len(text) - len(end)
	case XML:
		// Attribute values escape "<", so the first CDATA opens the
		// content, and the last "]]>" closes it.
		const open, end = "<![CDATA[", "]]>"
		i, j := strings.Index(text, open), strings.LastIndex(text, end)
		if i < 0 || j < i+len(open) {
			return -1, -1
		}
		return i + len(open), j
	}
	i := strings.LastIndex(text, content)
	if i < 0 {
		return -1, -1
	}
	return i, i + len(content)
}

// maxSummaryNames caps the symbol names of a summary line.
const maxSummaryNames = 12

// summaryText is the summary rung's content: the file's symbol names.
func summaryText(names []string) string {
	seen := map[string]bool{}
	var uniq []string
	for _, n := range names {
		n = oneLine(n, 80)
		if n != "" && !seen[n] {
			seen[n] = true
			uniq = append(uniq, n)
		}
	}
	if len(uniq) == 0 {
		return "Symbols: none"
	}
	if len(uniq) > maxSummaryNames {
		return fmt.Sprintf("Symbols: %s (+%d more)", strings.Join(uniq[:maxSummaryNames], ", "), len(uniq)-maxSummaryNames)
	}
	return "Symbols: " + strings.Join(uniq, ", ")
}

// fenceTag makes a language tag safe for a fence's info string (no
// backticks, no spaces): letters, digits and "+-._#" only, else "text".
func fenceTag(tag string) string {
	if tag == "" || len(tag) > 20 {
		return "text"
	}
	for _, c := range []byte(tag) {
		if !isAlnum(c) && !strings.ContainsRune("+-._#", rune(c)) {
			return "text"
		}
	}
	return tag
}
