package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// Report is the outcome of a run.
type Report struct {
	Dataset string   `json:"dataset,omitempty"`
	Rankers []string `json:"rankers"`
	// Reference is the ranker the paired comparisons take as their
	// baseline (paired.go); empty means ctxexpand, or the first ranker.
	Reference string        `json:"reference,omitempty"`
	Budgets   []int         `json:"budgets"`
	Jobs      int           `json:"jobs"`
	Wall      time.Duration `json:"wall_ns"`
	// PeakRSS is the process's peak resident set size (VmHWM) at the end
	// of the run, in bytes; 0 where the system does not report it.
	PeakRSS uint64 `json:"peak_rss_bytes"`
	// Summaries hold, for each group ("all", then each language present)
	// and each ranker in run order, the averaged metrics.
	Summaries []Summary        `json:"summaries"`
	Instances []InstanceReport `json:"instances"`
	// Skipped counts instances left out because their feature dump
	// already existed (Options.DumpDir).
	Skipped int `json:"skipped,omitempty"`
}

// InstanceReport is what happened on one instance.
type InstanceReport struct {
	ID    string   `json:"id"`
	Repo  string   `json:"repo"`
	Lang  string   `json:"lang"`
	Base  string   `json:"base"`
	Query string   `json:"query"`
	Gold  []string `json:"gold_files"`
	// CheckoutError is set when no checkout could be made; the instance is
	// then left out of every summary.
	CheckoutError  string `json:"checkout_error,omitempty"`
	CheckoutReused bool   `json:"checkout_reused"`
	// CheckoutMissing lists files absent from the checkout because the
	// repository's object store lacks their content.
	CheckoutMissing []string       `json:"checkout_missing,omitempty"`
	CheckoutTime    time.Duration  `json:"checkout_ns"`
	Results         []RankerResult `json:"results"`
	// GoldFuncs are the functions the fix changed (funcs.go); nil when
	// function-level scoring was not run.
	GoldFuncs []Decl `json:"gold_functions,omitempty"`
	// FuncError says why function-level scoring failed on this instance.
	FuncError string `json:"functions_error,omitempty"`
}

// RankerResult is one ranker's answer on one instance and its scores.
type RankerResult struct {
	Ranker  string        `json:"ranker"`
	Error   string        `json:"error,omitempty"`
	Elapsed time.Duration `json:"elapsed_ns"`
	// HeapPeak is the peak growth of live heap while the ranker ran, in
	// bytes (sampled; measured only with one job).
	HeapPeak uint64 `json:"heap_peak_bytes,omitempty"`
	// Ranked is how many scored source files the ranker returned.
	Ranked     int          `json:"ranked"`
	Top        []RankedFile `json:"top"`
	GoldDetail []GoldResult `json:"gold"`
	Scores     Scores       `json:"scores"`
	// Funcs are the function-level scores when the instance has gold
	// functions, and TopFuncs the first functions ranked.
	Funcs    *FuncScores  `json:"functions,omitempty"`
	TopFuncs []RankedFunc `json:"top_functions,omitempty"`
}

// GoldResult is where a ranker put one gold file.
type GoldResult struct {
	Path      string   `json:"path"`
	Rank      int      `json:"rank"` // 1-based among scored files; 0 = not returned
	Reasons   []string `json:"reasons,omitempty"`
	InBundles []int    `json:"in_bundles"` // budgets whose bundle holds it
}

// Groups lists the summary groups in report order: "all" then the
// languages present, sorted.
func (r *Report) Groups() []string {
	groups := []string{"all"}
	for _, l := range []string{LangGo, LangRust} {
		for _, in := range r.Instances {
			if in.Lang == l {
				groups = append(groups, l)
				break
			}
		}
	}
	return groups
}

// Summary returns the summary of ranker over group, if any.
func (r *Report) Summary(ranker, group string) (Summary, bool) {
	for _, s := range r.Summaries {
		if s.Ranker == ranker && s.Group == group {
			return s, true
		}
	}
	return Summary{}, false
}

// CheckoutErrors counts instances left out because no checkout was made.
func (r *Report) CheckoutErrors() int {
	n := 0
	for _, in := range r.Instances {
		if in.CheckoutError != "" {
			n++
		}
	}
	return n
}

// summarizeReport averages every ranker over every group.
func summarizeReport(r *Report) []Summary {
	var out []Summary
	for _, g := range r.Groups() {
		for ri, name := range r.Rankers {
			var in []summaryInput
			for _, inst := range r.Instances {
				if inst.CheckoutError != "" || (g != "all" && inst.Lang != g) || ri >= len(inst.Results) {
					continue
				}
				res := inst.Results[ri]
				in = append(in, summaryInput{Scores: res.Scores, Failed: res.Error != "", Elapsed: res.Elapsed, Heap: res.HeapPeak, Funcs: res.Funcs})
			}
			out = append(out, summarize(name, g, len(r.Budgets), in))
		}
	}
	return out
}

