package resident

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// Options configures a Repo. Root and Configure are required; the
// zero value of every other field means its default.
type Options struct {
	// Root is the absolute path of the repository.
	Root string
	// Configure returns the load options for Root. It is called at start
	// and again whenever the ignore rules or the configuration change;
	// the Repo sets Resident itself.
	Configure func() (engine.LoadOptions, error)
	// CookieDir is a directory that only this process writes, for the
	// watcher's sync cookies (see the package doc); "" makes a temporary
	// one, removed by Close.
	CookieDir string
	// Settle is how long the tree must stay quiet after a change before
	// the change is applied in the background (DefaultSettle when 0;
	// negative: only when a query asks). A burst of writes keeps
	// postponing it, up to MaxSettle.
	Settle time.Duration
	// Poll compares the tree's metadata at every query instead of
	// watching it (the fallback when no watcher can be had).
	Poll bool
	// Logf receives what the Repo does: loads, fallbacks, failures.
	// Nil discards them.
	Logf func(format string, args ...any)

	// Open and Reopen load the repository; nil means engine.Open and
	// engine.Reopen (tests replace them).
	Open   func(ctx context.Context, root string, opt engine.LoadOptions) (*engine.Session, error)
	Reopen func(ctx context.Context, prev *engine.Session, opt engine.LoadOptions, ch engine.Changes) (*engine.Session, error)

	// NoPrime turns off the priming of each generation's files for
	// queries in idle time (prime.go).
	NoPrime bool

	// TokenMemoSize is how many token counts of whole texts the engine
	// keeps across queries and generations (figures.go); 0 means
	// tokenize.DefaultMemoSize, negative none.
	TokenMemoSize int
}

// Defaults of Options.
const (
	DefaultSettle = 50 * time.Millisecond
	MaxSettle     = time.Second
	// staleRetries is how many times a query runs again when a file it
	// read changed under it.
	staleRetries = 3
	// PersistAfter is how long the tree must stay quiet after an update
	// before the Repo stores the state in the on-disk index
	// (engine.Session.Persist), so that the command line and the next
	// server start warm.
	PersistAfter = 3 * time.Second
	// rootCheck is how often the root's existence is checked besides the
	// watcher's events (a rename of a parent sends none).
	rootCheck = time.Second
)

// Errors of a Repo that stopped.
var (
	ErrClosed   = errors.New("the resident index was closed")
	ErrRootGone = errors.New("the repository root was removed or renamed")
)

// ErrBusy says that an answer could not be made from one state of the
// files, through several fresh loads. A generation keeps the text of the
// files its load read (engine.LoadOptions.Resident), so saving a file
// again, however often, never causes it; what can is a file that changed
// or vanished between a full load (the first, or one after the rules
// changed) and the moment that load could read it, again at every
// attempt. Rather than answer from a state that no longer exists, the
// query fails; asking again succeeds.
var ErrBusy = errors.New("files kept changing while the answer was made; ask again once they are saved")

// Snapshot is one applied state of the repository.
type Snapshot struct {
	Session *engine.Session
	// Gen numbers the states, from 1 for the first load.
	Gen uint64
	// Took is how long loading this state took; At is when it was ready.
	Took time.Duration
	At   time.Time
}

// Repo keeps one repository loaded and current. Its methods are safe
// for concurrent use.
type Repo struct {
	opts    Options
	pend    *pending
	ctx     context.Context // the Repo's life: updates run under it
	cancel  context.CancelFunc
	tmpDir  string // CookieDir made by Start
	rootID  os.FileInfo
	started time.Time

	srcMu sync.Mutex
	src   source
	mode  string // "watch" or "poll"
	load  engine.LoadOptions

	headMu sync.Mutex
	head   string

	mu         sync.Mutex
	cur        *Snapshot
	applied    uint64 // recordings that cur reflects
	failed     uint64 // recordings that the last failed update covered
	failedAt   time.Time
	err        error
	retry      batch // what the failed update was to apply
	stopErr    error
	changed    chan struct{} // closed and replaced whenever the above change
	lastAccess time.Time

	figures // what status reports show (figures.go)

	queries     gate // queries under way, which priming waits for (prime.go)
	primeMu     sync.Mutex
	primeCancel context.CancelFunc // ends the priming under way
	primeTok    primeTokens        // the tokenizer of the last query

	kick    chan struct{}
	done    chan struct{}
	wg      sync.WaitGroup
	saves   sync.WaitGroup
	persist chan struct{} // signalled after each update
}

