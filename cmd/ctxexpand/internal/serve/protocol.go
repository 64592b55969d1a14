package serve

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// The protocol.
//
// A client connects, writes one request frame and reads one response
// frame; the server then closes the connection. A frame is a 4-byte
// big-endian length followed by that many bytes of JSON. Requests are at
// most MaxRequest bytes; a larger length, a body that is not a Request,
// an unknown operation, or a query that engine.Request.Validate refuses
// gets a response with Code CodeBadRequest, never a crash or a hang
// (reads and writes have deadlines); another version gets CodeMismatch.

// Version is the protocol's version; a request of another is refused
// with CodeMismatch, and the client answers locally. Version 2 carries
// the engine's own request (engine.Request) instead of a copy of its
// fields.
const Version = 2

// Limits on frames.
const (
	MaxRequest  = 1 << 20
	MaxResponse = 512 << 20
)

// Operations.
const (
	OpQuery  = "query"
	OpStatus = "status"
	OpStop   = "stop"
)

// Response codes besides success ("").
const (
	// CodeMismatch: the server is another build of ctxexpand, speaks
	// another protocol version, or serves another root or other load
	// options; the client answers locally.
	CodeMismatch = "mismatch"
	// CodeBadRequest: the request could not be read or is invalid.
	CodeBadRequest = "bad_request"
	// CodeFailed: the query failed; Error says why.
	CodeFailed = "failed"
	// CodeStopping: the server is shutting down; the client answers
	// locally.
	CodeStopping = "stopping"
)

// Request is what a client asks.
type Request struct {
	Version int    `json:"v"`
	Op      string `json:"op"`
	// Root is the repository the client means; Program identifies the
	// client's build (index.Store.ExecutableID) and LoadKey the options
	// that change what is loaded. A server whose own differ answers
	// CodeMismatch.
	Root    string `json:"root"`
	Program string `json:"program,omitempty"`
	LoadKey string `json:"load_key,omitempty"`
	// Query is the engine request of an OpQuery, in its JSON form: the
	// server answers it on its own session, under its own spelling of
	// the root.
	Query *engine.Request `json:"query,omitempty"`
	// Timeout bounds the query on the server (0: none).
	Timeout time.Duration `json:"timeout,omitempty"`
	// What to render besides the notes: the file list instead of the
	// bundle, and the explanation (engine.Output.Render).
	FilesOnly bool `json:"files_only,omitempty"`
	Explain   bool `json:"explain,omitempty"`
}

// Response is the server's answer.
type Response struct {
	Version int    `json:"v"`
	Code    string `json:"code,omitempty"`
	Error   string `json:"error,omitempty"`
	// Gen is the generation of the index the answer came from.
	Gen uint64 `json:"gen,omitempty"`
	// Rendered is the answer byte for byte as the command would print
	// it: the bundle (or the file list with FilesOnly) and, for its
	// standard error, the notes and explanation.
	engine.Rendered
	// Took is the time the server spent on the request.
	Took   time.Duration `json:"took,omitempty"`
	Status *Status       `json:"status,omitempty"`
}

// Status describes a running server.
type Status struct {
	Root        string        `json:"root"`
	PID         int           `json:"pid"`
	Program     string        `json:"program"`
	Mode        string        `json:"mode"` // watch or poll
	Gen         uint64        `json:"gen"`
	Summary     string        `json:"summary,omitempty"`
	LoadTook    time.Duration `json:"load_took,omitempty"`
	Started     time.Time     `json:"started"`
	Idle        time.Duration `json:"idle"`
	IdleTimeout time.Duration `json:"idle_timeout"`
	RSSBytes    int64         `json:"rss_bytes,omitempty"`
	Error       string        `json:"error,omitempty"`
	// Queries is how many queries the server answered; QueryP50, P95
	// and P99 are percentiles of the time from the request read to the
	// answer made, over the last LatencyWindow.
	Queries  int64         `json:"queries,omitempty"`
	QueryP50 time.Duration `json:"query_p50,omitempty"`
	QueryP95 time.Duration `json:"query_p95,omitempty"`
	QueryP99 time.Duration `json:"query_p99,omitempty"`
	// Figures are the engine's measurements (resident.Figures, whose
	// JSON form is theirs).
	Figures *resident.Figures `json:"figures,omitempty"`
}

// Errors of reading frames.
var (
	ErrFrameTooLarge = errors.New("frame too large")
	ErrBadRequest    = errors.New("bad request")
)

// WriteFrame writes v as one frame.
func WriteFrame(w io.Writer, v any) error {
	body, err := marshalFrame(v)
	if err != nil {
		return err
	}
	buf := make([]byte, 4, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	_, err = w.Write(append(buf, body...))
	return err
}

// marshalFrame is the body of v's frame.
func marshalFrame(v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(body) > math.MaxUint32 {
		return nil, ErrFrameTooLarge
	}
	return body, nil
}

// ReadFrame reads one frame of at most max bytes.
func ReadFrame(r io.Reader, max int) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if uint64(n) > uint64(max) {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrFrameTooLarge, n, max)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("reading a frame of %d bytes: %w", n, err)
	}
	return body, nil
}

// DecodeRequest reads and checks a request body. The error says what is
// wrong, for the client to see.
func DecodeRequest(body []byte) (*Request, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req Request
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the request", ErrBadRequest)
	}
	if err := req.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	return &req, nil
}

// check validates what DecodeRequest cannot.
func (r *Request) check() error {
	if r.Version != Version {
		return nil // answered with CodeMismatch, not refused
	}
	switch r.Op {
	case OpStatus, OpStop:
	case OpQuery:
		if r.Query == nil {
			return errors.New("a query request without a query")
		}
		if r.Timeout < 0 {
			return fmt.Errorf("a negative timeout (%v)", r.Timeout)
		}
		return r.Query.Validate()
	case "":
		return errors.New("no operation")
	default:
		return fmt.Errorf("unknown operation %q", r.Op)
	}
	return nil
}