// WriteJSON writes the whole report, indented.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteMarkdown writes one table per group: rows are rankers, columns the
// headline metrics and the time percentiles.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	heap := false
	for _, s := range r.Summaries {
		heap = heap || s.HeapP95 > 0
	}
	for gi, g := range r.Groups() {
		n := 0
		if s, ok := r.Summary(r.Rankers[0], g); ok {
			n = s.N
		}
		if gi > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s (N=%d)\n\n", groupTitle(g), n)
		cols := []string{"ranker"}
		for _, k := range TableKs {
			cols = append(cols, fmt.Sprintf("hit@%d", k))
		}
		cols = append(cols, "rec@5", "all@5", "MRR", "NDCG@10")
		for _, bud := range r.Budgets {
			cols = append(cols, "inc@"+BudgetLabel(bud))
		}
		cols = append(cols, "p50", "p95")
		if heap {
			cols = append(cols, "heap p95")
		}
		cols = append(cols, "errors")
		writeRow(&b, cols)
		seps := make([]string, len(cols))
		for i := range seps {
			seps[i] = "---:"
		}
		seps[0] = "---"
		writeRow(&b, seps)
		for _, name := range r.Rankers {
			s, _ := r.Summary(name, g)
			row := []string{name}
			for _, k := range TableKs {
				row = append(row, f2(s.Hit[k-1]))
			}
			row = append(row, f2(s.Rec[4]), f2(s.All[4]), f2(s.MRR), f2(s.NDCG))
			for i := range r.Budgets {
				row = append(row, f2(s.Inc[i]))
			}
			row = append(row, fmtDuration(s.TimeP50), fmtDuration(s.TimeP95))
			if heap {
				row = append(row, fmtBytes(s.HeapP95))
			}
			row = append(row, fmt.Sprint(s.Errors))
			writeRow(&b, row)
		}
	}
	r.writePaired(&b)
	r.writeFunctionTables(&b)
	if n := r.CheckoutErrors(); n > 0 {
		fmt.Fprintf(&b, "\n%d instance(s) left out: no checkout could be made (see the JSON report).\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func groupTitle(g string) string {
	switch g {
	case LangGo:
		return "Go"
	case LangRust:
		return "Rust"
	}
	return "All"
}

func writeRow(b *strings.Builder, cells []string) {
	b.WriteString("| ")
	b.WriteString(strings.Join(cells, " | "))
	b.WriteString(" |\n")
}

func f2(x float64) string { return fmt.Sprintf("%.2f", x) }

// BudgetLabel writes a token budget the way tables label it: 4000 and 4096
// are both "4k", other values are written out.
func BudgetLabel(b int) string {
	switch {
	case b >= 1000 && b%1024 == 0:
		return fmt.Sprintf("%dk", b/1024)
	case b >= 1000 && b%1000 == 0:
		return fmt.Sprintf("%dk", b/1000)
	}
	return fmt.Sprint(b)
}

// fmtDuration rounds a duration for a table cell.
func fmtDuration(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= 10*time.Millisecond:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(10 * time.Microsecond).String()
}

func fmtBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// writeFunctionTables writes the function-level tables, one per group,
// when any instance was scored at function level.
func (r *Report) writeFunctionTables(b *strings.Builder) {
	any := false
	for _, s := range r.Summaries {
		any = any || s.FuncN > 0
	}
	if !any {
		return
	}
	for _, g := range r.Groups() {
		n, gold := 0, 0
		if s, ok := r.Summary(r.Rankers[0], g); ok {
			n, gold = s.FuncN, s.FuncGold
		}
		fmt.Fprintf(b, "\n### %s, functions (N=%d with %d gold functions)\n\n", groupTitle(g), n, gold)
		cols := []string{"ranker"}
		for _, k := range TableKs {
			cols = append(cols, fmt.Sprintf("hit@%d", k))
		}
		cols = append(cols, "MRR")
		for _, bud := range r.Budgets {
			cols = append(cols, "inc@"+BudgetLabel(bud))
		}
		writeRow(b, cols)
		seps := make([]string, len(cols))
		for i := range seps {
			seps[i] = "---:"
		}
		seps[0] = "---"
		writeRow(b, seps)
		for _, name := range r.Rankers {
			s, _ := r.Summary(name, g)
			row := []string{name}
			for _, k := range TableKs {
				v := 0.0
				if s.FuncN > 0 {
					v = s.FuncHit[k-1]
				}
				row = append(row, f2(v))
			}
			row = append(row, f2(s.FuncMRR))
			for i := range r.Budgets {
				v := 0.0
				if s.FuncN > 0 {
					v = s.FuncInc[i]
				}
				row = append(row, f2(v))
			}
			writeRow(b, row)
		}
	}
}