// Start loads Root in the background and watches it. Queries
// (Acquire, Query) wait for the load.
func Start(ctx context.Context, opts Options) (*Repo, error) {
	if opts.Root == "" || !filepath.IsAbs(opts.Root) {
		return nil, fmt.Errorf("resident: the root must be an absolute path, got %q", opts.Root)
	}
	if opts.Configure == nil {
		return nil, errors.New("resident: no Configure")
	}
	st, err := os.Stat(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("serving %s: %w", opts.Root, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("serving %s: not a directory", opts.Root)
	}
	if opts.Settle == 0 {
		opts.Settle = DefaultSettle
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if opts.Open == nil {
		opts.Open = engine.Open
	}
	if opts.Reopen == nil {
		opts.Reopen = engine.Reopen
	}
	e := &Repo{opts: opts, pend: newPending(), rootID: st, started: time.Now(),
		changed: make(chan struct{}), kick: make(chan struct{}, 1), done: make(chan struct{}), lastAccess: time.Now(),
		persist: make(chan struct{}, 1)}
	e.ctx, e.cancel = context.WithCancel(context.WithoutCancel(ctx))
	if opts.TokenMemoSize >= 0 {
		e.memo = tokenize.NewMemo(opts.TokenMemoSize)
	}
	// Priming starts with the default tokenizer (notePrimeTokens).
	e.primeTok.id, _ = engine.CounterName("", 0)
	if e.opts.CookieDir == "" {
		dir, err := os.MkdirTemp("", "ctxexpand-cookies-")
		if err != nil {
			return nil, fmt.Errorf("resident: a directory for sync cookies: %w", err)
		}
		e.tmpDir, e.opts.CookieDir = dir, dir
	}
	e.opts.CookieDir = filepath.Clean(e.opts.CookieDir)
	load, err := e.configure()
	if err != nil {
		e.cleanup()
		return nil, err
	}
	src, mode, err := e.newSource(ctx, load)
	if err != nil {
		e.cleanup()
		return nil, err
	}
	e.src, e.mode, e.load = src, mode, load
	e.head = headState(opts.Root)
	e.pend.add(batch{all: true}) // the first load
	e.wg.Add(4)
	go e.updater()
	go e.background()
	go e.watchRoot()
	go e.persister()
	return e, nil
}

// configure asks for the load options.
func (r *Repo) configure() (engine.LoadOptions, error) {
	load, err := r.opts.Configure()
	if err != nil {
		return load, err
	}
	load.Resident = true
	load.TokenMemo = r.memo
	return load, nil
}

// newSource watches the tree, or polls it when it cannot be watched.
func (r *Repo) newSource(ctx context.Context, load engine.LoadOptions) (source, string, error) {
	if !r.opts.Poll {
		w, err := newWatcher(r.opts.Root, r.opts.CookieDir, load.Ignore, r.pend, r.opts.Logf)
		if err == nil {
			return w, "watch", nil
		}
		r.opts.Logf("%v; comparing file metadata at every query instead", err)
	}
	p, err := newPoller(ctx, r.opts.Root, load.Ignore, r.pend)
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", r.opts.Root, err)
	}
	return p, "poll", nil
}

func (r *Repo) cleanup() {
	if r.tmpDir != "" {
		os.RemoveAll(r.tmpDir)
	}
}

// Acquire returns the current snapshot, after every change made to the
// tree before the call has been applied. When applying them fails, the
// failure is the answer; the next call tries again.
func (r *Repo) Acquire(ctx context.Context) (*Snapshot, error) {
	called := time.Now()
	r.srcMu.Lock()
	src := r.src
	r.srcMu.Unlock()
	if err := src.sync(ctx); err != nil {
		return nil, err
	}
	r.checkHead()
	want := r.pend.now()
	for {
		r.mu.Lock()
		r.lastAccess = time.Now()
		cur, applied, stopErr, ch := r.cur, r.applied, r.stopErr, r.changed
		failed, failedAt, err := r.failed, r.failedAt, r.err
		r.mu.Unlock()
		switch {
		case stopErr != nil:
			return nil, stopErr
		case cur != nil && applied >= want:
			return cur, nil
		case err != nil && failed >= want && failedAt.After(called):
			return nil, err
		}
		r.kickUpdate()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the repository to load: %w", ctx.Err())
		}
	}
}

