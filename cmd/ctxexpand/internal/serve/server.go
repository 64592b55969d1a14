package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// Listener is a server's socket, held with the root's lock, before the
// server starts answering.
type Listener struct {
	Paths Paths
	ln    net.Listener
	lock  *lockFile
}

// Listen takes the root's lock and opens its socket under cacheDir. It
// returns ErrRunning when another server holds the lock.
func Listen(cacheDir, root string) (*Listener, error) {
	p := PathsFor(cacheDir, root)
	if err := ensurePrivateDir(p.Dir); err != nil {
		return nil, err
	}
	lock, err := acquireLock(p.Lock)
	if err != nil {
		return nil, err
	}
	// The lock is ours: a socket left here is a dead server's.
	if err := os.Remove(p.Socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		lock.release()
		return nil, fmt.Errorf("removing the old socket %s: %w", p.Socket, err)
	}
	ln, err := net.Listen("unix", p.Socket)
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("listening on %s: %w", p.Socket, err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(true)
	if err := os.Chmod(p.Socket, 0o600); err != nil {
		ln.Close()
		lock.release()
		return nil, fmt.Errorf("restricting %s: %w", p.Socket, err)
	}
	os.RemoveAll(p.Cookies)
	if err := os.Mkdir(p.Cookies, 0o700); err != nil {
		ln.Close()
		lock.release()
		return nil, fmt.Errorf("making %s: %w", p.Cookies, err)
	}
	return &Listener{Paths: p, ln: ln, lock: lock}, nil
}

// Close releases the socket and the lock of a listener that will not
// serve.
func (l *Listener) Close() {
	l.ln.Close()
	os.RemoveAll(l.Paths.Cookies)
	l.lock.release()
}

// Options configures Serve.
type Options struct {
	Root string
	// Program identifies this build (index.Store.ExecutableID); requests
	// from another build are answered with CodeMismatch.
	Program string
	// LoadKey returns the key of the load options in force (it changes
	// when the configuration does); requests with another key are
	// answered with CodeMismatch.
	LoadKey func() string
	// IdleTimeout stops the server when no query came for that long; 0
	// means never.
	IdleTimeout time.Duration
	// MaxQueries bounds the queries answered at once (default 4).
	MaxQueries int
	Logf       func(format string, args ...any)
	// Metrics, when set, is where the server answers Prometheus scrapes
	// of /metrics (ListenMetrics); the server closes it when it stops.
	Metrics net.Listener
}

// Why Serve returned.
var (
	ErrStopRequested = errors.New("stop requested")
	ErrIdle          = errors.New("idle timeout")
)

// ioTimeout bounds reading a request and writing a response.
const ioTimeout = 30 * time.Second

// server is one Serve.
type server struct {
	opts    Options
	eng     *resident.Repo
	ctx     context.Context
	sem     chan struct{}
	stopReq chan struct{}
	stopped sync.Once
	active  sync.WaitGroup
	lat     latencies // of the answered queries (serve --status)
	met     *metrics  // nil without Options.Metrics
}

// Serve answers requests with eng until ctx ends, a client asks it to
// stop, eng stops (its root gone) or the idle timeout passes; then it
// closes the listener and eng, waits for the answers in
// progress and returns why it stopped.
func (l *Listener) Serve(ctx context.Context, eng *resident.Repo, opts Options) error {
	if opts.MaxQueries <= 0 {
		opts.MaxQueries = 4
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{opts: opts, eng: eng, ctx: sctx, sem: make(chan struct{}, opts.MaxQueries), stopReq: make(chan struct{})}
	metricsDone := make(chan struct{})
	if opts.Metrics != nil {
		s.met = newMetrics(s)
		go func() {
			defer close(metricsDone)
			s.met.serve(sctx, opts.Metrics, opts.Logf)
		}()
	} else {
		close(metricsDone)
	}
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			c, err := l.ln.Accept()
			if err != nil {
				if !errors.Is(err, net.ErrClosed) {
					opts.Logf("accepting a connection: %v", err)
					time.Sleep(10 * time.Millisecond)
					continue
				}
				return
			}
			s.active.Add(1)
			go func() {
				defer s.active.Done()
				s.handle(c)
			}()
		}
	}()
	var why error
	idle := time.NewTicker(idleCheck(opts.IdleTimeout))
	defer idle.Stop()
wait:
	for {
		select {
		case <-ctx.Done():
			why = ctx.Err()
			break wait
		case <-s.stopReq:
			why = ErrStopRequested
			break wait
		case <-eng.Done():
			why = eng.Err()
			break wait
		case <-idle.C:
			if opts.IdleTimeout > 0 && eng.Idle() > opts.IdleTimeout && len(s.sem) == 0 {
				why = ErrIdle
				break wait
			}
		}
	}
	opts.Logf("stopping: %v", why)
	l.ln.Close() // removes the socket: new clients answer locally
	<-accepted
	cancel()
	<-metricsDone
	s.active.Wait()
	eng.Close()
	os.RemoveAll(l.Paths.Cookies)
	l.lock.release()
	return why
}

