package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func writeResults(o *options, e env, p peers, rs []*result, lr *loadRun) error {
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(o.out, []byte(markdown(e, p, rs, lr)), 0o644); err != nil {
		return err
	}
	return writeChart(o.chart, rs)
}

func dur(s sample, ok bool) string {
	if s.err != nil || !ok {
		if s.err != nil && strings.Contains(s.err.Error(), "timed out") {
			return "timeout"
		}
		return "failed"
	}
	switch {
	case s.wall < time.Second:
		return fmt.Sprintf("%d ms", s.wall.Milliseconds())
	case s.wall < 100*time.Second:
		return fmt.Sprintf("%.2f s", s.wall.Seconds())
	}
	return fmt.Sprintf("%.0f s", s.wall.Seconds())
}

// cpuOf is the CPU time of a sample, or – when it failed.
func cpuOf(s sample, ok bool) string {
	if !ok || s.err != nil || s.cpu <= 0 {
		return "–"
	}
	return dur(sample{wall: s.cpu}, true)
}

func mib(s sample) string {
	if s.rss <= 0 {
		return "–"
	}
	return fmt.Sprintf("%d MiB", s.rss/1024)
}

func ratio(a, b sample, aok, bok bool) string {
	if !aok || !bok || a.err != nil || b.err != nil || b.wall <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a.wall.Seconds()/b.wall.Seconds())
}

// cpuRatio is ratio of the samples' CPU times.
func cpuRatio(a, b sample, aok, bok bool) string {
	if a.cpu <= 0 || b.cpu <= 0 {
		return "–"
	}
	return ratio(sample{wall: a.cpu, err: a.err}, sample{wall: b.cpu, err: b.err}, aok, bok)
}

// cells of one result, each with whether it was measured successfully.
type cells struct {
	cold, warm, touched, edits, rg, gopls, repomix            sample
	coldOK, warmOK, touchedOK, editsOK, rgOK, goplsOK, repoOK bool
	analysis, graph, astgrep                                  sample // Rust trees only
	analysisOK, graphOK, astgrepOK                            bool
}

func (r *result) cells() cells {
	var c cells
	c.cold, c.coldOK = r.cold, r.cold.err == nil
	c.warm, c.warmOK = median(r.warm)
	if len(r.touched) > 0 {
		c.touched, c.touchedOK = median(r.touched)
		c.edits, c.editsOK = median(r.edits)
	}
	if r.rgRan {
		c.rg, c.rgOK = median(r.rg)
	}
	c.gopls, c.goplsOK = r.gopls, r.goplsRan && r.gopls.err == nil
	c.repomix, c.repoOK = r.repomix, r.repomixRan && r.repomix.err == nil
	if r.floor.analysisRan {
		c.analysis, c.analysisOK = median(r.floor.analysis)
		c.graph, c.graphOK = median(r.floor.graph)
	}
	if r.floor.astgrepRan {
		c.astgrep, c.astgrepOK = median(r.floor.astgrep)
	}
	return c
}

func (r *result) cell(ran bool, s sample, ok bool) string {
	if !ran {
		return "–"
	}
	return dur(s, ok)
}

