package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestReadMessage(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string // bodies, in order
		wantErr error    // after the bodies; nil means clean EOF
	}{
		{"one", "Content-Length: 2\r\n\r\n{}", []string{"{}"}, nil},
		{"two back to back", "Content-Length: 2\r\n\r\n{}Content-Length: 4\r\n\r\nnull", []string{"{}", "null"}, nil},
		{"content type and case", "content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[]", []string{"[]"}, nil},
		{"bare newlines", "Content-Length: 2\n\n{}", []string{"{}"}, nil},
		{"blank line between messages", "Content-Length: 2\r\n\r\n{}\r\nContent-Length: 2\r\n\r\n[]", []string{"{}", "[]"}, nil},
		{"empty stream", "", nil, nil},
		{"log line", "gopls: starting\n", nil, ErrMalformed},
		{"no length", "Content-Type: x\r\n\r\n{}", nil, ErrMalformed},
		{"negative length", "Content-Length: -1\r\n\r\n", nil, ErrMalformed},
		{"bad length", "Content-Length: 1x\r\n\r\n{}", nil, ErrMalformed},
		{"too large", "Content-Length: 99999999999\r\n\r\n", nil, ErrTooLarge},
		{"short body", "Content-Length: 10\r\n\r\n{}", nil, ErrMalformed},
		{"ends in header", "Content-Length: 2\r\n", nil, ErrMalformed},
		{"endless headers", strings.Repeat("X: y\r\n", 40), nil, ErrMalformed},
		{"endless blank lines", strings.Repeat("\r\n", 40), nil, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bufio.NewReaderSize(strings.NewReader(tt.in), 64)
			var got []string
			var err error
			for {
				var body []byte
				body, err = readMessage(r, 1<<20)
				if err != nil {
					break
				}
				got = append(got, string(body))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("bodies (-want +got):\n%s", diff)
			}
			switch {
			case tt.wantErr == nil && err != io.EOF:
				t.Errorf("ended with %v, want EOF", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("ended with %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestReadMessageLongHeaderLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 200)+"\r\n"), 64)
	if _, err := readMessage(r, 1<<20); !errors.Is(err, ErrMalformed) {
		t.Errorf("got %v, want ErrMalformed", err)
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	bodies := []string{`{"jsonrpc":"2.0","id":1}`, `[]`, `"ünïcödé"`}
	for _, b := range bodies {
		if err := writeMessage(&buf, []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	r := bufio.NewReader(&buf)
	for _, want := range bodies {
		got, err := readMessage(r, 1<<20)
		if err != nil || string(got) != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
}

func FuzzReadMessage(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 5\r\nContent-Type: x\r\n\r\nhello"))
	f.Add([]byte("garbage\n"))
	f.Add([]byte("Content-Length: 4294967296\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReaderSize(bytes.NewReader(data), 64)
		for i := 0; i < 100; i++ {
			body, err := readMessage(r, 1<<16)
			if err != nil {
				return
			}
			if len(body) > 1<<16 {
				t.Fatalf("body of %d bytes over the limit", len(body))
			}
		}
	})
}

// pipeConn connects a conn to a handler playing the server over in-memory
// pipes.
func pipeConn(t *testing.T, serve func(r *bufio.Reader, w io.Writer)) *conn {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	c := newConn(cr, cw, nil)
	go c.run()
	go func() {
		serve(bufio.NewReader(sr), sw)
		sw.Close()
	}()
	t.Cleanup(func() {
		cw.Close()
		cr.Close()
	})
	return c
}

func TestConnRoutesResponsesOutOfOrder(t *testing.T) {
	c := pipeConn(t, func(r *bufio.Reader, w io.Writer) {
		var ids []json.RawMessage
		for len(ids) < 3 {
			body, err := readMessage(r, 1<<20)
			if err != nil {
				return
			}
			var m message
			json.Unmarshal(body, &m)
			if m.Method == "ask" {
				ids = append(ids, m.ID)
			}
		}
		// Answer in reverse order, with a server request and a
		// notification in between.
		writeMessage(w, []byte(`{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":3,"message":"hi"}}`))
		for i := len(ids) - 1; i >= 0; i-- {
			writeMessage(w, []byte(`{"jsonrpc":"2.0","id":`+string(ids[i])+`,"result":`+string(ids[i])+`}`))
		}
		io.Copy(io.Discard, r)
	})
	type res struct {
		n   int
		err error
	}
	out := make(chan res, 3)
	for i := 0; i < 3; i++ {
		go func() {
			var n int
			err := c.Call(context.Background(), "ask", nil, &n, 5*time.Second)
			out <- res{n, err}
		}()
	}
	seen := map[int]bool{}
	for i := 0; i < 3; i++ {
		r := <-out
		if r.err != nil {
			t.Fatal(r.err)
		}
		seen[r.n] = true
	}
	if diff := cmp.Diff(map[int]bool{1: true, 2: true, 3: true}, seen); diff != "" {
		t.Errorf("each call gets its own answer (-want +got):\n%s", diff)
	}
}

func TestConnErrors(t *testing.T) {
	t.Run("error response", func(t *testing.T) {
		c := pipeConn(t, func(r *bufio.Reader, w io.Writer) {
			readMessage(r, 1<<20)
			writeMessage(w, []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no such method"}}`))
			io.Copy(io.Discard, r)
		})
		err := c.Call(context.Background(), "x", nil, nil, time.Second)
		var re *RPCError
		if !errors.As(err, &re) || re.Code != codeMethodNotFound {
			t.Errorf("got %v, want the RPC error", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		c := pipeConn(t, func(r *bufio.Reader, w io.Writer) { io.Copy(io.Discard, r) })
		if err := c.Call(context.Background(), "x", nil, nil, 50*time.Millisecond); !errors.Is(err, ErrTimeout) {
			t.Errorf("got %v, want ErrTimeout", err)
		}
	})
	t.Run("server goes away", func(t *testing.T) {
		c := pipeConn(t, func(r *bufio.Reader, w io.Writer) { readMessage(r, 1<<20) })
		if err := c.Call(context.Background(), "x", nil, nil, 5*time.Second); !errors.Is(err, ErrClosed) {
			t.Errorf("got %v, want ErrClosed", err)
		}
		if err := c.Call(context.Background(), "y", nil, nil, 5*time.Second); !errors.Is(err, ErrClosed) {
			t.Errorf("a call after the end: got %v, want ErrClosed", err)
		}
	})
	t.Run("result of the wrong shape", func(t *testing.T) {
		c := pipeConn(t, func(r *bufio.Reader, w io.Writer) {
			readMessage(r, 1<<20)
			writeMessage(w, []byte(`{"jsonrpc":"2.0","id":1,"result":"not a list"}`))
			io.Copy(io.Discard, r)
		})
		var out []Location
		if err := c.Call(context.Background(), "x", nil, &out, time.Second); !errors.Is(err, ErrMalformed) {
			t.Errorf("got %v, want ErrMalformed", err)
		}
	})
	t.Run("server that does not read", func(t *testing.T) {
		c := pipeConn(t, func(r *bufio.Reader, w io.Writer) { time.Sleep(time.Hour) })
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		if err := c.Call(ctx, "x", strings.Repeat("x", 1<<20), nil, 0); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v, want the context's deadline", err)
		}
	})
}

func TestConnAnswersServerRequests(t *testing.T) {
	got := make(chan string, 1)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	c := newConn(cr, cw, func(method string, params json.RawMessage) (any, error) {
		if method == "workspace/configuration" {
			return []any{map[string]bool{"ok": true}}, nil
		}
		return nil, &RPCError{Code: codeMethodNotFound, Message: "no"}
	})
	go c.run()
	defer cw.Close()
	go func() {
		r := bufio.NewReader(sr)
		writeMessage(sw, []byte(`{"jsonrpc":"2.0","id":"a","method":"workspace/configuration","params":{"items":[{}]}}`))
		body, _ := readMessage(r, 1<<20)
		writeMessage(sw, []byte(`{"jsonrpc":"2.0","id":7,"method":"unknown/thing"}`))
		body2, _ := readMessage(r, 1<<20)
		got <- string(body) + "\n" + string(body2)
	}()
	want := `{"jsonrpc":"2.0","id":"a","result":[{"ok":true}]}` + "\n" +
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}`
	select {
	case g := <-got:
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("answers (-want +got):\n%s", diff)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer to the server's requests")
	}
}
