package rank

import (
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Merging the files' statistics into the index.
//
// Term ids are handed out in order of first appearance, files in order
// and within a file its whole-file terms, path terms, baseline terms and
// symbol documents in turn, so that they are the same whatever the
// workers did. That pass is sequential but cheap: a term's id is looked
// up by its tokenizer's vocabulary id, a string is hashed only the first
// time a worker's term meets the merge. The posting lists are then filled
// one kind per goroutine, each sized before it is filled.

// merge adds every file's statistics to ix, whose term table is empty.
func merge(ix *Index, per []*fileTokens) {
	facts := ix.facts
	intern := func(t string) int32 {
		id, ok := ix.terms[t]
		if !ok {
			id = int32(len(ix.terms))
			ix.terms[t] = id
		}
		return id
	}
	// atomID maps a memo's atoms to the index's term ids (-1: not met
	// yet), for statistics whose ids are atoms (fileTokens.atoms).
	var atomID []int32
	// global sets tws' ids to the index's term ids, or for atoms records
	// the ids in atomID.
	global := func(ft *fileTokens, tws []termWeight) {
		if ft.atoms {
			for i := range tws {
				a := tws[i].id
				for int(a) >= len(atomID) {
					atomID = append(atomID, -1)
				}
				if atomID[a] < 0 {
					atomID[a] = intern(tws[i].term)
				}
			}
			return
		}
		tk := ft.tk
		for i := range tws {
			tw := &tws[i]
			if tk == nil || tw.id < 0 {
				tw.id = intern(tw.term)
				continue
			}
			if tk.global == nil {
				tk.global = make([]int32, len(tk.vocab))
				for i := range tk.global {
					tk.global[i] = -1
				}
			}
			id := tk.global[tw.id]
			if id < 0 {
				id = intern(tw.term)
				tk.global[tw.id] = id
			}
			tw.id = id
		}
	}
	ix.plainLen = make([]float32, len(facts.Files))
	plain := make([]bool, len(per)) // whether the file is in the baseline's index
	var plainTotal, symTotal, fileTotal float64
	for fi, ft := range per {
		if ft == nil {
			continue
		}
		o := ft.ord
		global(ft, o.file)
		global(ft, o.path)
		ix.fileLen[fi] = ft.flen
		fileTotal += float64(ft.flen)
		ix.nFileDocs++
		if facts.Files[fi].Category == analyze.CatSource && ft.plen > 0 {
			plain[fi] = true
			global(ft, o.plain)
			ix.plainLen[fi] = ft.plen
			plainTotal += float64(ft.plen)
			ix.nPlainDocs++
		}
		for _, st := range o.syms {
			global(ft, st.terms)
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

	nterms := len(ix.terms)
	var wg sync.WaitGroup
	wg.Go(func() {
		ix.filePost = postings(nterms, per, atomID, func(fi int, o *orderedTokens, add func(int32, []termWeight)) { add(int32(fi), o.file) })
	})
	wg.Go(func() {
		ix.pathPost = postings(nterms, per, atomID, func(fi int, o *orderedTokens, add func(int32, []termWeight)) { add(int32(fi), o.path) })
	})
	wg.Go(func() {
		ix.plainPost = postings(nterms, per, atomID, func(fi int, o *orderedTokens, add func(int32, []termWeight)) {
			if plain[fi] {
				add(int32(fi), o.plain)
			}
		})
	})
	ix.symPost = postings(nterms, per, atomID, func(_ int, o *orderedTokens, add func(int32, []termWeight)) {
		for _, st := range o.syms {
			add(int32(st.sym), st.terms)
		}
	})
	wg.Wait()
}

// postings builds one kind of posting lists: each file's documents, in
// file order, as lists calls add for them (document, its terms with the
// index's term ids).
func postings(nterms int, per []*fileTokens, atomID []int32, lists func(fi int, o *orderedTokens, add func(doc int32, tws []termWeight))) [][]posting {
	// A term's id in the index is its own, or its atom's (ft.atoms).
	count := make([]int32, nterms)
	total := 0
	for fi, ft := range per {
		if ft != nil {
			atoms := ft.atoms
			lists(fi, ft.ord, func(_ int32, tws []termWeight) {
				if atoms {
					for _, tw := range tws {
						count[atomID[tw.id]]++
					}
				} else {
					for _, tw := range tws {
						count[tw.id]++
					}
				}
				total += len(tws)
			})
		}
	}
	all := make([]posting, total)
	out := make([][]posting, nterms)
	at := 0
	for id, n := range count {
		if n > 0 {
			out[id] = all[at : at : at+int(n)]
			at += int(n)
		}
	}
	for fi, ft := range per {
		if ft != nil {
			atoms := ft.atoms
			lists(fi, ft.ord, func(doc int32, tws []termWeight) {
				for _, tw := range tws {
					t := tw.id
					if atoms {
						t = atomID[t]
					}
					out[t] = append(out[t], posting{doc, tw.w})
				}
			})
		}
	}
	return out
}