// Use runs fn on the current snapshot (see Acquire). When the snapshot
// turns out to lack the text of a file fn read (engine.Session.Stale: it
// changed before the load could keep it), the change is applied and fn
// runs again, up to a few times, then Use fails with ErrBusy; fn must
// therefore have no effect besides its result. It
// returns the snapshot fn ran on, nil when it did not run or its result
// must not be used.
func (r *Repo) Use(ctx context.Context, fn func(*Snapshot) error) (*Snapshot, error) {
	for attempt := 0; ; attempt++ {
		snap, err := r.Acquire(ctx)
		if err != nil {
			return nil, err
		}
		err = fn(snap)
		p := snap.Session.Stale()
		if p == "" {
			return snap, err
		}
		r.pend.path(p) // the watcher reports it too; this makes sure
		if attempt == staleRetries || ctx.Err() != nil {
			r.opts.Logf("%s kept changing while answering; the query failed", p)
			return nil, fmt.Errorf("%s: %w", p, ErrBusy)
		}
	}
}

// Query answers req on the current snapshot (see Use).
func (r *Repo) Query(ctx context.Context, req engine.Request) (*engine.Output, *Snapshot, error) {
	return r.QueryChecked(ctx, req, nil)
}

// QueryChecked is Query with check run first on the snapshot, once the
// changes before the call are applied (a configuration change among
// them): its error, if any, is the answer.
func (r *Repo) QueryChecked(ctx context.Context, req engine.Request, check func() error) (*engine.Output, *Snapshot, error) {
	r.queries.enter()
	defer r.queries.leave()
	var out *engine.Output
	snap, err := r.Use(ctx, func(s *Snapshot) error {
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
		var err error
		out, err = s.Session.Query(ctx, req)
		return err
	})
	if err == nil {
		r.notePrimeTokens(req)
	}
	return out, snap, err
}

// LoadKey is the key of the load options in force
// (engine.LoadOptions.Key); it changes when the configuration does.
func (r *Repo) LoadKey() string {
	r.srcMu.Lock()
	defer r.srcMu.Unlock()
	return r.load.Key()
}

// Refresh makes the next query load everything again (for a client that
// knows better than the watcher).
func (r *Repo) Refresh() { r.pend.add(batch{all: true}) }

// checkHead records a move of HEAD.
func (r *Repo) checkHead() {
	h := headState(r.opts.Root)
	r.headMu.Lock()
	moved := h != r.head
	r.head = h
	r.headMu.Unlock()
	if moved {
		r.pend.add(batch{head: true})
	}
}

func (r *Repo) kickUpdate() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// updater applies the pending changes, one update at a time.
func (r *Repo) updater() {
	defer r.wg.Done()
	for {
		select {
		case <-r.kick:
		case <-r.ctx.Done():
			return
		}
		r.update()
	}
}

