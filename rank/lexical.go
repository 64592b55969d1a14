package rank

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bm25"
	"github.com/ctxexpand/ctxexpand/query"
)

// Source gives the content of a file of the facts.
type Source interface {
	Content(f analyze.FileID) ([]byte, error)
}

// BM25 parameters, the usual defaults.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// bm25FileB normalises whole files for length more gently than
	// symbols: a long file is long because it holds many symbols, not
	// because it repeats itself, and the symbol-level score already
	// rewards focused matches (dev split: hit@1 0.63 -> 0.64, all@5 0.77
	// -> 0.78 against b = 0.75; 0.3 was worse).
	bm25FileB = 0.5
)

// Field weights of a symbol document: a term in the symbol's own name
// counts as much as three in its body, one in its container's name as two.
const (
	weightName      = 3.0
	weightContainer = 2.0
	weightBody      = 1.0
	// pathRepeat is how many times a file's path words count in the
	// whole-file document.
	pathRepeat = 3
)

type posting struct {
	doc int32
	tf  float32
}

// Index is the lexical index of a repository. It is built once and
// answers any number of queries; it is safe for concurrent reads.
type Index struct {
	facts *analyze.Facts
	terms map[string]int32

	symPost  [][]posting // term → symbol documents
	filePost [][]posting // term → whole-file documents
	pathPost [][]posting // term → files whose path holds the term

	symLen, fileLen       []float32
	avgSymLen, avgFileLen float64
	nSymDocs, nFileDocs   int

	// The plain whole-file index of the benchmark's baseline (package
	// bm25): unstemmed terms, path words counted bm25.PathWeight times,
	// over the source files only (no tests, generated, vendored or
	// example code). Its terms share the term table.
	plainPost   [][]posting
	plainLen    []float32
	avgPlainLen float64
	nPlainDocs  int
	// lineOwner[file] maps each line (0-based) to the symbol document it
	// belongs to, or -1; kept only while building.
}

// fileTokens is what one file contributes to the index, in the order the
// index merges it (see orderedTokens).
type fileTokens struct {
	flen float32 // the whole-file document's length
	// plen is the length of the baseline's document of the file (bm25.Terms
	// of the text, the path's terms counted bm25.PathWeight times).
	plen float32
	ord  *orderedTokens
	// tk is the tokenizer whose vocabulary the terms' ids index; nil for
	// statistics decoded from the store, whose terms have no id, and for
	// a memo's.
	tk *tokenizer
	// atoms: the statistics are a memo's, their terms' ids its atoms
	// (termsmemo.go), which the merge never overwrites.
	atoms bool
	// raw holds the counts of a file just tokenised until tk.finish
	// orders them into ord (tokenize.go).
	raw *rawTokens
	// store, when set, is where the finished statistics are kept (lexcache.go).
	store func(ft *fileTokens)
}

// BuildIndex reads every file of the facts through src and indexes it.
// Files that cannot be read are indexed by path only.
func BuildIndex(ctx context.Context, facts *analyze.Facts, src Source) (*Index, error) {
	store, _ := src.(IndexStore) // lexcache.go
	var memo *TermsMemo          // termsmemo.go
	if ms, ok := src.(MemoStore); ok {
		memo = ms.TermsMemo()
	}
	if store != nil {
		if data, ok := store.LoadLexicalIndex(); ok {
			if ix, err := decodeIndex(data, facts); err == nil {
				return ix, nil
			}
		}
	}
	ix := &Index{
		facts:   facts,
		terms:   make(map[string]int32, memo.size()), // sized as the terms the memo has seen
		symLen:  make([]float32, len(facts.Symbols)),
		fileLen: make([]float32, len(facts.Files)),
	}
	per := make([]*fileTokens, len(facts.Files))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk := newTokenizer()
			var mine []*fileTokens // tokenised here, to be finished
			for i := range next {
				if store != nil {
					per[i] = tk.cachedFile(facts, analyze.FileID(i), src, store, memo)
				} else {
					per[i] = tk.file(facts, analyze.FileID(i), src)
				}
				if per[i].raw != nil {
					mine = append(mine, per[i])
				}
			}
			tk.sortVocab()
			for _, ft := range mine {
				tk.finish(ft)
				if ft.store != nil {
					ft.store(ft)
					ft.store = nil
				}
			}
		}()
	}
	var err error
	for i := range facts.Files {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, err
	}

	if memo != nil {
		memo.finish()
	}
	merge(ix, per) // merge.go
	if store != nil {
		store.StoreLexicalIndex(func() []byte { return encodeIndex(ix) })
	}
	return ix, nil
}

func sortedKeys(m map[string]float32) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Lexical holds the lexical evidence for one query.
type Lexical struct {
	Sym  []float64 // BM25F of each symbol's document (0 when no term matched)
	File []float64 // BM25 of each whole file with its path words
	// Path is, per file, the share of the query's term weight its path
	// holds, each term weighed by its rarity among paths, terms of the
	// base name counting double (0..1).
	Path []float64
	// Matched lists, per file, the query terms found in it (for reasons).
	Matched [][]string
}