func markdown(e env, p peers, rs []*result, lr *loadRun) string {
	var b strings.Builder
	b.WriteString("# Speed on large repositories\n\n")
	fmt.Fprintf(&b, "Measured by `make bench-speed` (benchmarks/speed) on %s: %d CPUs, %s, load average %s when the run started. ", e.date, e.cpus, e.goVersion, e.load)
	b.WriteString("Times are wall-clock for one `ctxexpand --root DIR --quiet --budget 16000 QUERY` (a full markdown bundle). ")
	b.WriteString("*Cold* starts from an empty index, after the page cache's pending writes are flushed (sync; gopls leaves hundreds of megabytes of cache behind); *warm* is the median of repeated runs with nothing changed; ")
	b.WriteString("*touch 5* updates the modification time of five source files first, *edit 5* appends a comment line to five (median of rounds). ")
	b.WriteString("Peak RSS is the cold run's. Each Go repository's module dependencies are downloaded into the module cache before anything is timed (go mod download), as a developer working on it has them. The peers ran in the same session on the same trees: ")
	var pv []string
	for _, name := range []string{"ripgrep", "gopls", "repomix", "ast-grep"} {
		if v := p.versions[name]; v != "" {
			pv = append(pv, fmt.Sprintf("%s (%s)", name, v))
		} else {
			pv = append(pv, name+" (not available: its cells are –)")
		}
	}
	b.WriteString(strings.Join(pv, ", "))
	b.WriteString(": `rg -c -t go func` (or `-t rust fn`) reads every source file; `gopls references FILE:#OFFSET` with an empty gopls cache loads the workspace cold; `repomix --include '**/*.go'` (or `.rs`) packs the same files; on Rust trees, ast-grep parses every file with tree-sitter (see below).")
	if hasSubdirOfGoroot(rs) {
		b.WriteString(" A directory of the standard library (net/http) is measured in place, without touch or edit runs: ctxexpand, given it as --root, analyses its packages with their standard-library dependencies type-checked; gopls takes the enclosing module, the whole standard library (GOROOT/src/go.mod), as its workspace, so its figures there are those of loading all of it.")
	}
	b.WriteString("\n\n")

	b.WriteString("| repository | lang | commit | files | lines | cold | warm p50 | touch 5 | edit 5 | peak RSS | ripgrep | ast-grep | gopls refs (cold) | gopls RSS | repomix |\n")
	b.WriteString("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rs {
		c := r.cells()
		touched, edits := "–", "–"
		if len(r.touched) > 0 {
			touched, edits = dur(c.touched, c.touchedOK), dur(c.edits, c.editsOK)
		}
		goplsRSS := "–"
		if r.goplsRan {
			goplsRSS = mib(r.gopls)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.name, r.lang, r.commit, r.files, r.lines, dur(c.cold, c.coldOK), dur(c.warm, c.warmOK), touched, edits,
			mib(r.cold), r.cell(r.rgRan, c.rg, c.rgOK), r.cell(r.floor.astgrepRan, c.astgrep, c.astgrepOK),
			r.cell(r.goplsRan, c.gopls, c.goplsOK), goplsRSS, r.cell(r.repomixRan, c.repomix, c.repoOK))
	}

	b.WriteString("\n## CPU time (user + system, children included)\n\n")
	b.WriteString("Wall times on a busy machine stretch with the load; CPU time does much less. On these 2-CPU machines a run's wall time is at least its CPU time divided by 2.\n\n")
	b.WriteString("| repository | cold | warm p50 | touch 5 | edit 5 | gopls refs (cold) | repomix |\n|---|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rs {
		c := r.cells()
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", r.name, cpuOf(c.cold, c.coldOK), cpuOf(c.warm, c.warmOK),
			cpuOf(c.touched, c.touchedOK), cpuOf(c.edits, c.editsOK), cpuOf(c.gopls, c.goplsOK), cpuOf(c.repomix, c.repoOK))
	}

	writeFloor(&b, p, rs) // floor.go
	writePacks(&b, rs)    // pack.go
	writeResident(&b, rs) // resident.go
	writeScaling(&b, rs)  // scaling.go
	writeLoad(&b, lr)     // load.go

	b.WriteString("\n## Ratios against the peers (same run)\n\n")
	b.WriteString("| repository | cold ÷ gopls cold | cold ÷ repomix | warm ÷ ripgrep | edit 5 ÷ ripgrep | graph ÷ ast-grep | analysis ÷ ast-grep | analysis CPU ÷ ast-grep CPU |\n|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rs {
		c := r.cells()
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, ratio(c.cold, c.gopls, c.coldOK, c.goplsOK),
			ratio(c.cold, c.repomix, c.coldOK, c.repoOK), ratio(c.warm, c.rg, c.warmOK, c.rgOK), ratio(c.edits, c.rg, c.editsOK, c.rgOK),
			ratio(c.graph, c.astgrep, c.graphOK, c.astgrepOK), ratio(c.analysis, c.astgrep, c.analysisOK, c.astgrepOK), cpuRatio(c.analysis, c.astgrep, c.analysisOK, c.astgrepOK))
	}

	b.WriteString("\n## Targets\n\n")
	b.WriteString("| target | repository | measured | met |\n|---|---|--:|---|\n")
	for _, t := range append(targets(rs), loadTargets(lr)...) {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.what, t.repo, t.got, t.met)
	}
	b.WriteString("\nThe ~150k-line Go repository and the ~100k-line Rust repository are those measured whose size is nearest. Figures from one run on a shared machine vary; compare the ratios, which were measured side by side.\n")
	return b.String()
}

type target struct{ what, repo, got, met string }

// nearest is the result of the language nearest in lines to n.
func nearest(rs []*result, lang string, n int) *result {
	var best *result
	for _, r := range rs {
		if r.lang != lang || r.where == "goroot" {
			continue
		}
		if best == nil || math.Abs(float64(r.lines-n)) < math.Abs(float64(best.lines-n)) {
			best = r
		}
	}
	return best
}

