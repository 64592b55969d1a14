package resident

import (
	"context"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/engine"
)

// Priming. A query's first sight of a file costs more than its second:
// the bundle counts the file's text, its skeleton and their escaped
// forms, and parses it for the skeleton. About two fifths of a
// first-time query's CPU on hugo went there (BenchmarkResidentQuery).
// Once a generation is ready, the Repo prepares its files in the
// background (engine.Session.Prime), in batches, and only while no query
// runs and no update is under way: every query after that finds those
// counts and skeletons in the process's caches. The caches are keyed by
// content, so the next generation's priming finds the files an edit
// left alone and makes only the changed ones.

// gate counts the queries under way, and lets priming wait until none is.
type gate struct {
	mu    sync.Mutex
	n     int
	quiet chan struct{} // closed when n falls to 0
}

func (g *gate) enter() {
	g.mu.Lock()
	if g.n == 0 {
		g.quiet = make(chan struct{})
	}
	g.n++
	g.mu.Unlock()
}

func (g *gate) leave() {
	g.mu.Lock()
	if g.n--; g.n == 0 {
		close(g.quiet)
	}
	g.mu.Unlock()
}

// wait returns once no query is under way, or with ctx's error.
func (g *gate) wait(ctx context.Context) error {
	for {
		g.mu.Lock()
		n, q := g.n, g.quiet
		g.mu.Unlock()
		if n == 0 {
			return ctx.Err()
		}
		select {
		case <-q:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// primeTokens is the tokenizer priming counts with: the last query's.
type primeTokens struct {
	name   string
	margin float64
	id     string // engine.CounterName of the two: one for every spelling
}

// startPriming primes snap's files, ending the priming of any earlier
// generation first. An update ends it too (stopPriming), so that priming
// never takes a core from an edit on its way to an answer.
func (r *Repo) startPriming(snap *Snapshot) {
	if r.opts.NoPrime {
		return
	}
	// Under mu, as stop sets stopErr: no goroutine is added once Close
	// waits for them.
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopErr != nil {
		return
	}
	ctx, cancel := context.WithCancel(r.ctx)
	r.primeMu.Lock()
	if r.primeCancel != nil {
		r.primeCancel()
	}
	r.primeCancel = cancel
	tok := r.primeTok
	r.primeMu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer cancel()
		start := time.Now()
		n, err := snap.Session.Prime(ctx, engine.PrimeOptions{Tokenizer: tok.name, TokenMargin: tok.margin,
			Workers: 1, Pause: r.queries.wait})
		if err == nil {
			took := time.Since(start)
			r.figMu.Lock()
			r.primeFig.files, r.primeFig.gen, r.primeFig.took = n, snap.Gen, took
			r.figMu.Unlock()
			r.opts.Logf("generation %d: primed %d files for queries in %v", snap.Gen, n, took.Round(time.Millisecond))
		} else if ctx.Err() == nil {
			r.opts.Logf("generation %d: priming stopped after %d files: %v", snap.Gen, n, err)
		}
	}()
}

// stopPriming ends the priming under way, if any.
func (r *Repo) stopPriming() {
	r.primeMu.Lock()
	if r.primeCancel != nil {
		r.primeCancel()
		r.primeCancel = nil
	}
	r.primeMu.Unlock()
}

// notePrimeTokens records a query's tokenizer; a different one than
// priming used primes the current generation again with it.
func (r *Repo) notePrimeTokens(req engine.Request) {
	r.primeMu.Lock()
	asked := req.Tokenizer == r.primeTok.name && req.TokenMargin == r.primeTok.margin
	r.primeMu.Unlock()
	if asked {
		return // the usual case: the same spelling as the last query's
	}
	id, err := engine.CounterName(req.Tokenizer, req.TokenMargin)
	if err != nil {
		return
	}
	r.primeMu.Lock()
	same := id == r.primeTok.id
	r.primeTok = primeTokens{name: req.Tokenizer, margin: req.TokenMargin, id: id}
	r.primeMu.Unlock()
	if same {
		return
	}
	r.mu.Lock()
	cur := r.cur
	r.mu.Unlock()
	if cur != nil {
		r.startPriming(cur)
	}
}