// ScorePlain is the benchmark baseline's BM25 of each source file for the
// query text (package bm25: the query's identifiers and their parts, each
// occurrence counted); 0 for files that are not source or hold no term.
func (ix *Index) ScorePlain(text string) []float64 {
	out := make([]float64, len(ix.facts.Files))
	if ix.nPlainDocs == 0 {
		return out
	}
	terms, counts := bm25.QueryTerms(text)
	avg := math.Max(ix.avgPlainLen, 1)
	for j, t := range terms {
		id, ok := ix.terms[t]
		if !ok {
			continue
		}
		ps := ix.plainPost[id]
		if len(ps) == 0 {
			continue
		}
		idf := bm25.IDF(ix.nPlainDocs, len(ps))
		for _, p := range ps {
			out[p.doc] += bm25.Score(counts[j], idf, float64(p.tf), float64(ix.plainLen[p.doc]), avg)
		}
	}
	return out
}

// Clone returns a copy of l whose slices can be changed without changing
// l's (the lists of matched terms are shared, not their containing slice).
func (l *Lexical) Clone() *Lexical {
	return &Lexical{Sym: slices.Clone(l.Sym), File: slices.Clone(l.File), Path: slices.Clone(l.Path), Matched: slices.Clone(l.Matched)}
}

// Score computes the lexical evidence of the terms. Term weights multiply
// each term's contribution.
func (ix *Index) Score(terms []query.Term) *Lexical {
	lx := &Lexical{
		Sym:     make([]float64, len(ix.facts.Symbols)),
		File:    make([]float64, len(ix.facts.Files)),
		Path:    make([]float64, len(ix.facts.Files)),
		Matched: make([][]string, len(ix.facts.Files)),
	}
	var totalW, totalPathW float64
	maxIDF := pathIDF(ix.nFileDocs, 1)
	for _, t := range terms {
		totalW += t.Weight
		idf := maxIDF
		if id, ok := ix.terms[t.Text]; ok && len(ix.pathPost[id]) > 0 {
			idf = pathIDF(ix.nFileDocs, len(ix.pathPost[id]))
		}
		totalPathW += t.Weight * idf
	}
	for _, t := range terms {
		id, ok := ix.terms[t.Text]
		if !ok || t.Weight <= 0 {
			continue
		}
		if ps := ix.symPost[id]; len(ps) > 0 {
			idf := bm25.IDF(ix.nSymDocs, len(ps))
			for _, p := range ps {
				lx.Sym[p.doc] += bm25fTerm(t.Weight, idf, float64(p.tf), float64(ix.symLen[p.doc]), ix.avgSymLen, bm25B)
			}
		}
		if ps := ix.filePost[id]; len(ps) > 0 {
			idf := bm25.IDF(ix.nFileDocs, len(ps))
			for _, p := range ps {
				lx.File[p.doc] += bm25fTerm(t.Weight, idf, float64(p.tf), float64(ix.fileLen[p.doc]), ix.avgFileLen, bm25FileB)
				lx.Matched[p.doc] = append(lx.Matched[p.doc], t.Text)
			}
		}
		if ps := ix.pathPost[id]; len(ps) > 0 && totalPathW > 0 {
			idf := pathIDF(ix.nFileDocs, len(ps))
			for _, p := range ps {
				lx.Path[p.doc] += t.Weight * idf * float64(p.tf) / (2 * totalPathW)
			}
		}
	}
	return lx
}

// bm25fTerm is one query term's contribution, at weight w, to a field of
// the index (a symbol document or a whole file) of length dl (average
// avgLen, at least 1) holding it tf times: w·idf·tf·(k1+1) / (tf + norm),
// with rank's own k1 and the field's b. It differs from the baseline's
// bm25.Params.Score only in the field's b and the query weight; the
// arithmetic is kept in this order so that scores stay the same to the bit.
func bm25fTerm(w, idf, tf, dl, avgLen, b float64) float64 {
	norm := bm25K1 * (1 - b + b*dl/math.Max(avgLen, 1))
	return w * idf * tf * (bm25K1 + 1) / (tf + norm)
}

// pathIDF weighs a term by how few paths hold it: a query word that names
// one file's directory or base name says more than one in every path.
func pathIDF(n, df int) float64 {
	return math.Log(1 + float64(n)/float64(max(df, 1)))
}

// DocFreq is the number of files whose text holds term t (after
// normalisation), for callers that weigh terms by rarity.
func (ix *Index) DocFreq(t string) int {
	id, ok := ix.terms[t]
	if !ok {
		return 0
	}
	return len(ix.filePost[id])
}

// NumFiles is the number of files indexed.
func (ix *Index) NumFiles() int { return ix.nFileDocs }
