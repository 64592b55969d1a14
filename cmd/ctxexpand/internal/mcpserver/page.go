package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/expand"
)

// A page is one bundle cut from a query's ranked files.
//
// Page 1 is the bundle of the whole ranked list, as the command line
// prints it. A file is held by a page when the page shows its relevant
// code: its relevant spans or its whole text. Page N+1 is the bundle of
// the ranked files that pages 1..N did not hold, in rank order, under the
// same budget; files a page showed only as a skeleton or a summary come
// back on a later page with more detail. When a page holds no file at
// those rungs (a file too large for the budget), the files it shows at
// any rung count as held, so paging always advances. Explicit extras
// (diff hunks, @url pages, grep results) lead page 1 only.
//
// Pages are computed afresh on each call from the same ranking; bundles
// are deterministic, so page N+1 never repeats what page N held.
type page struct {
	number int
	res    *bundle.Result
	// held are the paths this page holds; shownBefore counts those the
	// earlier pages held; remaining counts ranked files held by no page
	// up to this one; ranked is the length of the ranked list.
	held        []string
	shownBefore int
	remaining   int
	ranked      int
}

// buildPage assembles page want (1-based) of out's ranked files.
func buildPage(ctx context.Context, sess *engine.Session, out *engine.Output, req engine.Request, want int) (*page, error) {
	ranked := out.Result.Files
	shown := map[string]bool{}
	for n := 1; ; n++ {
		var rest []expand.File
		for _, f := range ranked {
			if !shown[f.Path] {
				rest = append(rest, f)
			}
		}
		if n > 1 && len(rest) == 0 {
			return nil, toolErrorf("page %d is past the last page: the %d ranked files were all shown on pages 1 to %d. Raise max_files (now %d) for a longer ranking, or ask a narrower query", want, len(ranked), n-1, req.MaxFiles)
		}
		view := *out
		result := *out.Result
		result.Files = rest
		view.Result = &result
		if n > 1 {
			view.Extras = nil
		}
		res, err := sess.Assemble(ctx, &view, req)
		if err != nil {
			return nil, toolErrorf("assembling page %d: %v", n, err)
		}
		held := heldFiles(res)
		if len(held) == 0 && len(rest) > 0 && n < want {
			first := res.Files[0]
			return nil, toolErrorf("page %d cannot be built: the budget of %d tokens is too small to show %s (%s); raise budget", n+1, req.Budget, first.Path, costText(first))
		}
		if n == want {
			return &page{number: n, res: res, held: held, shownBefore: len(shown), remaining: len(rest) - len(held), ranked: len(ranked)}, nil
		}
		for _, p := range held {
			shown[p] = true
		}
	}
}

// heldFiles are the files a page shows with their relevant code, or,
// when it shows none that way, every file it shows at all.
func heldFiles(res *bundle.Result) []string {
	var held, shown []string
	for _, f := range res.Files {
		if f.Rung >= bundle.RungSpans {
			held = append(held, f.Path)
		}
		if f.Included {
			shown = append(shown, f.Path)
		}
	}
	if len(held) == 0 {
		return shown
	}
	return held
}

// costText says what a file would need.
func costText(f bundle.FileResult) string {
	for _, r := range []bundle.Rung{bundle.RungSpans, bundle.RungSkeleton, bundle.RungFull, bundle.RungSummary} {
		if c := f.Costs[r]; c > 0 {
			return fmt.Sprintf("about %d tokens at the %s level", c, r)
		}
	}
	return "it cannot be read"
}

// describe is the note that follows a page: what it holds, what is left,
// and how to get the next page.
func (p *page) describe(tool string) string {
	var b strings.Builder
	other := 0
	for _, f := range p.res.Files {
		if f.Included && f.Rung < bundle.RungSpans {
			other++
		}
	}
	fmt.Fprintf(&b, "page %d: %d of %d ranked files shown with their relevant code", p.number, len(p.held), p.ranked)
	if p.shownBefore > 0 {
		fmt.Fprintf(&b, " (%d were on earlier pages)", p.shownBefore)
	}
	if other > 0 {
		fmt.Fprintf(&b, "; %d more as skeletons or summaries", other)
	}
	fmt.Fprintf(&b, "; %d of %d tokens used.\n", p.res.TotalTokens, p.res.Budget)
	switch {
	case len(p.held) == 0 && p.remaining > 0:
		fmt.Fprintf(&b, "The budget of %d tokens is too small to show any of the %d remaining ranked files; call again with a larger budget.", p.res.Budget, p.remaining)
	case p.remaining > 0:
		fmt.Fprintf(&b, "%d more ranked files remain: call %s again with the same arguments and page=%d for the next ones.", p.remaining, tool, p.number+1)
	case p.ranked == 0:
		b.WriteString("No repository file matched the query; name a function, type or file, or reword the task.")
	default:
		b.WriteString("This is the last page: every ranked file has been shown.")
	}
	if r := bundle.BudgetReport(p.res); r != "" && p.remaining > 0 {
		b.WriteString("\n" + strings.TrimRight(r, "\n"))
	}
	return b.String()
}
