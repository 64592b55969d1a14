package eval

import (
	"bufio"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bm25"
)

// Function-level localization.
//
// Besides files, the benchmark scores the functions and methods a fix
// changed. The gold functions of an instance are the callable
// declarations of its gold files, at the base commit, whose declaration
// (from its name line to its last line) holds a line the diff from base to
// the fix removed or changed, or a point where it inserted lines strictly
// inside it; of nested declarations only the innermost counts. The
// declarations come from a [DeclSource] (the pipeline's facts at base:
// package eval knows no parser) and the diff from the repository's git
// directory. A fix that only touched code outside functions (types,
// constants, imports) has no gold function and is left out of the
// function-level averages.
//
// A ranker may rank functions itself (Ranking.Functions); for one that
// does not (BM25), the runner derives an order from its files: the
// functions of its top files, file by file, each file's in the order of
// their own BM25 score for the query. A gold function is in a bundle
// when every line of it is shown (Ranking.Shown).

// Decl is a callable declaration: its file, qualified name, the line of
// its name and its last line.
type Decl struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Line int    `json:"line"`
	End  int    `json:"end"`
}

// key identifies a declaration within an instance.
func (d Decl) key() string { return d.Path + "#" + strconv.Itoa(d.Line) }

// DeclSource lists the callable declarations of files of a checkout.
type DeclSource interface {
	Decls(ctx context.Context, root string, inst Instance, paths []string) ([]Decl, error)
}

// RankedFunc is a ranked function.
type RankedFunc struct {
	Decl
	Score float64 `json:"score"`
}

// LineRange is a range of lines, 1-based, inclusive.
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// FuncScores are a ranker's function-level metrics on one instance.
type FuncScores struct {
	Hit []float64 `json:"hit"` // Hit[k-1]: a gold function among the first k
	RR  float64   `json:"rr"`
	Inc []float64 `json:"inc"` // share of gold functions wholly shown in each budget's bundle
	// Ranks of the gold functions (0 when not ranked), in gold order.
	Ranks []int `json:"ranks"`
}

// touchedLines runs git diff base..commit on paths in the repository's git
// directory and returns, per path, the base lines the fix removed or
// changed, and the base lines after which it inserted lines (as
// insertion points).
func touchedLines(ctx context.Context, co *Checkouts, gitDir string, inst Instance) (changed, inserted map[string][]int, err error) {
	args := []string{"diff", "--no-color", "--no-ext-diff", "--no-renames", "-U0", inst.Base, inst.Commit, "--"}
	args = append(args, inst.GoldFiles...)
	out, err := co.git(ctx, gitDir, args...)
	if err != nil {
		return nil, nil, err
	}
	changed, inserted = map[string][]int{}, map[string][]int{}
	var cur string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "--- "):
			cur = strings.TrimPrefix(strings.TrimPrefix(line, "--- "), "a/")
		case strings.HasPrefix(line, "@@ "):
			start, count, ok := parseOldRange(line)
			if !ok || cur == "" {
				continue
			}
			if count == 0 {
				inserted[cur] = append(inserted[cur], start)
				continue
			}
			for l := start; l < start+count; l++ {
				changed[cur] = append(changed[cur], l)
			}
		}
	}
	return changed, inserted, sc.Err()
}

// parseOldRange reads the base side of a hunk header, "@@ -a,b +c,d @@"
// (",b" absent means 1).
func parseOldRange(h string) (start, count int, ok bool) {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return 0, 0, false
	}
	a, b, hasCount := strings.Cut(f[1][1:], ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}

