package pipeline

import (
	"context"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Time limits.
//
// --timeout bounds the analysis: the loaders stop where they are when ctx
// is done and return partial facts (Facts.Partial). What follows (the
// lexical index, expansion, ranking and the bundle) works on whatever
// facts there are, so that a time limit yields the best result found so
// far, marked partial, instead of nothing. These later stages are linear
// in the facts and run to completion once started.

// afterLoad is the context of the stages that follow loading: ctx while
// it is live, and ctx without its deadline once it has passed (late is
// then true).
func afterLoad(ctx context.Context) (_ context.Context, late bool) {
	if ctx.Err() == nil {
		return ctx, false
	}
	return context.WithoutCancel(ctx), true
}

// finishing is the context of a stage that must finish once started: ctx
// without its deadline. The deadline still stopped the load.
func finishing(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// timedOut is the facts of a load whose time ran out before any file was
// listed.
func timedOut(root string) *analyze.Facts {
	fs := &analyze.Facts{Root: root, Partial: true}
	fs.Problemf(analyze.ProblemLimit, "", 0, "the time limit passed before any file was analysed; raise --timeout")
	return fs
}
