package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
)

// Errors of a connection; check them with errors.Is.
var (
	// ErrClosed means the connection was closed or the server's output
	// ended; calls in flight fail with it.
	ErrClosed = errors.New("connection to the language server closed")
	// ErrTimeout means the server did not answer a request in time.
	ErrTimeout = errors.New("the language server did not answer in time")
)

// RPCError is an error response from the server.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// JSON-RPC and LSP error codes the client looks at.
const (
	codeMethodNotFound  = -32601
	codeContentModified = -32801
	codeRequestCanceled = -32800
)

// message is every JSON-RPC 2.0 message shape in one struct: a request has
// ID and Method, a notification Method only, a response ID and Result or
// Error.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// deadliner is a stream whose reads can be given a deadline (an *os.File
// pipe, a net.Conn).
type deadliner interface {
	SetReadDeadline(t time.Time) error
}

// handlerFunc answers a request from the server (workspace/configuration,
// window/workDoneProgress/create, …) or, with a nil result and error,
// takes a notification.
type handlerFunc func(method string, params json.RawMessage) (any, error)

// conn is a JSON-RPC 2.0 client over a framed byte stream. One goroutine
// reads messages and routes responses to the calls waiting for them; any
// number of goroutines may call concurrently. Every call has a deadline,
// and once a message has begun to arrive the rest of it must arrive within
// msgTimeout, so a server that stalls or dies never hangs a caller.
type conn struct {
	w          io.Writer
	r          *bufio.Reader
	rd         deadliner // nil when the stream has no deadlines
	handle     handlerFunc
	maxMessage int
	msgTimeout time.Duration

	wmu sync.Mutex

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan *message
	err     error // why the connection ended; set once
	done    chan struct{}
}

func newConn(r io.Reader, w io.Writer, handle handlerFunc) *conn {
	c := &conn{
		w:          w,
		r:          bufio.NewReaderSize(r, 64<<10),
		handle:     handle,
		maxMessage: DefaultMaxMessage,
		msgTimeout: 30 * time.Second,
		pending:    make(map[int64]chan *message),
		done:       make(chan struct{}),
	}
	if d, ok := r.(deadliner); ok {
		c.rd = d
	}
	return c
}

// run reads messages until the stream ends or breaks, then fails every
// pending call with the reason. It is the connection's only reader.
func (c *conn) run() {
	for {
		body, err := c.read()
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
				err = ErrClosed
			}
			c.fail(err)
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.fail(fmt.Errorf("%w: %v", ErrMalformed, err))
			return
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			go c.reply(&m) // the handler may block; never stall the reader
		case m.Method != "":
			if c.handle != nil {
				c.handle(m.Method, m.Params)
			}
		case len(m.ID) > 0:
			id, err := strconv.ParseInt(string(m.ID), 10, 64)
			if err != nil {
				continue // not one of ours: our IDs are integers
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- &m
			}
		default:
			c.fail(fmt.Errorf("%w: a message with neither method nor id", ErrMalformed))
			return
		}
	}
}

// read reads one message: it waits without limit for the first byte (the
// server may be idle; callers have their own deadlines) and then gives the
// rest of the message msgTimeout to arrive.
func (c *conn) read() ([]byte, error) {
	if c.rd != nil {
		c.rd.SetReadDeadline(time.Time{})
	}
	if _, err := c.r.Peek(1); err != nil {
		return nil, err
	}
	if c.rd != nil {
		c.rd.SetReadDeadline(time.Now().Add(c.msgTimeout))
	}
	body, err := readMessage(c.r, c.maxMessage)
	if err != nil && isTimeout(err) {
		return nil, fmt.Errorf("%w: a message stalled for %v half-way", ErrMalformed, c.msgTimeout)
	}
	return body, err
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// reply answers a request from the server.
func (c *conn) reply(m *message) {
	var result any
	var err error
	if c.handle != nil {
		result, err = c.handle(m.Method, m.Params)
	} else {
		err = &RPCError{Code: codeMethodNotFound, Message: "method not supported: " + m.Method}
	}
	resp := message{JSONRPC: "2.0", ID: m.ID}
	if err != nil {
		var re *RPCError
		if !errors.As(err, &re) {
			re = &RPCError{Code: -32603, Message: err.Error()}
		}
		resp.Error = re
	} else {
		raw, merr := json.Marshal(result)
		if merr != nil {
			raw = []byte("null")
		}
		resp.Result = raw
	}
	c.send(&resp)
}

// fail ends the connection with err, failing every pending call.
func (c *conn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	close(c.done)
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
}

// Err returns why the connection ended, or nil while it is open.
func (c *conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *conn) send(m *message) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if d, ok := c.w.(writeDeadliner); ok {
		// A server that stops reading must not block a writer for ever.
		d.SetWriteDeadline(time.Now().Add(c.msgTimeout))
	}
	if err := writeMessage(c.w, body); err != nil {
		if isTimeout(err) {
			err = fmt.Errorf("%w: the server stopped reading its input", ErrTimeout)
		}
		return err
	}
	return nil
}

type writeDeadliner interface {
	SetWriteDeadline(t time.Time) error
}

// Notify sends a notification.
func (c *conn) Notify(method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", method, err)
	}
	if err := c.Err(); err != nil {
		return err
	}
	return c.send(&message{JSONRPC: "2.0", Method: method, Params: raw})
}

// Call sends a request and decodes the result into result (which may be
// nil). It returns when the response arrives, ctx is done, timeout passes
// (0 means no timeout of its own) or the connection ends; on a timeout it
// asks the server to cancel the request.
func (c *conn) Call(ctx context.Context, method string, params, result any, timeout time.Duration) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", method, err)
	}
	ch := make(chan *message, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}

	// The write happens on its own goroutine so that a server that stops
	// reading its input cannot block the caller past its deadline.
	idRaw := json.RawMessage(strconv.FormatInt(id, 10))
	wrote := make(chan error, 1)
	go func() { wrote <- c.send(&message{JSONRPC: "2.0", ID: idRaw, Method: method, Params: raw}) }()

	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	for {
		select {
		case err := <-wrote:
			if err != nil {
				forget()
				if cerr := c.Err(); cerr != nil {
					return cerr
				}
				return fmt.Errorf("sending %s: %w", method, err)
			}
			wrote = nil
		case m, ok := <-ch:
			if !ok {
				return c.Err()
			}
			if m.Error != nil {
				return m.Error
			}
			if result == nil || len(m.Result) == 0 {
				return nil
			}
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("%w: decoding the %s result: %v", ErrMalformed, method, err)
			}
			return nil
		case <-timer:
			forget()
			go c.Notify("$/cancelRequest", map[string]int64{"id": id})
			return fmt.Errorf("%s: %w (%v)", method, ErrTimeout, timeout)
		case <-ctx.Done():
			forget()
			go c.Notify("$/cancelRequest", map[string]int64{"id": id})
			return ctx.Err()
		}
	}
}
