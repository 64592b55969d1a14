package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"syscall"
	"time"
)

// ErrNoServer says no server answers for the root.
var ErrNoServer = errors.New("no server is running for this repository")

// dialTimeout bounds connecting: a server that exists accepts at once.
const dialTimeout = time.Second

// Call sends req to the server at socket and returns its response. It
// returns ErrNoServer when nothing listens there (no socket, or the
// socket of a server that died).
func Call(ctx context.Context, socket string, req *Request) (*Response, error) {
	d := net.Dialer{Timeout: dialTimeout}
	c, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) {
			return nil, ErrNoServer
		}
		return nil, fmt.Errorf("connecting to the server: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	req.Version = Version
	// A server that refuses the request (another user's, say) answers
	// before reading it and hangs up: a failed write may still be
	// followed by an answer to read.
	werr := WriteFrame(c, req)
	body, err := ReadFrame(c, MaxResponse)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if werr != nil {
			return nil, fmt.Errorf("sending the request: %w", werr)
		}
		return nil, fmt.Errorf("reading the server's answer: %w", err)
	}
	resp, err := DecodeResponse(body)
	if err != nil {
		return nil, fmt.Errorf("reading the server's answer: %w", err)
	}
	return resp, nil
}

// DecodeResponse reads a response body: exactly one JSON value.
func DecodeResponse(body []byte) (*Response, error) {
	var resp Response
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&resp); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, ErrBadRequest
	}
	return &resp, nil
}
