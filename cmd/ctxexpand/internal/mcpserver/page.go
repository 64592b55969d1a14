package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/engine"
)

// pageOf assembles page want of out's ranking (engine.Session.Page) and
// words its refusals for an agent.
func pageOf(ctx context.Context, sess *engine.Session, out *engine.Output, req engine.Request, want int) (*engine.Page, error) {
	pg, err := sess.Page(ctx, out, req, want)
	var past *engine.PastLastPageError
	var small *engine.PageBudgetError
	switch {
	case errors.As(err, &past):
		return nil, toolErrorf("%v. Raise max_files (now %d) for a longer ranking, or ask a narrower query", err, req.MaxFiles)
	case errors.As(err, &small):
		return nil, toolErrorf("page %d cannot be built: the budget of %d tokens is too small to show %s (%s); raise budget", small.Page, req.Budget, small.File.Path, costText(small.File))
	case err != nil:
		return nil, toolErrorf("%v", err)
	}
	return pg, nil
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

// describePage is the note that follows a page: what it holds, what is
// left, and how to get the next page.
func describePage(p *engine.Page, tool string) string {
	var b strings.Builder
	other := 0
	for _, f := range p.Bundle.Files {
		if f.Included && f.Rung < bundle.RungSpans {
			other++
		}
	}
	fmt.Fprintf(&b, "page %d: %d of %d ranked files shown with their relevant code", p.Number, len(p.Held), p.Ranked)
	if p.ShownBefore > 0 {
		fmt.Fprintf(&b, " (%d were on earlier pages)", p.ShownBefore)
	}
	if other > 0 {
		fmt.Fprintf(&b, "; %d more as skeletons or summaries", other)
	}
	fmt.Fprintf(&b, "; %d of %d tokens used.\n", p.Bundle.TotalTokens, p.Bundle.Budget)
	switch {
	case len(p.Held) == 0 && p.Remaining > 0:
		fmt.Fprintf(&b, "The budget of %d tokens is too small to show any of the %d remaining ranked files; call again with a larger budget.", p.Bundle.Budget, p.Remaining)
	case p.Remaining > 0:
		fmt.Fprintf(&b, "%d more ranked files remain: call %s again with the same arguments and page=%d for the next ones.", p.Remaining, tool, p.Number+1)
	case p.Ranked == 0:
		b.WriteString("No repository file matched the query; name a function, type or file, or reword the task.")
	default:
		b.WriteString("This is the last page: every ranked file has been shown.")
	}
	if r := bundle.BudgetReport(p.Bundle); r != "" && p.Remaining > 0 {
		b.WriteString("\n" + strings.TrimRight(r, "\n"))
	}
	return b.String()
}
