package bundle

import (
	"fmt"
	"sort"
	"strings"
)

// Thresholds of BudgetReport: a file is relevant when it is explicit or
// scores at least reportRelevant of the best score; the report speaks when
// the relevant tokens left out reach reportShare of the budget, or an
// explicit file was cut.
const (
	reportRelevant = 0.25
	reportShare    = 0.10
	reportListed   = 5
)

// BudgetReport returns a short text for stderr when much relevant context
// did not fit the budget: the largest relevant files that were left out or
// cut down, with their cost, and what raising the budget would add. It
// returns "" when the budget was not the limiting factor. The figures are
// section costs measured while assembling, so a new budget gives about
// what is promised (the plan is recomputed).
func BudgetReport(r *Result) string {
	if r == nil {
		return ""
	}
	top := 0.0
	for _, f := range r.Files {
		top = max(top, roundScore(f.Score))
	}
	type short struct {
		path    string
		want    Rung
		got     Rung
		missing int
		rank    int
	}
	var shorts []short
	sum, explicitCut := 0, false
	for i, f := range r.Files {
		if !f.Explicit && (top <= 0 || roundScore(f.Score) < reportRelevant*top) {
			continue
		}
		want := RungOmitted
		for _, rg := range []Rung{RungSpans, RungFull} {
			if f.Costs[rg] > 0 {
				want = rg
				break
			}
		}
		if want == RungOmitted || (f.Rung >= want && !f.Truncated) {
			continue
		}
		missing := f.Costs[want] - f.Tokens
		if missing <= 0 {
			continue
		}
		shorts = append(shorts, short{f.Path, want, f.Rung, missing, i})
		sum += missing
		explicitCut = explicitCut || f.Explicit
	}
	if len(shorts) == 0 || (!explicitCut && float64(sum) < reportShare*float64(r.Budget)) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "bundle: %d relevant %s did not fit in %d tokens (about %d more tokens needed):\n",
		len(shorts), plural(len(shorts), "file", "files"), r.Budget, sum)
	bySize := append([]short(nil), shorts...)
	sort.SliceStable(bySize, func(i, j int) bool { return bySize[i].missing > bySize[j].missing })
	for i, s := range bySize {
		if i == reportListed {
			fmt.Fprintf(&b, "  … and %d more\n", len(bySize)-reportListed)
			break
		}
		got := s.got.String()
		if s.got != RungOmitted {
			got = "cut to " + got
		}
		fmt.Fprintf(&b, "  %s: %d tokens more for %s (%s)\n", oneLine(s.path, 120), s.missing, s.want, got)
	}
	first := shorts[0] // best ranked
	fmt.Fprintf(&b, "Raising the budget to about %d would add %s (%s)", roundUp(r.TotalTokens+first.missing), oneLine(first.path, 120), first.want)
	if len(shorts) > 1 {
		fmt.Fprintf(&b, "; to about %d, all %d", roundUp(r.TotalTokens+sum), len(shorts))
	}
	b.WriteString(".\n")
	return b.String()
}

// roundUp rounds a suggested budget up to a round number.
func roundUp(n int) int {
	step := 100
	if n >= 20000 {
		step = 1000
	}
	return (n + step - 1) / step * step
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
