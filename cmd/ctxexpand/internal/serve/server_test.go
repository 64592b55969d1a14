package serve_test

import (
	"context"
	"encoding/binary"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/serve"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// fakeOpen loads nothing: these tests are about the socket.
func fakeOpen(_ context.Context, root string, _ engine.LoadOptions) (*engine.Session, error) {
	return &engine.Session{Root: root, Facts: &analyze.Facts{Root: root}}, nil
}

// running starts a server on a fresh root and cache directory and
// returns its socket; the server stops when the test ends.
func running(t *testing.T) (root string, ln *serve.Listener) {
	t.Helper()
	root = t.TempDir()
	ln, err := serve.Listen(t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := resident.Start(context.Background(), resident.Options{Root: root, CookieDir: ln.Paths.Cookies, Open: fakeOpen,
		Configure: func() (engine.LoadOptions, error) { return engine.LoadOptions{}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ln.Serve(ctx, eng, serve.Options{Root: root, Program: "test", Logf: t.Logf}) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return root, ln
}

// raw sends bytes and returns the response the server wrote, if any.
func raw(t *testing.T, socket string, data []byte, closeWrite bool) (*serve.Response, error) {
	t.Helper()
	c, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Minute))
	c.Write(data)
	if closeWrite {
		c.(*net.UnixConn).CloseWrite()
	}
	body, err := serve.ReadFrame(c, serve.MaxResponse)
	if err != nil {
		return nil, err
	}
	resp, err := serve.DecodeResponse(body)
	return resp, err
}

func frame(body string) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...)
}

// TestGarbage: whatever a client sends, it gets an error answer (or, when
// it hangs up mid-frame, nothing) and the server keeps answering.
func TestGarbage(t *testing.T) {
	root, ln := running(t)
	cases := []struct {
		name     string
		data     []byte
		code     string
		contains string
	}{
		{"text", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), serve.CodeBadRequest, "frame too large"},
		{"huge length", []byte{0x7f, 0xff, 0xff, 0xff, 1, 2, 3}, serve.CodeBadRequest, "frame too large"},
		{"not json", frame("{{{"), serve.CodeBadRequest, "bad request"},
		{"json array", frame("[1,2]"), serve.CodeBadRequest, "bad request"},
		{"unknown field", frame(`{"v":2,"op":"status","x":1}`), serve.CodeBadRequest, "unknown field"},
		{"unknown op", frame(`{"v":2,"op":"explode"}`), serve.CodeBadRequest, "unknown operation"},
		{"no op", frame(`{"v":2}`), serve.CodeBadRequest, "no operation"},
		{"query without query", frame(`{"v":2,"op":"query"}`), serve.CodeBadRequest, "without a query"},
		{"bad budget", frame(`{"v":2,"op":"query","query":{"query":"x","budget":-1}}`), serve.CodeBadRequest, "budget must be a positive number of tokens"},
		{"other version", frame(`{"v":7,"op":"query"}`), serve.CodeMismatch, "protocol version"},
		{"other root", frame(`{"v":2,"op":"query","root":"/elsewhere","program":"test","query":{"query":"x","budget":10}}`), serve.CodeMismatch, "serves"},
		{"other program", frame(`{"v":2,"op":"query","root":"` + root + `","program":"old","query":{"query":"x","budget":10}}`), serve.CodeMismatch, "another build"},
		{"two values", frame(`{"v":2,"op":"status"}{"v":2}`), serve.CodeBadRequest, "data after"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := raw(t, ln.Paths.Socket, tc.data, true)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			if resp.Code != tc.code || !strings.Contains(resp.Error, tc.contains) {
				t.Errorf("answer %q %q; want %q with %q", resp.Code, resp.Error, tc.code, tc.contains)
			}
		})
	}
	// Half a frame, then the end of what the client writes.
	if resp, err := raw(t, ln.Paths.Socket, []byte{0, 0, 1, 0, '{'}, true); err != nil || resp.Code != serve.CodeBadRequest {
		t.Errorf("a cut frame: %+v, %v; want a bad-request answer", resp, err)
	}
	// A client that connects and goes away.
	if c, err := net.Dial("unix", ln.Paths.Socket); err == nil {
		c.Close()
	}
	resp, err := serve.Call(context.Background(), ln.Paths.Socket, &serve.Request{Op: serve.OpStatus})
	if err != nil || resp.Status == nil || resp.Status.PID != os.Getpid() {
		t.Fatalf("status after the garbage: %+v, %v", resp, err)
	}
}

// TestSocketPrivate: the socket's directory is the owner's alone and the
// socket itself is not open to others.
func TestSocketPrivate(t *testing.T) {
	_, ln := running(t)
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{ln.Paths.Dir, 0o700}, {ln.Paths.Socket, 0o600}, {ln.Paths.Cookies, 0o700}} {
		st, err := os.Lstat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != c.want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(c.path), got, c.want)
		}
	}
}

// TestOneServerPerRoot: a second Listen on the root fails with ErrRunning
// while the first serves.
func TestOneServerPerRoot(t *testing.T) {
	root := t.TempDir()
	cache := t.TempDir()
	ln, err := serve.Listen(cache, root)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := serve.Listen(cache, root); err != serve.ErrRunning {
		t.Errorf("second Listen: %v, want ErrRunning", err)
	}
}