// goldFunctions picks the declarations the fix touched, innermost only, in
// file then line order.
func goldFunctions(decls []Decl, changed, inserted map[string][]int) []Decl {
	byPath := map[string][]Decl{}
	for _, d := range decls {
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	gold := map[string]Decl{}
	innermost := func(ds []Decl, inside func(Decl) bool) {
		best := -1
		for i, d := range ds {
			if inside(d) && (best < 0 || d.End-d.Line < ds[best].End-ds[best].Line) {
				best = i
			}
		}
		if best >= 0 {
			gold[ds[best].key()] = ds[best]
		}
	}
	for p, lines := range changed {
		for _, l := range lines {
			innermost(byPath[p], func(d Decl) bool { return d.Line <= l && l <= d.End })
		}
	}
	for p, points := range inserted {
		for _, l := range points {
			// Lines inserted after line l sit between l and l+1.
			innermost(byPath[p], func(d Decl) bool { return d.Line <= l && l+1 <= d.End })
		}
	}
	out := make([]Decl, 0, len(gold))
	for _, d := range gold {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// scoreFunctions scores a function ranking against the gold functions.
func scoreFunctions(gold []Decl, ranked []RankedFunc, shown map[int]map[string][]LineRange, budgets []int) FuncScores {
	s := FuncScores{Hit: make([]float64, MaxK), Inc: make([]float64, len(budgets)), Ranks: make([]int, len(gold))}
	if len(gold) == 0 {
		return s
	}
	pos := map[string]int{}
	for i, f := range ranked {
		if _, ok := pos[f.key()]; !ok {
			pos[f.key()] = i + 1
		}
	}
	first := 0
	for i, g := range gold {
		r := pos[g.key()]
		s.Ranks[i] = r
		if r > 0 && (first == 0 || r < first) {
			first = r
		}
	}
	if first > 0 {
		s.RR = 1 / float64(first)
		for k := first; k <= MaxK; k++ {
			s.Hit[k-1] = 1
		}
	}
	for bi, b := range budgets {
		n := 0
		for _, g := range gold {
			if covered(shown[b][g.Path], g.Line, g.End) {
				n++
			}
		}
		s.Inc[bi] = float64(n) / float64(len(gold))
	}
	return s
}

// covered reports whether the ranges show every line from start to end.
func covered(rs []LineRange, start, end int) bool {
	next := start
	sorted := append([]LineRange(nil), rs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	for _, r := range sorted {
		if r.Start > next {
			break
		}
		if r.End >= next {
			next = r.End + 1
		}
		if next > end {
			return true
		}
	}
	return next > end
}

// functionsByFile derives a function ranking from a file ranking: the
// functions of the first funcFiles scored files, file by file, each file's
// in the order of their BM25 score for the query among the functions of
// those files (then by line).
func functionsByFile(root string, inst Instance, files []string, decls []Decl) []RankedFunc {
	byPath := map[string][]Decl{}
	for _, d := range decls {
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	terms, counts := QueryTerms(inst.Query)
	type doc struct {
		d   Decl
		tf  map[string]int
		len int
	}
	var docs [][]doc
	df := map[string]int{}
	total, n := 0, 0
	for _, p := range files {
		src, err := readLines(root, p)
		var fd []doc
		for _, d := range byPath[p] {
			dc := doc{d: d, tf: map[string]int{}}
			if err == nil {
				for l := d.Line; l <= d.End && l <= len(src); l++ {
					IndexTerms([]byte(src[l-1]), func(t string) { dc.tf[t]++; dc.len++ })
				}
			}
			for t := range dc.tf {
				df[t]++
			}
			total += dc.len
			n++
			fd = append(fd, dc)
		}
		docs = append(docs, fd)
	}
	avg := 1.0
	if n > 0 && total > 0 {
		avg = float64(total) / float64(n)
	}
	var out []RankedFunc
	for _, fd := range docs {
		scores := make([]float64, len(fd))
		for i, dc := range fd {
			for j, t := range terms {
				if tf := dc.tf[t]; tf > 0 {
					scores[i] += bm25.Score(counts[j], bm25.IDF(n, df[t]), float64(tf), float64(dc.len), avg)
				}
			}
		}
		idx := make([]int, len(fd))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
		for _, i := range idx {
			out = append(out, RankedFunc{Decl: fd[i].d, Score: scores[i]})
		}
	}
	return out
}

// funcFiles is how many of a ranker's files functionsByFile takes.
const funcFiles = 10

// topScored returns the first n scored source files of a ranking.
func topScored(files []RankedFile, inst Instance, n int) []string {
	ranked, _ := scoredList(files, inst)
	if len(ranked) > n {
		ranked = ranked[:n]
	}
	return ranked
}

// readLines reads a file of the checkout as lines.
func readLines(root, p string) ([]string, error) {
	data, err := analyze.ReadSource(root, p, 0)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	return strings.Split(string(data), "\n"), nil
}
