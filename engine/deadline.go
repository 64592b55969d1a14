package engine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/rank"
)

// A run's context may carry a time limit (--timeout, the MCP server's
// per-call limit) or be cancelled (an interrupt). Loading is the long,
// open-ended stage; indexing, expansion and the bundle are bounded by what
// was loaded. So that a limited run always writes a bundle, marked partial,
// instead of failing:
//
//   - loading stops early enough to leave a share of the time left to the
//     stages after it (loadContext);
//   - those stages run on a context that outlives the run's by a short
//     grace period (finishContext), and when even that ends, each falls
//     back to the cheapest form of its work that needs no context: an
//     index of names without file contents, a one-step expansion, a bundle
//     assembled without cancellation.
//
// The worst case is the limit plus the grace period plus that bounded
// fallback work.
const (
	// reserveShare: loading may use all but 1/reserveShare of the time
	// left, within [minReserve, maxReserve].
	reserveShare = 5
	minReserve   = 100 * time.Millisecond
	maxReserve   = 5 * time.Second
	// finishGrace is how long the stages after loading may run on once
	// the run's context has ended.
	finishGrace = time.Second
)

// loadContext returns the context loading runs under: ctx, ending early
// enough to leave the stages after loading a share of ctx's time limit.
func loadContext(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	reserve := min(max(time.Until(dl)/reserveShare, minReserve), maxReserve)
	return context.WithDeadline(ctx, dl.Add(-reserve))
}

// finishContext returns the context the stages after loading run under:
// it carries ctx's values, and ends finishGrace after ctx ends (at once
// when ctx never ends).
func finishContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Done() == nil {
		return ctx, func() {}
	}
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var mu sync.Mutex
	var timer *time.Timer
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		timer = time.AfterFunc(finishGrace, cancel)
		mu.Unlock()
	})
	return fctx, func() {
		stop()
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel()
	}
}

// noContent is a rank.Source that has no file contents: the lexical index
// then holds paths and symbol names only.
type noContent struct{}

func (noContent) Content(analyze.FileID) ([]byte, error) {
	return nil, errors.New("not read: the time limit passed")
}

var _ rank.Source = noContent{}

// newEngine indexes the facts under ctx; when the time limit ends that, it
// indexes names and paths only, which needs no file reads, and says so in
// the facts' problems.
func newEngine(ctx context.Context, facts *analyze.Facts, src rank.Source) (*expand.Engine, error) {
	fctx, cancel := finishContext(ctx)
	defer cancel()
	eng, err := expand.NewEngine(fctx, facts, src)
	if err == nil || fctx.Err() == nil {
		return eng, err
	}
	facts.Partial = true
	facts.Problemf(analyze.ProblemLimit, "", 0, "the time limit passed while indexing file contents; ranking uses names, paths and the graph only")
	return expand.NewEngine(context.WithoutCancel(ctx), facts, noContent{})
}

// stoppedEarly is the facts of a load that the time limit stopped before
// a single file was listed.
func stoppedEarly(root string, probs []analyze.Problem) *analyze.Facts {
	facts := &analyze.Facts{Root: root, Partial: true, Problems: probs}
	facts.Problemf(analyze.ProblemLimit, "", 0, "the time limit passed before any file was read; nothing was analysed")
	facts.Normalize()
	return facts
}
