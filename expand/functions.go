package expand

import (
	"math"
	"sort"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Function-level localization: which functions and methods of the ranked
// files the task is most likely about.
//
// A function's score is its file's score times its strength relative to
// the strongest function of the file, so that each file's best function
// carries the file's score and the others follow it in proportion. A
// function's strength is the best of its own evidence (a seed in it, the
// graph walk reaching it, a lexical hit on it: the file's Symbols) and
// half its share of the best symbol-level BM25F score of the repository;
// functions with neither keep a small floor, in file order, so that every
// function of a ranked file has a place.

// Function is a ranked function or method.
type Function struct {
	File  analyze.FileID
	Sym   analyze.SymID
	Score float64
}

// Functions of how many of the best files are ranked, and the strength
// of a function without evidence.
const (
	funcFiles     = 15
	funcFloor     = 0.02
	funcLexFactor = 0.5
)

// rankFunctions ranks the callables of the first funcFiles files.
func (e *Engine) rankFunctions(files []File, lex *rank.Lexical) []Function {
	var maxSym float64
	for _, v := range lex.Sym {
		maxSym = math.Max(maxSym, v)
	}
	var out []Function
	for i, f := range files {
		if i == funcFiles {
			break
		}
		evidence := map[analyze.SymID]float64{}
		for _, h := range f.Symbols {
			evidence[h.Sym] = math.Max(evidence[h.Sym], h.Score)
		}
		type cand struct {
			sym      analyze.SymID
			strength float64
		}
		var cs []cand
		var best float64
		for _, s := range e.Facts.SymbolsIn(f.File) {
			sym := &e.Facts.Symbols[s]
			if !sym.Kind.IsCallable() {
				continue
			}
			st := evidence[s]
			if maxSym > 0 {
				st = math.Max(st, funcLexFactor*lex.Sym[s]/maxSym)
			}
			st = math.Max(st, funcFloor)
			cs = append(cs, cand{s, st})
			best = math.Max(best, st)
		}
		for _, c := range cs {
			out = append(out, Function{File: f.File, Sym: c.sym, Score: f.Score * c.strength / best})
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		return false // files in rank order, functions in file order
	})
	return out
}
