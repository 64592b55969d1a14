package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeTree writes files (path → content) under a new temporary directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// smallGoTree is a module of n one-function files.
func smallGoTree(t *testing.T, n int) string {
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	for i := 0; i < n; i++ {
		files["f"+strconv.Itoa(i)+".go"] = "package m\n\nfunc F" + strconv.Itoa(i) + "() {}\n"
	}
	return writeTree(t, files)
}

// loadNoHang runs Load and fails the test if it has not returned within a
// minute: whatever the server does, Load must come back.
func loadNoHang(t *testing.T, ctx context.Context, root string, opt Options) (err error, elapsed time.Duration) {
	t.Helper()
	type result struct{ err error }
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		_, err := Load(ctx, root, opt)
		done <- result{err}
	}()
	select {
	case r := <-done:
		return r.err, time.Since(start)
	case <-time.After(time.Minute):
		t.Fatalf("Load did not return within a minute")
	}
	return nil, 0
}

func TestLoadServerFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		mode  string
		files int
		want  []error
		text  string // in the message
	}{
		{"crashes at startup", "crash", 1, []error{ErrStart, ErrServerFailed}, "boom"},
		{"never answers", "silent", 1, []error{ErrStart, ErrTimeout}, "no answer to initialize"},
		{"writes a log line instead of a message", "garbage", 1, []error{ErrStart, ErrMalformed}, "has no colon"},
		{"answers invalid JSON", "badjson", 1, []error{ErrStart, ErrMalformed}, ""},
		{"crashes after the handshake", "crash-after-init", 3, []error{ErrServerFailed, ErrClosed}, "index out of range"},
		{"stops answering", "slow", 12, []error{ErrUnresponsive}, "in a row"},
		{"answers one file slowly", "slow", 1, []error{ErrTimeout}, "no symbols"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := smallGoTree(t, tt.files)
			opt := fakeOptions(t, tt.mode, "")
			pidFile := filepath.Join(t.TempDir(), "pid")
			opt.Env = append(opt.Env, envFakePID+"="+pidFile)
			err, elapsed := loadNoHang(t, context.Background(), root, opt)
			if err == nil {
				t.Fatalf("Load succeeded against a %s server", tt.mode)
			}
			for _, w := range tt.want {
				if !errors.Is(err, w) {
					t.Errorf("error %q is not %v", err, w)
				}
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("error %q does not say %q", err, tt.text)
			}
			t.Logf("%s: %v after %v", tt.mode, err, elapsed.Round(time.Millisecond))
			assertGone(t, pidFile)
		})
	}
}

func TestLoadMissingServer(t *testing.T) {
	t.Parallel()
	root := smallGoTree(t, 1)
	err, _ := loadNoHang(t, context.Background(), root, Options{Command: []string{"ctxexpand-no-such-language-server"}})
	if !errors.Is(err, ErrStart) || !strings.Contains(err.Error(), "not found") {
		t.Errorf("error %v: want ErrStart saying the program was not found", err)
	}
}

func TestLoadCancelledWhileStarting(t *testing.T) {
	t.Parallel()
	root := smallGoTree(t, 1)
	opt := fakeOptions(t, "silent", "")
	opt.StartTimeout = time.Minute
	pidFile := filepath.Join(t.TempDir(), "pid")
	opt.Env = append(opt.Env, envFakePID+"="+pidFile)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err, _ := loadNoHang(t, ctx, root, opt)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v: want the context's deadline", err)
	}
	assertGone(t, pidFile)
}

// assertGone checks that the fake server whose PID is in pidFile no longer
// runs: Load must never leave a server behind.
func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return // the server never started (missing program)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	for i := 0; i < 50; i++ {
		if !processAlive(pid) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("server process %d still runs after Load returned", pid)
}

// TestLoadRequestErrors: requests answered with errors cost their edges,
// mark the file degraded and say so, but do not fail the load.
func TestLoadRequestErrors(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a.go":   "package m\n\n// A does a.\nfunc A() { B() }\n\nfunc B() {}\n",
	})
	uri := fileURI(filepath.Join(root, "a.go"))
	script := `{
		"textDocument/documentSymbol": [{"match": "a.go", "result": [
			{"name": "A", "kind": 12, "range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 16}}, "selectionRange": {"start": {"line": 3, "character": 5}, "end": {"line": 3, "character": 6}}},
			{"name": "B", "kind": 12, "range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 11}}, "selectionRange": {"start": {"line": 5, "character": 5}, "end": {"line": 5, "character": 6}}}
		]}],
		"callHierarchy/outgoingCalls": [{"match": "", "error": "no package metadata for file ` + uri + `"}],
		"textDocument/prepareCallHierarchy": [{"match": "", "error": "no package metadata"}]
	}`
	scriptFile := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(scriptFile, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := fakeOptions(t, "script", scriptFile)
	opt.RequestTimeout = 5 * time.Second
	fs, err := Load(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs.Symbols) != 2 || fs.Symbols[0].Start != 3 || fs.Symbols[0].Doc != "A does a." {
		t.Errorf("symbols %+v: want A (with its doc comment) and B", fs.Symbols)
	}
	if !fs.Files[0].Degraded {
		t.Error("a.go is not marked degraded")
	}
	var got []string
	for _, p := range fs.Problems {
		got = append(got, p.String())
	}
	want := []string{
		".: load: 2 outgoingCalls requests failed (the first: no package metadata (code -32603)); their edges are missing",
		"a.go: degraded: lsp.test could not analyse the file (no package metadata (code -32603)); its symbols have few or no edges",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
