package factcodec

import (
	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// WriteProblems appends problems to a record, for the loaders' records
// that carry some (the Go loader's partial results, go list's kept
// answers); ReadProblems reads them back.
func WriteProblems(w *wire.Writer, probs []analyze.Problem) {
	w.Uint(uint64(len(probs)))
	for _, p := range probs {
		w.Uint(uint64(p.Kind))
		w.String(p.Path)
		w.Int(int64(p.Line))
		w.String(p.Msg)
	}
}

// ReadProblems reads what WriteProblems wrote; a damaged list ends early,
// with the reader's error set.
func ReadProblems(r *wire.Reader) []analyze.Problem {
	var probs []analyze.Problem
	n := r.Len(4)
	for i := 0; i < n && r.Err() == nil; i++ {
		probs = append(probs, analyze.Problem{Kind: analyze.ProblemKind(r.Uint()), Path: r.String(), Line: int(r.Int()), Msg: r.String()})
	}
	return probs
}