func idleCheck(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		return time.Hour
	}
	return min(max(timeout/8, 10*time.Millisecond), 10*time.Second)
}

// handle answers one connection.
func (s *server) handle(c net.Conn) {
	defer c.Close()
	start := time.Now()
	resp := s.answer(c)
	resp.Version = Version
	resp.Took = time.Since(start)
	c.SetWriteDeadline(time.Now().Add(ioTimeout))
	if err := WriteFrame(c, resp); err != nil {
		s.opts.Logf("writing an answer: %v", err)
	}
}

func badRequest(format string, args ...any) *Response {
	return &Response{Code: CodeBadRequest, Error: fmt.Sprintf(format, args...)}
}

// answer reads the request on c and works out the response.
func (s *server) answer(c net.Conn) *Response {
	if err := checkPeer(c); err != nil {
		s.opts.Logf("refused a connection: %v", err)
		return badRequest("refused: %v", err)
	}
	c.SetReadDeadline(time.Now().Add(ioTimeout))
	body, err := ReadFrame(c, MaxRequest)
	if err != nil {
		return badRequest("reading the request: %v", err)
	}
	c.SetReadDeadline(time.Time{})
	req, err := DecodeRequest(body)
	if err != nil {
		return badRequest("%v", err)
	}
	if req.Version != Version {
		return &Response{Code: CodeMismatch, Error: fmt.Sprintf("this server speaks protocol version %d, not %d", Version, req.Version)}
	}
	switch req.Op {
	case OpStatus:
		return &Response{Status: s.status()}
	case OpStop:
		s.stopped.Do(func() { close(s.stopReq) })
		return &Response{}
	}
	if req.Root == "" || RootKey(req.Root) != RootKey(s.opts.Root) {
		return &Response{Code: CodeMismatch, Error: fmt.Sprintf("this server serves %s, not %s", s.opts.Root, req.Root)}
	}
	if req.Program != s.opts.Program {
		return &Response{Code: CodeMismatch, Error: "the server is another build of ctxexpand; stop it with ctxexpand serve --stop and start it again"}
	}
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-s.ctx.Done():
		return &Response{Code: CodeStopping, Error: "the server is stopping"}
	}
	start := time.Now()
	resp := s.query(c, req)
	if resp.Code == "" {
		took := time.Since(start)
		s.lat.Add(took)
		if s.met != nil {
			s.met.latency.Observe(took.Seconds())
		}
	}
	return resp
}

// query runs a query request: the client's engine request on the
// server's root.
func (s *server) query(c net.Conn, req *Request) *Response {
	q := *req.Query
	q.Root = s.opts.Root
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	// A client that hangs up (its own time limit) cancels the query.
	go func() {
		var b [1]byte
		c.Read(b[:])
		cancel()
	}()
	if req.Timeout > 0 {
		var c2 context.CancelFunc
		ctx, c2 = context.WithTimeout(ctx, req.Timeout)
		defer c2()
	}
	var key string
	out, snap, err := s.eng.QueryChecked(ctx, q, func() error {
		if s.opts.LoadKey != nil {
			key = s.opts.LoadKey()
		}
		if req.LoadKey != key {
			return errMismatchKey
		}
		return nil
	})
	switch {
	case errors.Is(err, errMismatchKey):
		return &Response{Code: CodeMismatch, Error: "the server was started with other options (configuration, --no-history); run with them or restart it"}
	case errors.Is(err, resident.ErrClosed) || errors.Is(err, resident.ErrRootGone) || (err != nil && s.ctx.Err() != nil):
		return &Response{Code: CodeStopping, Error: err.Error()}
	case err != nil:
		return &Response{Code: CodeFailed, Error: err.Error()}
	}
	return &Response{Gen: snap.Gen, Rendered: out.Render(req.FilesOnly, req.Explain)}
}

var errMismatchKey = errors.New("load options differ")

func (s *server) status() *Status {
	st := s.eng.Status()
	out := &Status{Root: st.Root, PID: os.Getpid(), Program: s.opts.Program, Mode: st.Mode, Gen: st.Gen, Summary: st.Summary,
		LoadTook: st.LoadTook, Started: st.Started, Idle: s.eng.Idle(), IdleTimeout: s.opts.IdleTimeout, RSSBytes: resident.RSS(), Error: st.Err}
	out.Queries, out.QueryP50, out.QueryP95, out.QueryP99 = s.lat.Percentiles()
	out.Figures = &st.Figures
	return out
}
