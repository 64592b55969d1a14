package rank

import (
	"context"
	"math"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bm25"
	"github.com/ctxexpand/ctxexpand/index/wire"
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

// fileTokens is what one file contributes to the index.
type fileTokens struct {
	sym  map[analyze.SymID]map[string]float32
	file map[string]float32
	path map[string]float32
	slen map[analyze.SymID]float32
	flen float32
	// plain holds the baseline's terms of the whole file (bm25.Terms of
	// the text, the path's counted bm25.PathWeight times), plen their
	// number.
	plain map[string]float32
	plen  float32
	ord   *orderedTokens // the same in merge order; set by decoding (lexcache.go)
}

// BuildIndex reads every file of the facts through src and indexes it.
// Files that cannot be read are indexed by path only.
func BuildIndex(ctx context.Context, facts *analyze.Facts, src Source) (*Index, error) {
	store, _ := src.(IndexStore) // lexcache.go
	if store != nil {
		if data, ok := store.LoadLexicalIndex(); ok {
			if ix, err := decodeIndex(data, facts); err == nil {
				return ix, nil
			}
		}
	}
	ix := &Index{
		facts:   facts,
		terms:   map[string]int32{},
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
			for i := range next {
				if store != nil {
					per[i] = tk.cachedFile(facts, analyze.FileID(i), src, store)
				} else {
					per[i] = tk.file(facts, analyze.FileID(i), src)
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

	// Merge on one goroutine, in file order, so term IDs are deterministic.
	intern := func(t string) int32 {
		id, ok := ix.terms[t]
		if !ok {
			id = int32(len(ix.terms))
			ix.terms[t] = id
			ix.symPost = append(ix.symPost, nil)
			ix.filePost = append(ix.filePost, nil)
			ix.pathPost = append(ix.pathPost, nil)
			ix.plainPost = append(ix.plainPost, nil)
		}
		return id
	}
	ix.plainLen = make([]float32, len(facts.Files))
	var plainTotal float64
	var symTotal, fileTotal float64
	for fi, ft := range per {
		if ft == nil {
			continue
		}
		o := ft.ordered() // lexcache.go
		for _, tw := range o.file {
			id := intern(tw.term)
			ix.filePost[id] = append(ix.filePost[id], posting{int32(fi), tw.w})
		}
		for _, tw := range o.path {
			id := intern(tw.term)
			ix.pathPost[id] = append(ix.pathPost[id], posting{int32(fi), tw.w})
		}
		ix.fileLen[fi] = ft.flen
		fileTotal += float64(ft.flen)
		ix.nFileDocs++
		if facts.Files[fi].Category == analyze.CatSource && ft.plen > 0 {
			for _, tw := range o.plain {
				id := intern(tw.term)
				ix.plainPost[id] = append(ix.plainPost[id], posting{int32(fi), tw.w})
			}
			ix.plainLen[fi] = ft.plen
			plainTotal += float64(ft.plen)
			ix.nPlainDocs++
		}
		for _, st := range o.syms {
			for _, tw := range st.terms {
				id := intern(tw.term)
				ix.symPost[id] = append(ix.symPost[id], posting{int32(st.sym), tw.w})
			}
			ix.symLen[st.sym] = st.slen
			symTotal += float64(st.slen)
			ix.nSymDocs++
		}
	}
	if ix.nSymDocs > 0 {
		ix.avgSymLen = symTotal / float64(ix.nSymDocs)
	}
	if ix.nFileDocs > 0 {
		ix.avgFileLen = fileTotal / float64(ix.nFileDocs)
	}
	if ix.nPlainDocs > 0 {
		ix.avgPlainLen = plainTotal / float64(ix.nPlainDocs)
	}
	if store != nil {
		store.StoreLexicalIndex(encodeIndex(ix))
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

// tokenizer turns identifiers into index terms, caching per identifier.
// Each identifier yields its style-insensitive whole form ("findbyemail")
// and its split, stemmed parts ("find", "email"); stop words are dropped
// from the parts.
type tokenizer struct {
	cache map[string][]string
	plain map[string][]string // the baseline's terms per identifier
	names wire.Interner       // terms read from the index, shared by the files one worker decodes
}

func newTokenizer() *tokenizer {
	return &tokenizer{cache: map[string][]string{}, plain: map[string][]string{}, names: wire.Interner{}}
}

// plainTerms are bm25.IdentTerms of an identifier, cached.
func (tk *tokenizer) plainTerms(ident []byte) []string {
	if ts, ok := tk.plain[string(ident)]; ok {
		return ts
	}
	var ts []string
	bm25.IdentTerms(string(ident), func(t string) { ts = append(ts, t) })
	tk.plain[string(ident)] = ts
	return ts
}

func (tk *tokenizer) terms(ident []byte) []string {
	if ts, ok := tk.cache[string(ident)]; ok {
		return ts
	}
	s := string(ident)
	parts := analyze.SplitIdent(s)
	var ts []string
	whole := analyze.NormName(s)
	if len(parts) > 1 && whole != "" {
		ts = append(ts, whole)
	}
	for _, p := range parts {
		if len(p) < 2 || query.IsStopWord(p) {
			continue
		}
		ts = append(ts, query.NormTerm(p))
	}
	if len(parts) == 1 && len(ts) == 0 && len(whole) >= 2 {
		ts = append(ts, whole) // a stop word as a whole identifier still names something
	}
	tk.cache[s] = ts
	return ts
}

// pathTerms are the terms of a path's directories and of the file's base
// name without its extension, each with its weight in the path document:
// a term of the base name counts double (a file named after a thing is
// about it more than a directory named after it).
func (tk *tokenizer) pathTerms(p string) map[string]float32 {
	p = strings.TrimSuffix(p, path.Ext(p))
	out := map[string]float32{}
	comps := strings.Split(p, "/")
	for i, comp := range comps {
		w := float32(1)
		if i == len(comps)-1 {
			w = 2
		}
		for _, t := range tk.terms([]byte(comp)) {
			if w > out[t] {
				out[t] = w
			}
		}
	}
	return out
}

// maxIndexedFileSize caps the bytes of a file that are tokenised; the rest
// of a huge file adds nothing a query could use that its head lacks.
const maxIndexedFileSize = 1 << 20

func (tk *tokenizer) file(facts *analyze.Facts, fid analyze.FileID, src Source) *fileTokens {
	f := &facts.Files[fid]
	ft := &fileTokens{
		sym:   map[analyze.SymID]map[string]float32{},
		file:  map[string]float32{},
		path:  map[string]float32{},
		slen:  map[analyze.SymID]float32{},
		plain: map[string]float32{},
	}
	bm25.Terms([]byte(f.Path), func(t string) {
		ft.plain[t] += bm25.PathWeight
		ft.plen += bm25.PathWeight
	})
	for t, w := range tk.pathTerms(f.Path) {
		ft.path[t] = w
		ft.file[t] += pathRepeat
		ft.flen += pathRepeat
	}
	syms := facts.SymbolsIn(fid)
	addSym := func(s analyze.SymID, t string, w float32) {
		m := ft.sym[s]
		if m == nil {
			m = map[string]float32{}
			ft.sym[s] = m
		}
		m[t] += w
		ft.slen[s] += w
	}
	for _, s := range syms {
		sym := &facts.Symbols[s]
		if !ownsDoc(sym.Kind) {
			continue
		}
		for _, t := range tk.terms([]byte(sym.Name)) {
			addSym(s, t, weightName)
		}
		if sym.Container != "" {
			for _, t := range tk.terms([]byte(sym.Container)) {
				addSym(s, t, weightContainer)
			}
		}
	}
	content, err := src.Content(fid)
	if err != nil || len(content) == 0 {
		return ft
	}
	if len(content) > maxIndexedFileSize {
		content = content[:maxIndexedFileSize]
	}
	owner := lineOwners(facts, syms, bytesCount(content)+1)
	line := 0
	start := 0
	for i := 0; i <= len(content); i++ {
		if i < len(content) && content[i] != '\n' {
			continue
		}
		o := analyze.NoSym
		if line < len(owner) {
			o = owner[line]
		}
		analyze.Identifiers(content[start:i], func(tok []byte) {
			for _, t := range tk.plainTerms(tok) {
				ft.plain[t]++
				ft.plen++
			}
			for _, t := range tk.terms(tok) {
				ft.file[t]++
				ft.flen++
				if o != analyze.NoSym {
					addSym(o, t, weightBody)
				}
			}
		})
		line++
		start = i + 1
	}
	return ft
}

func bytesCount(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// ownsDoc reports whether a symbol of kind k gets a lexical document of its
// own. Fields, variants and associated types fold into their enclosing type.
func ownsDoc(k analyze.SymbolKind) bool {
	switch k {
	case analyze.KindField, analyze.KindVariant, analyze.KindAssocType:
		return false
	}
	return true
}

// lineOwners maps each line (0-based) to the innermost symbol that owns a
// document and covers it.
func lineOwners(facts *analyze.Facts, syms []analyze.SymID, lines int) []analyze.SymID {
	owner := make([]analyze.SymID, lines)
	for i := range owner {
		owner[i] = analyze.NoSym
	}
	order := make([]analyze.SymID, 0, len(syms))
	for _, s := range syms {
		if ownsDoc(facts.Symbols[s].Kind) {
			order = append(order, s)
		}
	}
	// Widest first, so that inner symbols overwrite their containers.
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &facts.Symbols[order[a]], &facts.Symbols[order[b]]
		return x.End-x.Start > y.End-y.Start
	})
	for _, s := range order {
		sym := &facts.Symbols[s]
		for l := sym.Start; l <= sym.End && l-1 < lines; l++ {
			if l >= 1 {
				owner[l-1] = s
			}
		}
	}
	return owner
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
			out[p.doc] += float64(counts[j]) * idf * bm25.TermScore(float64(p.tf), float64(ix.plainLen[p.doc]), avg)
		}
	}
	return out
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
			idf := bm25IDF(ix.nSymDocs, len(ps))
			for _, p := range ps {
				tf := float64(p.tf)
				norm := bm25K1 * (1 - bm25B + bm25B*float64(ix.symLen[p.doc])/math.Max(ix.avgSymLen, 1))
				lx.Sym[p.doc] += t.Weight * idf * tf * (bm25K1 + 1) / (tf + norm)
			}
		}
		if ps := ix.filePost[id]; len(ps) > 0 {
			idf := bm25IDF(ix.nFileDocs, len(ps))
			for _, p := range ps {
				tf := float64(p.tf)
				norm := bm25K1 * (1 - bm25FileB + bm25FileB*float64(ix.fileLen[p.doc])/math.Max(ix.avgFileLen, 1))
				lx.File[p.doc] += t.Weight * idf * tf * (bm25K1 + 1) / (tf + norm)
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

// pathIDF weighs a term by how few paths hold it: a query word that names
// one file's directory or base name says more than one in every path.
func pathIDF(n, df int) float64 {
	return math.Log(1 + float64(n)/float64(max(df, 1)))
}

func bm25IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
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
