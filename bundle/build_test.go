package bundle

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in      string
		want    Format
		wantErr bool
	}{
		{"markdown", Markdown, false}, {"MD", Markdown, false}, {"", Markdown, false},
		{"xml", XML, false}, {"json", JSON, false}, {"plain", Plain, false}, {"text", Plain, false},
		{"yaml", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseFormat(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseFormat(%q) = %v, %v", tt.in, got, err)
		}
		if err != nil && (!errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), "markdown, xml, json or plain")) {
			t.Errorf("ParseFormat(%q) error %q does not say what to use", tt.in, err)
		}
	}
	if _, err := ParseTruncation("middle"); !errors.Is(err, ErrUnknownTruncation) {
		t.Errorf("ParseTruncation(middle) = %v", err)
	}
	if m, err := ParseTruncation("bookend"); err != nil || m != Bookend {
		t.Errorf("ParseTruncation(bookend) = %v, %v", m, err)
	}
}

func TestBuildErrors(t *testing.T) {
	req := goldenRequest(t, Markdown, 0)
	if _, err := Build(context.Background(), req); !errors.Is(err, ErrBudgetTooSmall) {
		t.Errorf("budget 0: %v", err)
	}
	req.Budget = 5
	if _, err := Build(context.Background(), req); !errors.Is(err, ErrBudgetTooSmall) || !strings.Contains(err.Error(), "raise the budget") {
		t.Errorf("budget 5: %v", err)
	}
	req.Budget, req.Format = 1000, Format(9)
	if _, err := Build(context.Background(), req); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("format 9: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req.Format = JSON
	if _, err := Build(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestExplicitFirst: an explicit file comes first in the output, before
// better-scored implicit files, and is cut only after them.
func TestExplicitFirst(t *testing.T) {
	goF, rsF := goFile(t), rustFile()
	rsF.Explicit, rsF.Score, rsF.Spans = true, 0.1, nil // the whole file is wanted
	full := 0
	{
		r, err := Build(context.Background(), Request{Root: fixtureRoot, Budget: 100000, Counter: newCounter(t, "o200k"), Files: []File{rsF}})
		if err != nil {
			t.Fatal(err)
		}
		full = r.Files[0].Tokens
	}
	tests := []struct {
		name      string
		budget    int
		goAtMost  Rung // the implicit Go file
		rust      Rung // the explicit Rust file
		truncated bool // the Rust file
	}{
		{"both fit", 4000, RungFull, RungFull, false},
		{"implicit gives way", full + 150, RungSpans, RungFull, false},
		{"explicit cut only when alone", full / 2, RungOmitted, RungFull, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Build(context.Background(), Request{Root: fixtureRoot, Budget: tt.budget,
				Counter: newCounter(t, "o200k"), Files: []File{goF, rsF}})
			if err != nil {
				t.Fatal(err)
			}
			g, rs := r.Files[0], r.Files[1]
			if g.Rung > tt.goAtMost || rs.Rung != tt.rust || rs.Truncated != tt.truncated {
				t.Errorf("go at %s (at most %s), rust at %s truncated %v (want %s, %v)\n%s",
					g.Rung, tt.goAtMost, rs.Rung, rs.Truncated, tt.rust, tt.truncated, r.Output)
			}
			if tt.name == "both fit" && g.Rung != RungFull {
				t.Errorf("go at %s with room for everything", g.Rung)
			}
			out := string(r.Output)
			if i, j := strings.Index(out, "store/mem.rs"), strings.Index(out, "service/user.go"); j >= 0 && i > j {
				t.Error("the explicit file is not first")
			}
		})
	}
}

func TestUnreadableFile(t *testing.T) {
	req := goldenRequest(t, Markdown, 5000)
	r, err := Build(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	gone := r.Files[2]
	if !strings.HasPrefix(gone.Reason, "unreadable: ") || gone.Rung != RungSummary {
		t.Errorf("missing file: %+v", gone)
	}
	if !strings.Contains(string(r.Output), "missing/gone.go: not read:") {
		t.Error("the unreadable file is not in the notes")
	}
}

func TestBudgetReport(t *testing.T) {
	small, err := Build(context.Background(), goldenRequest(t, Markdown, 250))
	if err != nil {
		t.Fatal(err)
	}
	rep := BudgetReport(small)
	for _, want := range []string{"service/user.go", "store/mem.rs", "Raising the budget to about", "did not fit in 250 tokens"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	golden(t, "report-250.txt", rep)
	big, err := Build(context.Background(), goldenRequest(t, Markdown, 50000))
	if err != nil {
		t.Fatal(err)
	}
	if rep := BudgetReport(big); rep != "" {
		t.Errorf("report with room to spare:\n%s", rep)
	}
	if BudgetReport(nil) != "" {
		t.Error("nil result")
	}
}

// TestSummaryCounts checks the result's account matches the rungs.
func TestSummaryCounts(t *testing.T) {
	r, err := Build(context.Background(), goldenRequest(t, JSON, 700))
	if err != nil {
		t.Fatal(err)
	}
	var c Counts
	c.Files, c.Extras, c.ExtrasIncluded, c.NotesOmitted = 3, 1, 1, 0
	for _, f := range r.Files {
		c.ByRung[f.Rung]++
		if f.Included {
			c.Included++
		}
		if f.Truncated {
			c.Truncated++
		}
	}
	c.Omitted = c.ByRung[RungOmitted]
	if diff := cmp.Diff(c, r.Counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	if len(r.Omitted) != c.Omitted {
		t.Errorf("Omitted lists %d paths, %d omitted", len(r.Omitted), c.Omitted)
	}
}

// TestShownLines: a file's result says which lines the bundle shows — all
// of them at the full rung, the widened spans and imports at the spans
// rung, none below — and every shown line is in the output.
func TestShownLines(t *testing.T) {
	for _, budget := range []int{300, 700, 1500, 20000} {
		req := goldenRequest(t, Plain, budget)
		res, err := Build(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			switch {
			case f.Rung < RungSpans && len(f.Lines) > 0:
				t.Errorf("budget %d: %s at rung %v shows lines %v", budget, f.Path, f.Rung, f.Lines)
			case f.Rung >= RungSpans && len(f.Lines) == 0:
				t.Errorf("budget %d: %s at rung %v shows no lines", budget, f.Path, f.Rung)
			}
			for i, r := range f.Lines {
				if r.Start < 1 || r.End < r.Start || (i > 0 && r.Start <= f.Lines[i-1].End) {
					t.Errorf("budget %d: %s: bad or unsorted ranges %v", budget, f.Path, f.Lines)
				}
			}
			if f.Rung == RungFull && !f.Truncated && (len(f.Lines) != 1 || f.Lines[0].Start != 1) {
				t.Errorf("budget %d: %s full, lines %v, want all from 1", budget, f.Path, f.Lines)
			}
		}
	}
}

// TestReadingOrder: files with reading places are shown in that order,
// while the budget is spent in the order of the request (relevance).
func TestReadingOrder(t *testing.T) {
	goF, rsF := goFile(t), rustFile()
	goF.Score, rsF.Score = 0.9, 0.2
	for _, format := range []Format{Markdown, JSON, XML, Plain} {
		build := func(files []File, budget int) *Result {
			r, err := Build(context.Background(), Request{Root: fixtureRoot, Budget: budget, Format: format,
				Counter: newCounter(t, "o200k"), Files: files})
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		goFirst := func(r *Result) bool {
			out := string(r.Output)
			i, j := strings.Index(out, "service/user.go"), strings.Index(out, "store/mem.rs")
			return i >= 0 && (j < 0 || i < j)
		}
		if r := build([]File{goF, rsF}, 100000); !goFirst(r) {
			t.Errorf("%s: without reading places the request's order is lost", format)
		}
		g, rs := goF, rsF
		g.ReadAt, rs.ReadAt = 2, 1
		r := build([]File{g, rs}, 100000)
		if goFirst(r) {
			t.Errorf("%s: the reading order puts mem.rs first:\n%s", format, r.Output)
		}
		if r.Files[0].Path != g.Path {
			t.Errorf("%s: the result lists %s first; it keeps the request's order", format, r.Files[0].Path)
		}
		// A budget that holds one file whole: the more relevant one
		// gets it, whatever its place in the reading order.
		small := build([]File{g, rs}, r.Files[0].Costs[RungFull]+r.Files[1].Costs[RungSpans]/2)
		if small.Files[0].Rung < small.Files[1].Rung {
			t.Errorf("%s: the less relevant file got more (%s against %s)", format, small.Files[1].Rung, small.Files[0].Rung)
		}
	}
}

// TestBestSpans: a file whose spans do not all fit shows its most relevant
// ones (by Span.Rank) instead of falling to its skeleton, and spans of
// equal rank are shown together or not at all.
func TestBestSpans(t *testing.T) {
	f := rustFile()
	f.Spans = []Span{
		{Start: 11, End: 18, Symbol: "StoreError", Rank: 1},
		{Start: 20, End: 29, Symbol: "OrderStore", Rank: 2},
		{Start: 37, End: 53, Symbol: "MemStore", Rank: 1},
		{Start: 66, End: 71, Symbol: "MemStore::orders_of", Rank: 0},
		{Start: 74, End: 82, Symbol: "mem_store", Rank: 2},
	}
	build := func(f File, budget int) *Result {
		t.Helper()
		r, err := Build(context.Background(), Request{Root: fixtureRoot, Budget: budget, Format: JSON,
			Counter: newCounter(t, "o200k"), Files: []File{f}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	shows := func(r *Result, line int) bool {
		for _, lr := range r.Files[0].Lines {
			if lr.Start <= line && line <= lr.End {
				return true
			}
		}
		return false
	}
	all := build(f, 100000).Files[0].Costs[RungSpans]
	best := f
	best.Spans = f.Spans[3:4]
	one := build(best, 100000).Files[0].Costs[RungSpans]
	budget := 2*one + 10 // the best span fits in half of it, all of them do not fit
	t.Logf("spans cost %d, the best %d", all, one)
	if all <= budget {
		t.Fatalf("fixture: all spans cost %d, within a budget of %d", all, budget)
	}
	r := build(f, budget)
	got := r.Files[0]
	if got.Rung != RungSpans || !shows(r, 68) || shows(r, 25) || shows(r, 40) || shows(r, 78) {
		t.Fatalf("budget %d: rung %v, lines %v; want the spans rung showing orders_of (66-71) only", budget, got.Rung, got.Lines)
	}
	if !strings.Contains(string(r.Output), "MemStore::orders_of") || strings.Contains(string(r.Output), `"symbol": "OrderStore"`) {
		t.Errorf("the JSON should list only the spans it shows:\n%s", r.Output)
	}

	// Equal ranks: the best "group" is every span, so there is no
	// smaller spans option and the file takes another rung.
	tied := f
	tied.Spans = append([]Span(nil), f.Spans...)
	for i := range tied.Spans {
		tied.Spans[i].Rank = 0
	}
	r = build(tied, budget)
	if got := r.Files[0]; got.Rung == RungSpans && !got.Truncated {
		t.Errorf("spans of one rank were split: rung %v, lines %v", got.Rung, got.Lines)
	}
}