// background applies changes once the tree has been quiet for Settle.
func (r *Repo) background() {
	defer r.wg.Done()
	if r.opts.Settle < 0 {
		return
	}
	for {
		select {
		case <-r.pend.wake:
		case <-r.ctx.Done():
			return
		}
		deadline := time.Now().Add(MaxSettle)
		t := time.NewTimer(r.opts.Settle)
	quiet:
		for {
			select {
			case <-r.pend.wake:
				if time.Now().Before(deadline) {
					t.Reset(r.opts.Settle)
				}
			case <-t.C:
				break quiet
			case <-r.ctx.Done():
				t.Stop()
				return
			}
		}
		r.kickUpdate()
	}
}

// update applies what is pending. A panic in the loaders fails the
// update (and is logged with its stack) instead of ending the process.
func (r *Repo) update() {
	b, seq, noticed := r.pend.take()
	defer func() {
		if p := recover(); p != nil {
			r.opts.Logf("panic while loading %s: %v\n%s", r.opts.Root, p, debug.Stack())
			r.fail(b, seq, fmt.Errorf("internal error: %v. This is a bug in ctxexpand; please report it", p))
		}
	}()
	r.mu.Lock()
	b.add(r.retry)
	r.retry = batch{}
	cur := r.cur
	r.mu.Unlock()
	if cur != nil && b.empty() {
		r.publish(nil, seq)
		return
	}
	r.stopPriming() // the update takes the cores
	start := time.Now()
	if b.rules {
		if err := r.reconfigure(); err != nil {
			r.fail(b, seq, err)
			return
		}
	}
	r.srcMu.Lock()
	load := r.load
	r.srcMu.Unlock()
	var s *engine.Session
	var err error
	ch := b.changes()
	if cur == nil || b.rules {
		s, err = r.opts.Open(r.ctx, r.opts.Root, load)
	} else {
		s, err = r.opts.Reopen(r.ctx, cur.Session, load, ch)
	}
	if err != nil {
		r.fail(b, seq, err)
		return
	}
	// The session's writes to the on-disk index go on in the background;
	// Close waits for them.
	r.saves.Go(s.Close)
	gen := uint64(1)
	if cur != nil {
		gen = cur.Gen + 1
	}
	snap := &Snapshot{Session: s, Gen: gen, Took: time.Since(start), At: time.Now()}
	what := "loaded " + r.opts.Root
	if cur != nil {
		what = fmt.Sprintf("applied %s", describe(ch))
	}
	r.opts.Logf("generation %d: %s in %v (%s)", gen, what, snap.Took.Round(time.Millisecond), s.Facts.Summary())
	r.recordUpdate(cur, snap, b.rules, noticed) // before a query can see it
	r.publish(snap, seq)
	r.startPriming(snap)
	select {
	case r.persist <- struct{}{}:
	default:
	}
}

// persister stores the current state in the on-disk index once the tree
// has been quiet for PersistAfter since the last update.
func (r *Repo) persister() {
	defer r.wg.Done()
	for {
		select {
		case <-r.persist:
		case <-r.ctx.Done():
			return
		}
		t := time.NewTimer(PersistAfter)
	quiet:
		for {
			select {
			case <-r.persist:
				t.Reset(PersistAfter)
			case <-t.C:
				break quiet
			case <-r.ctx.Done():
				t.Stop()
				return
			}
		}
		r.persistNow(r.ctx)
	}
}

// persistNow stores the current snapshot's state, when no update waits.
func (r *Repo) persistNow(ctx context.Context) {
	r.mu.Lock()
	cur := r.cur
	r.mu.Unlock()
	if cur == nil {
		return
	}
	start := time.Now()
	cur.Session.Persist(ctx)
	r.opts.Logf("generation %d stored in the on-disk index in %v", cur.Gen, time.Since(start).Round(time.Millisecond))
}

func describe(ch engine.Changes) string {
	switch {
	case ch.All:
		return "a full comparison"
	case len(ch.Paths) == 1:
		return ch.Paths[0]
	case len(ch.Paths) > 1:
		return fmt.Sprintf("%d changed paths", len(ch.Paths))
	case ch.Head:
		return "a move of HEAD"
	}
	return "nothing"
}

