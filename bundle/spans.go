package bundle

import (
	"sort"
	"strings"
)

// view is what a rung shows of a file: ranges of lines (sorted, disjoint);
// for each, the last line of its declaration head (doc comment and
// signature), which signature-first truncation keeps before any body line,
// and whether it holds nothing but imports, which truncation drops first.
type view struct {
	ranges  []lineRange
	heads   []int
	imports []bool
	prio    []int // index of the first request span in each range: truncation serves ranges in this order
}

// fullView shows every line; its head is the first line.
func (s *srcFile) fullView() view {
	if s.n() == 0 {
		return view{}
	}
	return view{ranges: []lineRange{{1, s.n()}}, heads: []int{1}, imports: []bool{false}, prio: []int{0}}
}

// spansView shows the relevant spans widened by ctxLines lines, plus the
// import lines, merged where they touch.
func (s *srcFile) spansView(spans []Span, syms []Symbol, ctxLines int) view {
	var rs []lineRange
	type headAt struct{ line, head, prio int }
	var heads []headAt
	for k, sp := range spans {
		r, ok := s.clamp(lineRange{sp.Start - ctxLines, sp.End + ctxLines})
		if !ok || sp.End < sp.Start {
			continue
		}
		rs = append(rs, r)
		if h, ok := s.clamp(lineRange{sp.Start, sp.End}); ok {
			heads = append(heads, headAt{h.start, s.declHead(sp, syms), k})
		}
	}
	if len(rs) == 0 {
		return view{}
	}
	spanRanges := mergeRanges(rs, 1)
	imports := s.importRanges()
	rs = mergeRanges(append(rs, imports...), 1)
	v := view{ranges: rs, heads: make([]int, len(rs)), imports: make([]bool, len(rs)), prio: make([]int, len(rs))}
	for i, r := range rs {
		v.heads[i] = r.start
		v.prio[i] = len(spans)
		v.imports[i] = true
		for _, sr := range spanRanges {
			if sr.start <= r.end && sr.end >= r.start {
				v.imports[i] = false
			}
		}
		for _, im := range imports {
			if im.start >= r.start && im.end <= r.end {
				v.heads[i] = max(v.heads[i], im.end)
			}
		}
		first := true
		for _, h := range heads {
			if h.line >= r.start && h.line <= r.end {
				if first {
					v.heads[i] = max(v.heads[i], min(h.head, r.end))
					first = false
				}
				v.prio[i] = min(v.prio[i], h.prio)
			}
		}
	}
	return v
}

// declHead returns the last line of the declaration head of a span: the
// line holding the body's opening brace at or after the span symbol's
// declaration line, looking a few lines ahead; else that line itself.
func (s *srcFile) declHead(sp Span, syms []Symbol) int {
	decl := sp.Start
	for _, sym := range syms {
		if sym.DeclLine >= sp.Start && sym.DeclLine <= sp.End && (sp.Symbol == "" || sym.Name == sp.Symbol || symbolMatches(sym, sp.Symbol)) {
			decl = sym.DeclLine
			break
		}
	}
	decl = min(max(decl, 1), s.n())
	for l := decl; l <= min(decl+8, sp.End, s.n()); l++ {
		if strings.Contains(s.lines[l-1], "{") {
			return l
		}
	}
	return decl
}

// symbolMatches reports whether a span's symbol text names sym, written
// with either language's separator ("MemStore::save", "UserService.Find").
func symbolMatches(sym Symbol, name string) bool {
	if sym.Container == "" {
		return false
	}
	return name == sym.Container+"."+sym.Name || name == sym.Container+"::"+sym.Name
}

// covers reports whether a view shows the whole file.
func (v view) covers(s *srcFile) bool {
	return len(v.ranges) == 1 && v.ranges[0].start == 1 && v.ranges[0].end == s.n()
}

// spanIdx returns the indexes of the ranges that hold spans (not only
// imports), in the order of the request's spans.
func (v view) spanIdx() []int {
	var out []int
	for i := range v.ranges {
		if !v.imports[i] {
			out = append(out, i)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return v.prio[out[a]] < v.prio[out[b]] })
	return out
}

// truncParams returns the largest truncation parameter of a view: the
// parameter p orders cut versions by size (see truncated).
func (v view) truncParams(mode Truncation) int {
	idx := v.spanIdx()
	steps := 0
	if mode == Bookend {
		for _, i := range idx {
			steps = max(steps, (v.ranges[i].len()+1)/2)
		}
	} else {
		for _, i := range idx {
			steps += v.ranges[i].end - v.heads[i]
		}
	}
	return len(idx) + steps + 1
}

// truncated returns the ranges a cut version of the view shows, for a
// parameter p from 1 to truncParams(mode). With n ranges holding spans:
//
// Signature-first: p up to n shows the heads of the first p of them;
// beyond that, all heads plus p-n body lines given out in range order, each
// body from its top (a range whose last line is a lone closing brace keeps
// it). Bookend: p up to n shows the first and last line of the first p of
// them; beyond that, each shows its first and last p-n+1 lines.
//
// Import-only ranges come in at the largest p, the whole view.
func (v view) truncated(s *srcFile, mode Truncation, p int) []lineRange {
	idx := v.spanIdx()
	n := len(idx)
	var out []lineRange
	if p >= v.truncParams(mode) {
		return v.ranges
	}
	if mode == Bookend {
		keep, upto := 1, n
		if p <= n {
			upto = p
		} else {
			keep = p - n + 1
		}
		for _, i := range idx[:upto] {
			r := v.ranges[i]
			if r.len() <= 2*keep {
				out = append(out, r)
				continue
			}
			out = append(out, lineRange{r.start, r.start + keep - 1}, lineRange{r.end - keep + 1, r.end})
		}
		return mergeRanges(out, 0)
	}
	if p <= n {
		for _, i := range idx[:p] {
			out = append(out, lineRange{v.ranges[i].start, v.heads[i]})
		}
		return mergeRanges(out, 0)
	}
	budget := p - n
	for _, i := range idx {
		r := v.ranges[i]
		head := lineRange{r.start, v.heads[i]}
		bodyLen := r.end - v.heads[i]
		take := min(budget, bodyLen)
		budget -= take
		head.end += take
		out = append(out, head)
		if take < bodyLen && strings.TrimSpace(s.lines[r.end-1]) == "}" && head.end < r.end-1 {
			out = append(out, lineRange{r.end, r.end})
		}
	}
	return mergeRanges(out, 0)
}
