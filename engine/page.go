package engine

import (
	"context"
	"fmt"

	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/expand"
)

// A Page is one bundle cut from a query's ranked files.
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
type Page struct {
	Number int
	Bundle *bundle.Result
	// Held are the paths this page holds; ShownBefore counts those the
	// earlier pages held; Remaining counts ranked files held by no page
	// up to this one; Ranked is the length of the ranked list.
	Held        []string
	ShownBefore int
	Remaining   int
	Ranked      int
}

// PastLastPageError is a page asked for after the last: the Ranked files
// were all shown on pages 1 to Last.
type PastLastPageError struct{ Want, Ranked, Last int }

func (e *PastLastPageError) Error() string {
	return fmt.Sprintf("page %d is past the last page: the %d ranked files were all shown on pages 1 to %d", e.Want, e.Ranked, e.Last)
}

// PageBudgetError is a page that cannot be built: page Page-1 held
// nothing, since the budget cannot show File.
type PageBudgetError struct {
	Page int
	File bundle.FileResult
}

func (e *PageBudgetError) Error() string {
	return fmt.Sprintf("page %d cannot be built: the budget is too small to show %s", e.Page, e.File.Path)
}

// Page assembles page want (1-based) of out's ranked files under req's
// budget and format.
func (s *Session) Page(ctx context.Context, out *Output, req Request, want int) (*Page, error) {
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
			return nil, &PastLastPageError{Want: want, Ranked: len(ranked), Last: n - 1}
		}
		view := *out
		result := *out.Result
		result.Files = rest
		view.Result = &result
		if n > 1 {
			view.Extras = nil
		}
		res, err := s.Assemble(ctx, &view, req)
		if err != nil {
			return nil, fmt.Errorf("assembling page %d: %w", n, err)
		}
		held := heldFiles(res)
		if len(held) == 0 && len(rest) > 0 && n < want {
			return nil, &PageBudgetError{Page: n + 1, File: res.Files[0]}
		}
		if n == want {
			return &Page{Number: n, Bundle: res, Held: held, ShownBefore: len(shown), Remaining: len(rest) - len(held), Ranked: len(ranked)}, nil
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
