package lsp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc/pool"
)

// Errors of the request budget; check them with errors.Is.
var (
	// ErrUnresponsive means the server stopped answering: several requests
	// in a row timed out.
	ErrUnresponsive = errors.New("the language server stopped answering")
	// errBudget means the request cap was reached; the request was not sent.
	errBudget = errors.New("request cap reached")
)

// requester sends the loader's requests to the server with the limits of
// Options: a cap on the number sent, a bound on those in flight, a timeout
// on each and a breaker that gives up on a server that has stopped
// answering or died. Once it has given up, every call fails at once with
// the same error.
type requester struct {
	srv     *server
	timeout time.Duration
	workers int

	left     atomic.Int64 // requests still allowed
	sent     atomic.Int64
	skipped  atomic.Int64 // cut off by the cap
	timeouts atomic.Int64
	inARow   atomic.Int32 // timeouts since the last answer

	mu       sync.Mutex
	fatal    error
	failures map[string]*tally // by method, requests answered with an error
	stats    map[string]*stat  // by method, for the log
}

// stat is the count and total latency of one kind of request.
type stat struct {
	n     int
	total time.Duration
	worst time.Duration
}

// tally counts the failures of one kind of request and keeps the first.
type tally struct {
	n     int
	first error
}

func newRequester(srv *server, opt *Options) *requester {
	r := &requester{srv: srv, timeout: opt.requestTimeout(), workers: opt.concurrency()}
	r.left.Store(int64(opt.maxRequests()))
	return r
}

// Err returns the error that made the requester give up, or nil.
func (r *requester) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fatal
}

func (r *requester) giveUp(err error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fatal == nil {
		r.fatal = err
	}
	return r.fatal
}

// call sends one request. Content-modified answers (the server is still
// indexing) are retried a few times. Errors that end the load (the
// connection is gone, the server stopped answering) also stop every later
// call.
func (r *requester) call(ctx context.Context, method string, params, result any) error {
	if err := r.Err(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.left.Add(-1) < 0 {
		r.skipped.Add(1)
		return errBudget
	}
	var err error
	began := time.Now()
	defer func() { r.record(method, time.Since(began)) }()
	for attempt := 0; attempt < 4; attempt++ {
		r.sent.Add(1)
		err = r.srv.call(ctx, method, params, result, r.timeout)
		var re *RPCError
		if errors.As(err, &re) && re.Code == codeContentModified {
			select {
			case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		break
	}
	switch {
	case err == nil:
		r.inARow.Store(0)
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, ErrTimeout):
		r.timeouts.Add(1)
		if limit := max(maxConsecutiveTimeout, 2*r.workers); int(r.inARow.Add(1)) >= limit {
			return r.giveUp(fmt.Errorf("%w: %d requests in a row got no answer within %v", ErrUnresponsive, limit, r.timeout))
		}
		return err
	case r.srv.conn.Err() != nil:
		return r.giveUp(err)
	}
	r.inARow.Store(0) // an error response is an answer
	return err
}

func (r *requester) record(method string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stats == nil {
		r.stats = make(map[string]*stat)
	}
	st := r.stats[method]
	if st == nil {
		st = &stat{}
		r.stats[method] = st
	}
	st.n++
	st.total += d
	st.worst = max(st.worst, d)
}

// summary lists the requests sent by method with their mean and worst
// latency, for the log.
func (r *requester) summary() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	methods := make([]string, 0, len(r.stats))
	for m := range r.stats {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	var b strings.Builder
	for i, m := range methods {
		st := r.stats[m]
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s ×%d (mean %v, worst %v)", strings.TrimPrefix(m, "textDocument/"), st.n,
			(st.total / time.Duration(st.n)).Round(time.Millisecond), st.worst.Round(time.Millisecond))
	}
	return b.String()
}

// failed records a request that failed without ending the load. Requests
// not sent (the cap, a cancelled context, a server already given up on)
// are accounted for elsewhere.
// It reports whether the failure was counted.
func (r *requester) failed(method string, err error) bool {
	if errors.Is(err, errBudget) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrTimeout) || r.Err() != nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failures == nil {
		r.failures = make(map[string]*tally)
	}
	t := r.failures[method]
	if t == nil {
		t = &tally{first: err}
		r.failures[method] = t
	}
	t.n++
	return true
}

// each runs fn for 0 ≤ i < n on the requester's workers and returns when
// all have returned. fn stores its result at index i of a slice the caller
// owns, so the caller merges in index order on one goroutine whatever the
// order of completion. Items not yet started when the requester gives up
// or ctx ends are skipped.
func (r *requester) each(ctx context.Context, n int, fn func(i int)) {
	p := pool.New().WithMaxGoroutines(r.workers)
	for i := 0; i < n; i++ {
		if ctx.Err() != nil || r.Err() != nil {
			break
		}
		p.Go(func() {
			if ctx.Err() != nil || r.Err() != nil {
				return
			}
			fn(i)
		})
	}
	p.Wait()
}
