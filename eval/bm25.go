package eval

import (
	"context"
	"fmt"
	"sort"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bm25"
)

// BM25 is the benchmark's published baseline: Okapi BM25 over whole source
// files. A document is a file's text plus the terms of its path counted
// PathWeight times; terms come from [IndexTerms]. A file's score sums, over
// the query's terms with repeats, idf·tf·(k1+1) / (tf + k1·(1−b+b·len/avglen))
// with idf = ln(1 + (N−df+0.5)/(df+0.5)); package bm25 owns the terms and
// that formula ([bm25.IDF], [bm25.Params.Score]), and this ranker only reads
// the checkout's files into documents, orders them and says why. For inc@B
// it packs whole files in score order, first fit, at [BytesPerToken] bytes a
// token.
//
// The zero value is not the baseline; use [NewBM25].
type BM25 struct {
	K1, B      float64
	PathWeight int
	// MaxFileSize skips larger files (0 means analyze.MaxFileSize).
	MaxFileSize int64
}

// NewBM25 returns the baseline with the README's parameters.
func NewBM25() *BM25 { return &BM25{K1: bm25.K1, B: bm25.B, PathWeight: bm25.PathWeight} }

// Name implements Ranker.
func (*BM25) Name() string { return "bm25" }

// bm25Doc is what the index keeps of one file: its length in terms and the
// frequency of each query term in it.
type bm25Doc struct {
	path string
	size int64
	len  int
	tf   []int32 // aligned with the query terms
	// inPath marks query terms that occur in the path.
	inPath []bool
}

// Rank implements Ranker. Files without any query term are not ranked.
func (m *BM25) Rank(ctx context.Context, root string, inst Instance, budgets []int) (Ranking, error) {
	terms, counts := QueryTerms(inst.Query)
	if len(terms) == 0 {
		return Ranking{Bundles: map[int][]string{}}, nil
	}
	termIdx := make(map[string]int, len(terms))
	for i, t := range terms {
		termIdx[t] = i
	}
	files, err := SourceFiles(ctx, root, inst.Lang)
	if err != nil {
		return Ranking{}, fmt.Errorf("listing source files: %w", err)
	}
	docs := make([]bm25Doc, 0, len(files))
	for i, p := range files {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return Ranking{}, err
			}
		}
		src, err := analyze.ReadSource(root, p, m.MaxFileSize)
		if err != nil {
			continue // too large, binary or unreadable: not a document
		}
		d := bm25Doc{path: p, size: int64(len(src)), tf: make([]int32, len(terms)), inPath: make([]bool, len(terms))}
		count := func(weight int, inPath bool) func(string) {
			return func(t string) {
				d.len += weight
				if j, ok := termIdx[t]; ok {
					d.tf[j] += int32(weight)
					if inPath {
						d.inPath[j] = true
					}
				}
			}
		}
		IndexTerms([]byte(p), count(m.PathWeight, true))
		IndexTerms(src, count(1, false))
		docs = append(docs, d)
	}
	return m.score(terms, counts, docs, budgets), nil
}

// score ranks the documents for the query terms.
func (m *BM25) score(terms []string, counts []int, docs []bm25Doc, budgets []int) Ranking {
	n := float64(len(docs))
	df := make([]int, len(terms))
	total := 0.0
	for _, d := range docs {
		total += float64(d.len)
		for j, tf := range d.tf {
			if tf > 0 {
				df[j]++
			}
		}
	}
	if n == 0 {
		return Ranking{Bundles: map[int][]string{}}
	}
	avgLen := total / n
	idf := make([]float64, len(terms))
	for j := range terms {
		idf[j] = bm25.IDF(len(docs), df[j])
	}
	params := bm25.Params{K1: m.K1, B: m.B}
	type scored struct {
		doc   *bm25Doc
		score float64
		parts []float64
	}
	var ranked []scored
	for i := range docs {
		d := &docs[i]
		var sum float64
		var parts []float64
		for j, tf := range d.tf {
			if tf == 0 {
				continue
			}
			if parts == nil {
				parts = make([]float64, len(terms))
			}
			parts[j] = params.Score(counts[j], idf[j], float64(tf), float64(d.len), avgLen)
			sum += parts[j]
		}
		if sum > 0 {
			ranked = append(ranked, scored{d, sum, parts})
		}
	}
	sort.Slice(ranked, func(i, j int) bool {
		if ranked[i].score != ranked[j].score {
			return ranked[i].score > ranked[j].score
		}
		return ranked[i].doc.path < ranked[j].doc.path
	})
	out := Ranking{Files: make([]RankedFile, len(ranked))}
	paths := make([]string, len(ranked))
	sizes := make([]int64, len(ranked))
	for i, r := range ranked {
		out.Files[i] = RankedFile{Path: r.doc.path, Score: r.score, Reasons: bm25Reasons(terms, r.doc, r.parts)}
		paths[i], sizes[i] = r.doc.path, r.doc.size
	}
	out.Bundles = PackWholeFiles(paths, sizes, budgets)
	return out
}

// bm25Reasons names the terms that contributed most to a file's score.
func bm25Reasons(terms []string, d *bm25Doc, parts []float64) []string {
	idx := make([]int, 0, len(terms))
	for j, p := range parts {
		if p > 0 {
			idx = append(idx, j)
		}
	}
	sort.Slice(idx, func(a, b int) bool {
		if parts[idx[a]] != parts[idx[b]] {
			return parts[idx[a]] > parts[idx[b]]
		}
		return terms[idx[a]] < terms[idx[b]]
	})
	const maxReasons = 5
	var out []string
	for _, j := range idx[:min(len(idx), maxReasons)] {
		where := ""
		if d.inPath[j] {
			where = ", in path"
		}
		out = append(out, fmt.Sprintf("term %q +%.2f (tf %d%s)", terms[j], parts[j], d.tf[j], where))
	}
	if len(idx) > maxReasons {
		out = append(out, fmt.Sprintf("%d more terms", len(idx)-maxReasons))
	}
	return out
}

// BytesPerToken is the baseline's size estimate for packing bundles.
const BytesPerToken = 4

// PackWholeFiles packs whole files in the given order into each budget,
// first fit: a file that does not fit in what is left is skipped and
// packing goes on with the next. A file of s bytes costs ceil(s/4) tokens.
func PackWholeFiles(paths []string, sizes []int64, budgets []int) map[int][]string {
	out := make(map[int][]string, len(budgets))
	for _, b := range budgets {
		left := int64(b)
		in := []string{}
		for i, p := range paths {
			cost := (sizes[i] + BytesPerToken - 1) / BytesPerToken
			if cost <= left {
				in = append(in, p)
				left -= cost
			}
		}
		out[b] = in
	}
	return out
}

// IndexTerms calls fn for each term of text: every identifier (a run of
// letters, digits and underscores not starting with a digit) lower-cased,
// then, when it splits at camelCase or snake_case boundaries, each part.
// Stop words are left out. It is [bm25.Terms].
func IndexTerms(text []byte, fn func(term string)) { bm25.Terms(text, fn) }

// QueryTerms returns the distinct index terms of a query in first-seen
// order and how often each occurs ([bm25.QueryTerms]).
func QueryTerms(q string) (terms []string, counts []int) { return bm25.QueryTerms(q) }
