package rank

import (
	"cmp"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bm25"
	"github.com/ctxexpand/ctxexpand/index/wire"
	"github.com/ctxexpand/ctxexpand/query"
)

// Tokenising files for the lexical index.
//
// A file's text is a stream of identifiers, most of them repeated many
// times in the file and across the repository. Each worker's tokenizer
// keeps, per distinct identifier, its terms of both analyses as ids into
// the worker's vocabulary, so that an identifier seen before costs one map
// lookup; a file's counts are kept in arrays indexed by term id. Once a
// worker has tokenised its files it sorts its vocabulary once, and each
// file's terms are put in order by their rank in it (finish), integers
// compared instead of strings. BuildIndex maps each vocabulary id to the
// index's term id once per worker, not once per file.

// tokenizer turns identifiers into index terms. It is not safe for
// concurrent use; BuildIndex gives each worker its own.
type tokenizer struct {
	idents  map[string]*identTerms
	vocab   []string         // term id → term
	vocabID map[string]int32 // term → term id
	names   wire.Interner    // terms read from the index, shared by the files one worker decodes

	// Per-file scratch, indexed by term id, reset after each file.
	fileCount, plainCount, runCount []float32
	fileSeen, plainSeen, runSeen    []int32
	// Symbol documents are counted in runs of consecutive tokens with the
	// same owner; each run's counts become entries when the owner changes.
	runSym  analyze.SymID
	entries []symEntry

	rank []int32 // term id → position of the term in the sorted vocabulary; set by sortVocab

	global []int32 // term id → the index's term id, or -1; filled by the merge
}

// identTerms are an identifier's terms in both analyses, as term ids.
type identTerms struct {
	terms []int32 // ranking's: tokenizer.terms
	plain []int32 // the baseline's: bm25.IdentTerms
}

// symEntry is a term's count in one run of a symbol's document.
type symEntry struct {
	sym  analyze.SymID
	term int32
	w    float32
	key  uint64 // the symbol's position in the file and the term's rank, for sorting (finish)
}

func newTokenizer() *tokenizer {
	return &tokenizer{idents: map[string]*identTerms{}, vocabID: map[string]int32{}, names: wire.Interner{}, runSym: analyze.NoSym}
}

// id returns the term id of t, adding it to the vocabulary.
func (tk *tokenizer) id(t string) int32 {
	if id, ok := tk.vocabID[t]; ok {
		return id
	}
	id := int32(len(tk.vocab))
	tk.vocab = append(tk.vocab, t)
	tk.vocabID[t] = id
	tk.fileCount = append(tk.fileCount, 0)
	tk.plainCount = append(tk.plainCount, 0)
	tk.runCount = append(tk.runCount, 0)
	return id
}

// ident returns the terms of an identifier, computing them once.
func (tk *tokenizer) ident(b []byte) *identTerms {
	if it, ok := tk.idents[string(b)]; ok {
		return it
	}
	s := string(b)
	it := &identTerms{}
	for _, t := range identTermStrings(s) {
		it.terms = append(it.terms, tk.id(t))
	}
	bm25.IdentTerms(s, func(t string) { it.plain = append(it.plain, tk.id(t)) })
	tk.idents[s] = it
	return it
}

// identTermStrings are the ranking terms of an identifier: its
// style-insensitive whole form ("findbyemail") when it has several parts,
// and its split, stemmed parts ("find", "email") without stop words.
func identTermStrings(s string) []string {
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
		for _, id := range tk.ident([]byte(comp)).terms {
			if t := tk.vocab[id]; w > out[t] {
				out[t] = w
			}
		}
	}
	return out
}

func (tk *tokenizer) addFile(id int32, w float32) {
	if tk.fileCount[id] == 0 {
		tk.fileSeen = append(tk.fileSeen, id)
	}
	tk.fileCount[id] += w
}

func (tk *tokenizer) addPlain(id int32, w float32) {
	if tk.plainCount[id] == 0 {
		tk.plainSeen = append(tk.plainSeen, id)
	}
	tk.plainCount[id] += w
}

// maxIndexedFileSize caps the bytes of a file that are tokenised; the rest
// of a huge file adds nothing a query could use that its head lacks.
const maxIndexedFileSize = 1 << 20