// reconfigure reads the rules and configuration again and watches the
// tree under them.
func (r *Repo) reconfigure() error {
	load, err := r.configure()
	if err != nil {
		return err
	}
	src, mode, err := r.newSource(r.ctx, load)
	if err != nil {
		return err
	}
	r.srcMu.Lock()
	old := r.src
	r.src, r.mode, r.load = src, mode, load
	r.srcMu.Unlock()
	old.close()
	return nil
}

func (r *Repo) publish(snap *Snapshot, seq uint64) {
	r.mu.Lock()
	if snap != nil {
		r.cur = snap
	}
	r.applied = seq
	r.err = nil
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

func (r *Repo) fail(b batch, seq uint64, err error) {
	r.opts.Logf("updating %s failed: %v", r.opts.Root, err)
	r.mu.Lock()
	r.retry.add(b)
	r.failed, r.failedAt = seq, time.Now()
	r.err = fmt.Errorf("loading %s: %w", r.opts.Root, err)
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

// watchRoot stops the Repo when the root disappears.
func (r *Repo) watchRoot() {
	defer r.wg.Done()
	t := time.NewTicker(rootCheck)
	defer t.Stop()
	for {
		r.srcMu.Lock()
		gone := r.src.gone()
		r.srcMu.Unlock()
		select {
		case <-t.C:
		case <-gone:
		case <-r.ctx.Done():
			return
		}
		if st, err := os.Stat(r.opts.Root); err != nil || !os.SameFile(st, r.rootID) {
			r.opts.Logf("%s was removed or renamed; stopping", r.opts.Root)
			r.stop(ErrRootGone)
			return
		}
	}
}

// stop ends the Repo's work with err as the answer to every query.
func (r *Repo) stop(err error) {
	r.mu.Lock()
	if r.stopErr == nil {
		r.stopErr = err
		close(r.done)
		close(r.changed)
		r.changed = make(chan struct{})
	}
	r.mu.Unlock()
	r.cancel()
}

// Done is closed when the Repo stops: Close, or its root gone.
func (r *Repo) Done() <-chan struct{} { return r.done }

// Err says why the Repo stopped, nil while it runs.
func (r *Repo) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopErr
}

// Close stops the Repo and returns once its writes to the on-disk
// index are done, the current state stored among them.
func (r *Repo) Close() error {
	r.stop(ErrClosed)
	r.wg.Wait()
	if r.Err() == ErrClosed {
		r.persistNow(context.Background())
	}
	r.srcMu.Lock()
	r.src.close()
	r.srcMu.Unlock()
	r.saves.Wait()
	r.cleanup()
	return nil
}

// Status is what a Repo is doing, for status reports.
type Status struct {
	Root       string
	Mode       string // "watch" or "poll"
	Gen        uint64 // 0 before the first load
	Summary    string // of the current facts
	LoadTook   time.Duration
	LoadedAt   time.Time
	Started    time.Time
	LastAccess time.Time
	Err        string // the last failed update's error, if it still stands
	Figures
}

// Status reports the Repo's state.
func (r *Repo) Status() Status {
	r.srcMu.Lock()
	mode := r.mode
	r.srcMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	st := Status{Root: r.opts.Root, Mode: mode, Started: r.started, LastAccess: r.lastAccess}
	if r.cur != nil {
		st.Gen, st.Summary, st.LoadTook, st.LoadedAt = r.cur.Gen, r.cur.Session.Facts.Summary(), r.cur.Took, r.cur.At
	}
	if r.err != nil {
		st.Err = r.err.Error()
	}
	st.Figures = r.figures.report()
	return st
}

// Idle is how long ago a query last arrived (or the Repo started).
func (r *Repo) Idle() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return time.Since(r.lastAccess)
}
