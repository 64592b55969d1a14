package lsp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The base protocol frames every JSON-RPC message with HTTP-like headers:
//
//	Content-Length: 52\r\n
//	\r\n
//	{"jsonrpc":"2.0","id":1,"method":"initialize",...}
//
// Content-Type is optional and ignored. A server that writes anything else
// to its standard output (a log line, a panic trace) breaks the stream; the
// reader reports that as ErrMalformed instead of guessing where the next
// message starts.

// Errors of the message stream; check them with errors.Is.
var (
	// ErrMalformed means the server wrote something that is not a framed
	// JSON-RPC message.
	ErrMalformed = errors.New("malformed message from the language server")
	// ErrTooLarge means a message announced a body over the size limit.
	ErrTooLarge = errors.New("message from the language server too large")
)

const (
	// DefaultMaxMessage caps the body of one message. References to a
	// popular symbol in a large workspace run to a few megabytes.
	DefaultMaxMessage = 64 << 20
	maxHeaderLines    = 32
)

// readMessage reads one framed message body from r. Header lines longer
// than r's buffer, a missing or invalid Content-Length, a body over max
// bytes and a stream that ends inside a message are errors; io.EOF is
// returned only when the stream ends cleanly between messages.
func readMessage(r *bufio.Reader, max int) ([]byte, error) {
	length := -1
	blank := 0
	for n := 0; ; n++ {
		line, err := r.ReadSlice('\n')
		if err != nil {
			switch {
			case errors.Is(err, bufio.ErrBufferFull):
				return nil, fmt.Errorf("%w: header line longer than %d bytes", ErrMalformed, r.Size())
			case err == io.EOF && n == 0 && len(line) == 0:
				return nil, io.EOF
			case err == io.EOF:
				return nil, fmt.Errorf("%w: stream ended inside a header", ErrMalformed)
			}
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if n == 0 && blank < maxHeaderLines {
				// Tolerate a few blank lines between messages.
				blank++
				n = -1
				continue
			}
			if n == 0 {
				return nil, fmt.Errorf("%w: blank lines instead of headers", ErrMalformed)
			}
			break
		}
		if n >= maxHeaderLines {
			return nil, fmt.Errorf("%w: more than %d header lines", ErrMalformed, maxHeaderLines)
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return nil, fmt.Errorf("%w: header line %q has no colon", ErrMalformed, clip(line))
		}
		if !bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			continue
		}
		v, err := strconv.Atoi(string(bytes.TrimSpace(value)))
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%w: invalid Content-Length %q", ErrMalformed, clip(value))
		}
		length = v
	}
	if length < 0 {
		return nil, fmt.Errorf("%w: no Content-Length header", ErrMalformed)
	}
	if length > max {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, length, max)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
			return nil, fmt.Errorf("%w: stream ended inside a %d-byte body", ErrMalformed, length)
		}
		return nil, err
	}
	return body, nil
}

// writeMessage writes body with its header in a single Write, so that
// concurrent writers serialised by a mutex never interleave.
func writeMessage(w io.Writer, body []byte) error {
	buf := make([]byte, 0, len(body)+32)
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(body)), 10)
	buf = append(buf, "\r\n\r\n"...)
	buf = append(buf, body...)
	_, err := w.Write(buf)
	return err
}

// clip shortens server output quoted in an error message.
func clip(b []byte) []byte {
	const n = 60
	if len(b) > n {
		return append(append([]byte(nil), b[:n]...), "…"...)
	}
	return b
}
