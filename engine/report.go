package engine

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Rendered is what a command prints for an Output: Output on standard
// output, Notes and Explain on standard error, and whether the result is
// partial (the exit status says so). Its JSON form is the resident
// server's answer, which the command prints as it would its own.
type Rendered struct {
	// Output is the bundle, or the ranked paths (Output.FilesOnly).
	Output  string `json:"output,omitempty"`
	Notes   string `json:"notes,omitempty"`
	Explain string `json:"explain,omitempty"`
	Partial bool   `json:"partial,omitempty"`
}

// Render is what a command prints for o: the ranked paths instead of the
// bundle with filesOnly, the notes (WriteNotes), and the explanation
// (WriteExplain) only with explain.
func (o *Output) Render(filesOnly, explain bool) Rendered {
	r := Rendered{Output: string(o.Bundle), Partial: o.Partial}
	if filesOnly {
		r.Output = string(o.FilesOnly())
	}
	var b strings.Builder
	o.WriteNotes(&b)
	r.Notes = b.String()
	if explain {
		b.Reset()
		o.WriteExplain(&b)
		r.Explain = b.String()
	}
	return r
}

// FilesOnly is the ranked list of paths, one per line.
func (o *Output) FilesOnly() []byte {
	var b bytes.Buffer
	for _, f := range o.Result.Files {
		b.WriteString(f.Path)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// WriteNotes writes what a user should know about the run to w: what was
// skipped or degraded (grouped, with counts), unresolved names with
// suggestions, and whether the result is partial.
func (o *Output) WriteNotes(w io.Writer) {
	if o.RefSummary != "" {
		fmt.Fprintln(w, strings.TrimRight(o.RefSummary, "\n"))
	}
	for _, n := range o.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	byKind := map[analyze.ProblemKind][]analyze.Problem{}
	for _, p := range o.Facts.Problems {
		byKind[p.Kind] = append(byKind[p.Kind], p)
	}
	var kinds []analyze.ProblemKind
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	for _, k := range kinds {
		ps := byKind[k]
		const show = 5
		for i, p := range ps {
			if i == show {
				fmt.Fprintf(w, "note: … and %d more %s problems (--explain lists them all)\n", len(ps)-show, k)
				break
			}
			fmt.Fprintf(w, "note: %s\n", p)
		}
	}
	if o.BundleResult != nil {
		if r := bundle.BudgetReport(o.BundleResult); r != "" {
			fmt.Fprintln(w, strings.TrimRight(r, "\n"))
		}
	}
	if o.Partial {
		fmt.Fprintln(w, "note: partial result: the time limit cut the analysis short; raise --timeout for a complete one")
	}
}

// WriteExplain writes the query plan, the seeds and the ranking table with
// every file's reasons and score contributions.
func (o *Output) WriteExplain(w io.Writer) {
	fmt.Fprintln(w, "== plan")
	fmt.Fprintln(w, strings.TrimRight(o.Plan.Explain(), "\n"))
	fmt.Fprintf(w, "strategies: %s, depth %d\n", strings.Join(o.Result.Strategies, "+"), o.Result.Depth)
	if len(o.Result.SpentTerms) > 0 {
		spent := o.Plan.TermWords().Words(o.Result.SpentTerms)
		fmt.Fprintf(w, "words of resolved names, counted only in their defining files and files the walk missed: %s\n", strings.Join(spent, ", "))
	}
	fmt.Fprintf(w, "repository: %s\n", o.Facts.Summary())
	if line := edgeOrigins(o.Facts); line != "" {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, "== seeds")
	for i, s := range o.Result.Seeds {
		if i == 20 {
			fmt.Fprintf(w, "  … %d more\n", len(o.Result.Seeds)-20)
			break
		}
		loc := s.Path
		if s.Line > 0 {
			loc = fmt.Sprintf("%s:%d", s.Path, s.Line)
		}
		fmt.Fprintf(w, "  %.3f  %-10s %s  %s\n", s.Score, s.Source, s.Label, loc)
	}
	fmt.Fprintf(w, "== ranking (%s)\n", rankerTitle(o.Result.Ranker, o.Result.RankerWhy, o.Plan.Kind))
	if o.Result.Ranker == expand.RankerLearned && expand.StructureDecides(o.Plan, o.Result.NamesResolved()) {
		fmt.Fprintf(w, "a focused fix: files the model gives less than %.2f follow the hand-weighted order (the code's structure)\n", expand.LikelyProbability)
	}
	rungs := map[string][2]string{}
	if o.BundleResult != nil {
		for _, fr := range o.BundleResult.Files {
			rungs[fr.Path] = [2]string{fmt.Sprint(fr.Tokens), fr.Rung.String()}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tscore\ttokens\trung\tfile\twhy")
	for i, f := range o.Result.Files {
		why := ""
		if len(f.Reasons) > 0 {
			why = f.Reasons[0]
		}
		tr, ok := rungs[f.Path]
		if !ok {
			tr = [2]string{"-", "-"}
		}
		fmt.Fprintf(tw, "%d\t%.3f\t%s\t%s\t%s\t%s\n", i+1, f.Score, tr[0], tr[1], f.Path, why)
		for _, r := range f.Reasons[min(1, len(f.Reasons)):] {
			fmt.Fprintf(tw, "\t\t\t\t\t%s\n", r)
		}
		if o.Result.Ranker == expand.RankerLearned && len(f.Contribs) > 0 {
			fmt.Fprintf(tw, "\t\t\t\t\tmodel: %s\n", contribLine(f.Contribs, maxExplainContribs))
		}
	}
	tw.Flush()
	if o.BundleResult != nil {
		fmt.Fprintf(w, "bundle: %d of %d tokens (%s)\n", o.BundleResult.TotalTokens, o.BundleResult.Budget, o.BundleResult.Tokenizer)
	}
}

// edgeOrigins says where the edges came from when a SCIP index gave some:
// "edges: 381 from SCIP indexes, 60 from our analysis (0 by name)"; ""
// without SCIP.
func edgeOrigins(f *analyze.Facts) string {
	var scip, ours, byName int
	for _, e := range f.Edges {
		if e.Origin == analyze.OriginSCIP {
			scip++
			continue
		}
		ours++
		if !e.Exact {
			byName++
		}
	}
	if scip == 0 {
		return ""
	}
	return fmt.Sprintf("edges: %d from SCIP indexes, %d from our analysis (%d by name); reasons mark steps along an index's edges \"(scip)\"", scip, ours, byName)
}

// maxExplainContribs is how many feature contributions --explain shows
// per file (the JSON has them all).
const maxExplainContribs = 4

// contribLine lists the strongest contributions: "+0.84 seed_entity,
// -0.20 cat_test".
func contribLine(cs []rank.Contrib, n int) string {
	var parts []string
	for i, c := range cs {
		if i == n {
			parts = append(parts, fmt.Sprintf("… %d more", len(cs)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%+.3f %s", c.Value, c.What))
	}
	return strings.Join(parts, ", ")
}

// rankerTitle says which ranker ranked and what its score means: for the
// model trained on questions, the chance that the file is the answer.
func rankerTitle(r, why string, kind query.Kind) string {
	t := "hand-weighted"
	if r == expand.RankerLearned {
		t = "learned model; score = probability the change touches the file"
		if name, _, _ := expand.ShippedModelFor(kind); name == expand.ModelQuestions {
			t = "learned model; score = probability the file answers the question"
		}
	}
	if why != "" {
		t += "; " + why
	}
	return t
}
