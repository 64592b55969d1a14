package resolve

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/sourcegraph/conc"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Resolution of references, and of the tests named after items, in
// parallel.
//
// Every file's references are resolved independently of the others once
// the module tree, the use declarations and the member tables are built:
// they only read those tables. What they would write is kept apart:
//
//   - memos filled on demand (a module-level use declaration's resolution,
//     what a type alias stands for) are filled beforehand by freeze, on
//     one goroutine in a fixed order, and only read afterwards;
//   - the guard against glob-import cycles (active), the memo of extern
//     crate names and that of test scopes belong to each worker (they give
//     the same answer whichever worker asks);
//   - each file's edges go into its own buffer and its imports into its own
//     map; the buffers are appended to the facts in file order.
//
// So a worker count of 1 and of 64 give the same facts, edge for edge and
// in the same order.

// freeze fills, in file and symbol order, every memo that resolving
// references would otherwise fill on demand, so that the workers only read
// shared state.
func (r *resolver) freeze() {
	for _, u := range r.useRefs {
		r.resolveUse(u)
	}
	for s := range r.facts.Symbols {
		if r.facts.Symbols[s].Kind == analyze.KindTypeAlias {
			r.typeTargets(analyze.SymID(s), 0)
		}
	}
}

// worker returns a copy of r for one goroutine of the reference phase: the
// shared tables are read through it; its cycle guard, extern crate and
// test scope memos and edge buffer are its own.
func (r *resolver) worker() *resolver {
	w := *r
	w.active = map[lookupKey]bool{}
	w.externMemo = map[externKey]*crateInfo{}
	w.testScopes = map[*module]map[string][]analyze.SymID{}
	w.sink = nil
	return &w
}

// addEdge buffers an edge found while resolving a file's references.
func (r *resolver) addEdge(e analyze.Edge) {
	r.sink = append(r.sink, e)
}

// references resolves every file's references into edges on up to
// r.workers goroutines, checking ctx between files. It reports whether it
// finished; when it did not, the edges of the files done are kept.
func (r *resolver) references(ctx context.Context) bool {
	r.freeze()
	r.imports = make([]map[string]int, len(r.files))
	return r.eachFile(ctx, func(w *resolver, fi int, fd *fileData) {
		w.fileReferences(fi, fd)
	})
}

// eachFile calls fn for every file that has a module, on up to r.workers
// goroutines, each with its own worker copy of r (see worker), checking
// ctx between files. The edges fn adds (addEdge) are appended to the facts
// in file order once all are done. It reports whether every file was
// done; when not, the edges of the files done are kept.
func (r *resolver) eachFile(ctx context.Context, fn func(w *resolver, fi int, fd *fileData)) bool {
	edges := make([][]analyze.Edge, len(r.files))
	workers := min(max(1, r.workers), max(1, len(r.files)))
	var next atomic.Int64
	var stopped atomic.Bool
	var wg conc.WaitGroup // re-panics in Wait, where run recovers
	for range workers {
		w := r.worker()
		wg.Go(func() {
			for {
				fi := int(next.Add(1) - 1)
				if fi >= len(r.files) {
					return
				}
				if ctx.Err() != nil {
					stopped.Store(true)
					return
				}
				fd := r.files[fi]
				if fd.mod == nil {
					continue
				}
				w.sink = nil
				fn(w, fi, fd)
				edges[fi] = w.sink
			}
		})
	}
	wg.Wait()
	n := len(r.facts.Edges)
	for _, es := range edges {
		n += len(es)
	}
	r.facts.Edges = slices.Grow(r.facts.Edges, n-len(r.facts.Edges))
	for _, es := range edges {
		for _, e := range es {
			r.facts.AddEdge(e)
		}
	}
	return !stopped.Load()
}