func targets(rs []*result) []target {
	var out []target
	check := func(what string, r *result, s sample, ok bool, limit time.Duration) {
		if r == nil {
			return
		}
		t := target{what: what, repo: r.name, got: dur(s, ok), met: "no"}
		if ok && s.err == nil && s.wall < limit {
			t.met = "yes"
		}
		out = append(out, t)
	}
	if g := nearest(rs, "go", 150_000); g != nil {
		c := g.cells()
		check("Go ~150k lines: cold under 3 s", g, c.cold, c.coldOK, 3*time.Second)
		if c.goplsOK && c.coldOK {
			t := target{what: "Go ~150k lines: cold within 1.5× gopls cold", repo: g.name,
				got: ratio(c.cold, c.gopls, true, true), met: "no"}
			if c.cold.wall.Seconds() <= 1.5*c.gopls.wall.Seconds() {
				t.met = "yes"
			}
			out = append(out, t)
		}
		check("Go ~150k lines: warm p50 under 300 ms", g, c.warm, c.warmOK, 300*time.Millisecond)
		check("Go ~150k lines: touch 5 files, under 600 ms", g, c.touched, c.touchedOK, 600*time.Millisecond)
		check("Go ~150k lines: edit 5 files, under 600 ms", g, c.edits, c.editsOK, 600*time.Millisecond)
		if t, ok := packTarget(g); ok { // pack.go
			out = append(out, t)
		}
	}
	if rr := nearest(rs, "rust", 100_000); rr != nil {
		c := rr.cells()
		check("Rust ~100k lines: cold under 2 s", rr, c.cold, c.coldOK, 2*time.Second)
		check("Rust ~100k lines: warm p50 under 200 ms", rr, c.warm, c.warmOK, 200*time.Millisecond)
	}
	if t, ok := scalingTarget(rs); ok { // scaling.go
		out = append(out, t)
	}
	out = append(out, floorTargets(rs)...)    // floor.go
	out = append(out, residentTargets(rs)...) // resident.go
	for _, r := range rs {
		if r.where == "goroot" && r.id == "" {
			// Issue 23: the whole standard library at gopls's speed, in
			// 900 MB.
			t := target{what: "$(go env GOROOT)/src: peak memory at most 900 MB", repo: r.name, got: mib(r.cold), met: "no"}
			if r.cold.rss > 0 && r.cold.rss*1024 <= 900_000_000 {
				t.met = "yes"
			}
			out = append(out, t)
			if c := r.cells(); c.coldOK && c.goplsOK && c.gopls.wall > 0 {
				ratio := c.cold.wall.Seconds() / c.gopls.wall.Seconds()
				t := target{what: "$(go env GOROOT)/src: cold at most 1.0× gopls cold", repo: r.name, got: fmt.Sprintf("%.2f×", ratio), met: "no"}
				if ratio <= 1.0 {
					t.met = "yes"
				}
				out = append(out, t)
			}
		}
	}
	return out
}

// writeChart draws, per repository, the times of ctxexpand and the peers
// as bars on a logarithmic axis.
func writeChart(path string, rs []*result) error {
	p := plot.New()
	p.Title.Text = "ctxexpand and peers, wall time (log scale, lower is better)"
	p.Y.Label.Text = "time"
	series := []struct {
		name string
		get  func(c cells) (sample, bool)
		col  color.RGBA
	}{
		{"ctxexpand cold", func(c cells) (sample, bool) { return c.cold, c.coldOK }, color.RGBA{31, 119, 180, 255}},
		{"ctxexpand warm", func(c cells) (sample, bool) { return c.warm, c.warmOK }, color.RGBA{44, 160, 44, 255}},
		{"ctxexpand edit 5", func(c cells) (sample, bool) { return c.edits, c.editsOK }, color.RGBA{152, 223, 138, 255}},
		{"ripgrep", func(c cells) (sample, bool) { return c.rg, c.rgOK }, color.RGBA{127, 127, 127, 255}},
		{"gopls refs cold", func(c cells) (sample, bool) { return c.gopls, c.goplsOK }, color.RGBA{214, 39, 40, 255}},
		{"repomix", func(c cells) (sample, bool) { return c.repomix, c.repoOK }, color.RGBA{148, 103, 189, 255}},
		{"ctxexpand analysis (Rust)", func(c cells) (sample, bool) { return c.analysis, c.analysisOK }, color.RGBA{23, 190, 207, 255}},
		{"ast-grep (Rust)", func(c cells) (sample, bool) { return c.astgrep, c.astgrepOK }, color.RGBA{255, 127, 14, 255}},
	}
	width := vg.Points(10)
	for i, s := range series {
		vals := make(plotter.Values, len(rs))
		for j, r := range rs {
			if smp, ok := s.get(r.cells()); ok && smp.wall > 0 {
				vals[j] = math.Max(0, math.Log10(float64(smp.wall)/float64(time.Millisecond)))
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bars.Color = s.col
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(i-len(series)/2) * width
		p.Add(bars)
		p.Legend.Add(s.name, bars)
	}
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.name
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.7, float64(len(rs))-0.3 // room for the outer bars
	p.Y.Min, p.Y.Max = 0, 7                       // room above 100 s for the legend
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{
		{Value: 0, Label: "1 ms"}, {Value: 1, Label: "10 ms"}, {Value: 2, Label: "100 ms"},
		{Value: 3, Label: "1 s"}, {Value: 4, Label: "10 s"}, {Value: 5, Label: "100 s"},
	})
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	w := vg.Points(float64(200 + 120*len(rs)))
	return p.Save(w, vg.Points(420), path)
}
