package eval

import (
	"fmt"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Chart size in points.
const (
	chartWidth  = 900
	chartHeight = 360
)

// WriteChart draws the overall results as a PNG with two panels: recall@k
// for k = 1..MaxK, and inc@B over the budgets, one line per ranker.
func (r *Report) WriteChart(w io.Writer) error {
	recall, err := r.recallPlot()
	if err != nil {
		return err
	}
	budget, err := r.budgetPlot()
	if err != nil {
		return err
	}
	img := vgimg.New(vg.Points(chartWidth), vg.Points(chartHeight))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Points(16), PadY: vg.Points(8), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	canvases := plot.Align([][]*plot.Plot{{recall, budget}}, tiles, dc)
	recall.Draw(canvases[0][0])
	budget.Draw(canvases[0][1])
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("writing chart: %w", err)
	}
	return nil
}

func (r *Report) newPlot(title, x string) *plot.Plot {
	p := plot.New()
	n := 0
	if len(r.Rankers) > 0 {
		if s, ok := r.Summary(r.Rankers[0], "all"); ok {
			n = s.N
		}
	}
	p.Title.Text = fmt.Sprintf("%s (N=%d)", title, n)
	p.X.Label.Text = x
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = false
	p.Legend.Left = false
	p.Add(plotter.NewGrid())
	return p
}

// recallPlot draws mean rec@k against k.
func (r *Report) recallPlot() (*plot.Plot, error) {
	p := r.newPlot("recall@k", "k (files)")
	p.Y.Label.Text = "recall"
	p.X.Min, p.X.Max = 1, MaxK
	var ticks []plot.Tick
	for k := 1; k <= MaxK; k++ {
		ticks = append(ticks, plot.Tick{Value: float64(k), Label: fmt.Sprint(k)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	var lines []any
	for _, name := range r.Rankers {
		s, ok := r.Summary(name, "all")
		if !ok {
			continue
		}
		xy := make(plotter.XYs, MaxK)
		for k := 1; k <= MaxK; k++ {
			xy[k-1] = plotter.XY{X: float64(k), Y: s.Rec[k-1]}
		}
		lines = append(lines, name, xy)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, fmt.Errorf("drawing recall@k: %w", err)
	}
	return p, nil
}

// budgetPlot draws mean inc@B against the budget, on a log scale.
func (r *Report) budgetPlot() (*plot.Plot, error) {
	p := r.newPlot("gold files in the bundle", "budget (tokens)")
	p.Y.Label.Text = "inc@B"
	var ticks []plot.Tick
	for _, b := range r.Budgets {
		ticks = append(ticks, plot.Tick{Value: float64(b), Label: BudgetLabel(b)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	if len(r.Budgets) > 0 {
		p.X.Scale = plot.LogScale{}
		lo, hi := float64(r.Budgets[0]), float64(r.Budgets[len(r.Budgets)-1])
		if lo == hi {
			lo, hi = lo/2, hi*2
		}
		p.X.Min, p.X.Max = lo, hi
	}
	var lines []any
	for _, name := range r.Rankers {
		s, ok := r.Summary(name, "all")
		if !ok {
			continue
		}
		xy := make(plotter.XYs, len(r.Budgets))
		for i, b := range r.Budgets {
			xy[i] = plotter.XY{X: float64(b), Y: s.Inc[i]}
		}
		lines = append(lines, name, xy)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, fmt.Errorf("drawing inc@B: %w", err)
	}
	return p, nil
}
