package main

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// How cost grows with the size of a Go tree.
//
// The Go trees measured (net/http, hugo, prometheus, grpc-go, moby, the
// whole standard library) span about 80 thousand to 3 million lines. The
// scaling table puts their cold time, cold CPU, peak memory and warm time
// side by side per 100 thousand lines, and fits cold CPU time against
// lines on logarithmic axes: an exponent of 1 is linear growth, above 1
// faster than linear. CPU time is fitted rather than wall time because
// the load of a shared machine stretches wall times unevenly; the wall
// exponent is given beside it. Trees differ in more than size (vendored
// code, nested modules, how much is type-checked), so the fit reads the
// trend across them, not a law.

// scaleRow is one Go tree in the scaling table.
type scaleRow struct {
	r    *result
	cold sample
	warm sample
	wok  bool
}

// scalingRows are the Go trees whose cold run succeeded, smallest first.
func scalingRows(rs []*result) []scaleRow {
	var rows []scaleRow
	for _, r := range rs {
		c := r.cells()
		if r.lang != "go" || !c.coldOK || r.lines <= 0 {
			continue
		}
		rows = append(rows, scaleRow{r: r, cold: c.cold, warm: c.warm, wok: c.warmOK})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].r.lines < rows[j].r.lines })
	return rows
}

// growth fits log(y) = a + b·log(lines) by least squares and returns b,
// or false with fewer than two points.
func growth(rows []scaleRow, y func(scaleRow) float64) (float64, bool) {
	var xs, ys []float64
	for _, row := range rows {
		if v := y(row); v > 0 {
			xs = append(xs, math.Log(float64(row.r.lines)))
			ys = append(ys, math.Log(v))
		}
	}
	n := float64(len(xs))
	if len(xs) < 2 {
		return 0, false
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0, false
	}
	return (n*sxy - sx*sy) / den, true
}

// per100k formats v (seconds or MiB) per 100 thousand lines.
func per100k(v float64, lines int, unit string) string {
	if v <= 0 || lines <= 0 {
		return "–"
	}
	x := v * 100_000 / float64(lines)
	switch unit {
	case "s":
		if x < 1 {
			return fmt.Sprintf("%.0f ms", x*1000)
		}
		return fmt.Sprintf("%.2f s", x)
	}
	return fmt.Sprintf("%.0f MiB", x)
}

// linearSlack is how far above 1 the fitted exponent may be and still
// count as linear growth: the fit over a handful of unlike trees is not
// finer than that.
const linearSlack = 0.10

func writeScaling(b *strings.Builder, rs []*result) {
	rows := scalingRows(rs)
	if len(rows) < 2 {
		return
	}
	b.WriteString("\n## How cost grows with the tree (Go)\n\n")
	b.WriteString("Each Go tree's cold run, its peak memory and its warm run, whole and per 100 thousand lines of Go, smallest tree first. The last line fits each column against lines on logarithmic axes (least squares): an exponent of 1.00 is linear growth, below it sublinear. Trees differ in more than size (vendored code, nested modules, tests), so the fit reads the trend, not a law.\n\n")
	b.WriteString("| repository | files | lines | cold | cold CPU | peak RSS | warm p50 | cold / 100k lines | cold CPU / 100k | RSS / 100k | warm / 100k |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, row := range rows {
		r := row.r
		warm, warmPer := "–", "–"
		if row.wok {
			warm, warmPer = dur(row.warm, true), per100k(row.warm.wall.Seconds(), r.lines, "s")
		}
		fmt.Fprintf(b, "| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, r.files, r.lines,
			dur(row.cold, true), cpuOf(row.cold, true), mib(row.cold), warm,
			per100k(row.cold.wall.Seconds(), r.lines, "s"), per100k(row.cold.cpu.Seconds(), r.lines, "s"),
			per100k(float64(row.cold.rss)/1024, r.lines, "MiB"), warmPer)
	}
	exp := func(y func(scaleRow) float64) string {
		if e, ok := growth(rows, y); ok {
			return fmt.Sprintf("%.2f", e)
		}
		return "–"
	}
	fmt.Fprintf(b, "| growth exponent | | | %s | %s | %s | %s | | | | |\n",
		exp(func(r scaleRow) float64 { return r.cold.wall.Seconds() }),
		exp(func(r scaleRow) float64 { return r.cold.cpu.Seconds() }),
		exp(func(r scaleRow) float64 { return float64(r.cold.rss) }),
		exp(func(r scaleRow) float64 {
			if !r.wok {
				return 0
			}
			return r.warm.wall.Seconds()
		}))
}

// scalingTarget is the issue's: cold time grows no faster than linearly
// over the Go trees, read from the fit of cold CPU time.
func scalingTarget(rs []*result) (target, bool) {
	rows := scalingRows(rs)
	if len(rows) < 3 {
		return target{}, false
	}
	e, ok := growth(rows, func(r scaleRow) float64 { return r.cold.cpu.Seconds() })
	if !ok {
		return target{}, false
	}
	t := target{what: fmt.Sprintf("Go: cold CPU time grows no faster than linearly (fitted exponent at most %.2f)", 1+linearSlack),
		repo: fmt.Sprintf("%s … %s (%d trees)", rows[0].r.name, rows[len(rows)-1].r.name, len(rows)), got: fmt.Sprintf("%.2f", e), met: "no"}
	if e <= 1+linearSlack {
		t.met = "yes"
	}
	return t, true
}