// file tokenises one file: its path, its symbols' names and containers,
// and every identifier of its text, counted for the whole file, the
// baseline's document and the innermost symbol document covering its line.
// The result holds the counts unordered (fileTokens.raw) until finish.
func (tk *tokenizer) file(facts *analyze.Facts, fid analyze.FileID, src Source) *fileTokens {
	f := &facts.Files[fid]
	ft := &fileTokens{tk: tk}
	bm25.Terms([]byte(f.Path), func(t string) {
		tk.addPlain(tk.id(t), bm25.PathWeight)
		ft.plen += bm25.PathWeight
	})
	paths := tk.pathTerms(f.Path)
	for t := range paths {
		tk.addFile(tk.id(t), pathRepeat)
		ft.flen += pathRepeat
	}
	syms := facts.SymbolsIn(fid)
	slen := make([]float32, len(syms)) // by position in syms
	first := analyze.SymID(0)
	if len(syms) > 0 {
		first = syms[0] // SymbolsIn's IDs are consecutive
	}
	addSym := func(s analyze.SymID, id int32, w float32) {
		if s != tk.runSym {
			tk.endRun()
			tk.runSym = s
		}
		if tk.runCount[id] == 0 {
			tk.runSeen = append(tk.runSeen, id)
		}
		tk.runCount[id] += w
		slen[s-first] += w
	}
	for _, s := range syms {
		sym := &facts.Symbols[s]
		if !ownsDoc(sym.Kind) {
			continue
		}
		for _, id := range tk.ident([]byte(sym.Name)).terms {
			addSym(s, id, weightName)
		}
		if sym.Container != "" {
			for _, id := range tk.ident([]byte(sym.Container)).terms {
				addSym(s, id, weightContainer)
			}
		}
	}
	if content, err := src.Content(fid); err == nil && len(content) > 0 {
		if len(content) > maxIndexedFileSize {
			content = content[:maxIndexedFileSize]
		}
		owner := lineOwners(facts, syms, bytesCount(content)+1)
		line, start := 0, 0
		for i := 0; i <= len(content); i++ {
			if i < len(content) && content[i] != '\n' {
				continue
			}
			o := analyze.NoSym
			if line < len(owner) {
				o = owner[line]
			}
			analyze.Identifiers(content[start:i], func(tok []byte) {
				it := tk.ident(tok)
				for _, id := range it.plain {
					tk.addPlain(id, 1)
				}
				ft.plen += float32(len(it.plain))
				for _, id := range it.terms {
					tk.addFile(id, 1)
					if o != analyze.NoSym {
						addSym(o, id, weightBody)
					}
				}
				ft.flen += float32(len(it.terms))
			})
			line++
			start = i + 1
		}
	}
	tk.endRun()
	ft.raw = &rawTokens{paths: paths, file: tk.take(&tk.fileSeen, tk.fileCount), plain: tk.take(&tk.plainSeen, tk.plainCount),
		syms: slices.Clone(tk.entries), slen: slen, first: first}
	tk.entries = tk.entries[:0]
	return ft
}

// rawTokens are a file's counts before finish orders them.
type rawTokens struct {
	paths       map[string]float32
	file, plain []termWeight // term ids and weights; term strings not set
	syms        []symEntry
	slen        []float32 // by position among the file's symbols
	first       analyze.SymID
}

// take returns the counts of the terms seen and resets them.
func (tk *tokenizer) take(seen *[]int32, count []float32) []termWeight {
	out := make([]termWeight, len(*seen))
	for i, id := range *seen {
		out[i] = termWeight{w: count[id], id: id}
		count[id] = 0
	}
	*seen = (*seen)[:0]
	return out
}

// endRun turns the counts of the current run of a symbol's document into
// entries.
func (tk *tokenizer) endRun() {
	for _, id := range tk.runSeen {
		tk.entries = append(tk.entries, symEntry{sym: tk.runSym, term: id, w: tk.runCount[id]})
		tk.runCount[id] = 0
	}
	tk.runSeen = tk.runSeen[:0]
	tk.runSym = analyze.NoSym
}

// sortVocab ranks the vocabulary in string order, for finish.
func (tk *tokenizer) sortVocab() {
	ids := make([]int32, len(tk.vocab))
	for i := range ids {
		ids[i] = int32(i)
	}
	slices.SortFunc(ids, func(a, b int32) int { return strings.Compare(tk.vocab[a], tk.vocab[b]) })
	tk.rank = make([]int32, len(tk.vocab))
	for r, id := range ids {
		tk.rank[id] = int32(r)
	}
}

// finish puts a file's counts in merge order (orderedTokens): terms
// sorted, symbols ascending. sortVocab must have run after the file was
// tokenised.
func (tk *tokenizer) finish(ft *fileTokens) {
	raw := ft.raw
	if raw == nil {
		return
	}
	ft.raw = nil
	o := &orderedTokens{}
	ft.ord = o
	for _, t := range sortedKeys(raw.paths) {
		o.path = append(o.path, termWeight{t, raw.paths[t], tk.vocabID[t]})
	}
	o.file = tk.sorted(raw.file)
	o.plain = tk.sorted(raw.plain)
	if len(raw.syms) == 0 {
		return
	}
	for i := range raw.syms {
		e := &raw.syms[i]
		e.key = uint64(e.sym-raw.first)<<32 | uint64(tk.rank[e.term])
	}
	slices.SortFunc(raw.syms, func(a, b symEntry) int { return cmp.Compare(a.key, b.key) })
	terms := make([]termWeight, 0, len(raw.syms))
	for i := 0; i < len(raw.syms); {
		s, start := raw.syms[i].sym, len(terms)
		for ; i < len(raw.syms) && raw.syms[i].sym == s; i++ {
			e := raw.syms[i]
			if n := len(terms); n > start && terms[n-1].id == e.term {
				terms[n-1].w += e.w // the same term in another run
				continue
			}
			terms = append(terms, termWeight{tk.vocab[e.term], e.w, e.term})
		}
		o.syms = append(o.syms, symTerms{sym: s, slen: raw.slen[s-raw.first], terms: terms[start:len(terms):len(terms)]})
	}
}

// sorted orders counted terms by their rank and fills in their text.
func (tk *tokenizer) sorted(tws []termWeight) []termWeight {
	rank := tk.rank
	slices.SortFunc(tws, func(a, b termWeight) int { return int(rank[a.id]) - int(rank[b.id]) })
	for i := range tws {
		tws[i].term = tk.vocab[tws[i].id]
	}
	return tws
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
