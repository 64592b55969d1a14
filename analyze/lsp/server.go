package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"
)

// ErrStart means the language server could not be started or did not
// complete the initialize handshake.
var ErrStart = errors.New("language server did not start")

// server is a running language server process and the connection to it.
type server struct {
	name   string // program name, for messages
	cmd    *exec.Cmd
	conn   *conn
	stdin  *os.File // our end of the server's standard input
	stdout *os.File // our end of the server's standard output
	stderr *tailBuffer

	exited  chan struct{} // closed when the process has been waited for
	waitErr error

	settings any                 // answered to workspace/configuration
	folders  []map[string]string // answered to workspace/workspaceFolders

	sawStatus atomic.Bool   // an experimental/serverStatus arrived
	quiescent chan struct{} // closed on the first quiescent serverStatus
	quietOnce sync.Once

	closeOnce sync.Once
	stopWatch func() bool
}

// startConfig says how to start and initialise a server.
type startConfig struct {
	argv     []string
	root     string   // absolute workspace root
	folders  []string // further workspace folders (nested Go modules), absolute
	env      []string // extra environment, appended to os.Environ()
	settings any      // initializationOptions and workspace/configuration answer
	timeout  time.Duration
	logf     func(format string, args ...any)
}

// startServer launches argv in root with piped standard streams and runs
// the initialize handshake within cfg.timeout. The process is killed when
// ctx is done. On failure the process is already gone.
func startServer(ctx context.Context, cfg startConfig) (*server, error) {
	if len(cfg.argv) == 0 || cfg.argv[0] == "" {
		return nil, fmt.Errorf("%w: no command given", ErrStart)
	}
	path, err := lookCommand(cfg.argv[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	s := &server{
		name:      filepath.Base(cfg.argv[0]),
		stdin:     inW,
		stdout:    outR,
		stderr:    newTailBuffer(4 << 10),
		exited:    make(chan struct{}),
		settings:  cfg.settings,
		quiescent: make(chan struct{}),
	}
	cmd := exec.Command(path, cfg.argv[1:]...)
	cmd.Dir = cfg.root
	cmd.Env = append(os.Environ(), cfg.env...)
	cmd.Stdin = inR
	cmd.Stdout = outW
	cmd.Stderr = s.stderr
	cmd.WaitDelay = 2 * time.Second // a grandchild holding stderr open must not block Wait
	setProcessGroup(cmd)
	s.cmd = cmd
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("%w: %s: %v", ErrStart, s.name, err)
	}
	// The child has its own copies; closing ours lets EOF through when it exits.
	inR.Close()
	outW.Close()
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
		// The reader sees the end of the output unless a grandchild still
		// holds the pipe open; do not wait long for that.
		select {
		case <-s.conn.done:
		case <-time.After(time.Second):
			s.conn.fail(ErrClosed)
			s.stdout.Close()
		}
	}()
	s.conn = newConn(outR, inW, s.handle)
	go s.conn.run()
	s.stopWatch = context.AfterFunc(ctx, s.kill)

	ictx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	if err := s.initialize(ictx, cfg); err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = fmt.Errorf("%w: no answer to initialize within %v", ErrTimeout, cfg.timeout)
		}
		err = s.explain(err) // before the kill, which would hide how it ended
		s.kill()
		return nil, fmt.Errorf("%w: %s: %w", ErrStart, s.name, err)
	}
	return s, nil
}

// lookCommand finds a program on PATH or, for gopls and other Go tools,
// in $GOBIN or $GOPATH/bin, where go install puts them.
func lookCommand(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		// Absolute: the server runs in the repository root, and exec
		// would resolve a relative path from there.
		return filepath.Abs(p)
	}
	if strings.ContainsRune(name, filepath.Separator) {
		return "", fmt.Errorf("%s: not found or not executable", name)
	}
	for _, dir := range append(goBinDirs(), goEnvBinDirs()...) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on PATH or in the Go bin directory; install it (for gopls: go install golang.org/x/tools/gopls@latest) or pass --lsp-cmd", name)
}

// goBinDirs are the directories go install writes to, from the
// environment alone (no go command is run).
func goBinDirs() []string {
	var dirs []string
	if d := os.Getenv("GOBIN"); d != "" {
		dirs = append(dirs, d)
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if home, err := os.UserHomeDir(); err == nil {
			gopath = filepath.Join(home, "go")
		}
	}
	for _, p := range filepath.SplitList(gopath) {
		if p != "" {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	return dirs
}

// goEnvBinDirs asks the go command, when there is one, where go install
// writes (GOBIN, GOPATH/bin), for settings made with go env -w.
func goEnvBinDirs() []string {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, goCmd, "env", "GOBIN", "GOPATH").Output()
	if err != nil {
		return nil
	}
	var dirs []string
	for i, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
		case i == 0:
			dirs = append(dirs, l)
		default:
			for _, p := range filepath.SplitList(l) {
				dirs = append(dirs, filepath.Join(p, "bin"))
			}
		}
	}
	return dirs
}

// initialize runs the handshake: initialize, then initialized.
func (s *server) initialize(ctx context.Context, cfg startConfig) error {
	uri := fileURI(cfg.root)
	s.folders = []map[string]string{{"uri": uri, "name": filepath.Base(cfg.root)}}
	for _, f := range cfg.folders {
		if f != cfg.root {
			s.folders = append(s.folders, map[string]string{"uri": fileURI(f), "name": filepath.Base(f)})
		}
	}
	params := map[string]any{
		"processId":        os.Getpid(),
		"clientInfo":       map[string]string{"name": "ctxexpand"},
		"rootUri":          uri,
		"rootPath":         cfg.root,
		"workspaceFolders": s.folders,
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"workspaceFolders": true,
				"configuration":    true,
			},
			"textDocument": map[string]any{
				"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
				"callHierarchy":  map[string]any{},
				"implementation": map[string]any{"linkSupport": false},
				"definition":     map[string]any{"linkSupport": false},
				"references":     map[string]any{},
			},
			"window":       map[string]any{"workDoneProgress": true},
			"experimental": map[string]any{"serverStatusNotification": true},
			"general":      map[string]any{"positionEncodings": []string{"utf-16"}},
		},
		"initializationOptions": cfg.settings,
	}
	var res struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if err := s.conn.Call(ctx, "initialize", params, &res, 0); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if len(res.Capabilities) == 0 {
		return fmt.Errorf("%w: the initialize result has no capabilities", ErrMalformed)
	}
	return s.conn.Notify("initialized", struct{}{})
}

// handle answers the server's requests and takes its notifications.
func (s *server) handle(method string, params json.RawMessage) (any, error) {
	switch method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		json.Unmarshal(params, &p)
		out := make([]any, len(p.Items))
		for i := range out {
			out[i] = s.settings
		}
		return out, nil
	case "workspace/workspaceFolders":
		return s.folders, nil
	case "experimental/serverStatus":
		var p struct {
			Quiescent bool `json:"quiescent"`
		}
		s.sawStatus.Store(true)
		if json.Unmarshal(params, &p) == nil && p.Quiescent {
			s.quietOnce.Do(func() { close(s.quiescent) })
		}
		return nil, nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "window/showDocument", "workspace/applyEdit",
		"workspace/semanticTokens/refresh", "workspace/codeLens/refresh", "workspace/inlayHint/refresh",
		"workspace/inlineValue/refresh", "workspace/diagnostic/refresh", "workspace/foldingRange/refresh":
		return nil, nil
	}
	if strings.HasPrefix(method, "$/") || strings.HasPrefix(method, "window/") || strings.HasPrefix(method, "textDocument/") {
		return nil, nil // notifications: progress, log messages, diagnostics
	}
	return nil, &RPCError{Code: codeMethodNotFound, Message: "ctxexpand does not support " + method}
}

// waitQuiescent waits until a server that reports its status (as
// rust-analyzer does) says it has finished loading, or ctx is done, or the
// server ends, or d passes. A server that has sent no status at all
// within the first ten seconds is taken not to report one.
func (s *server) waitQuiescent(ctx context.Context, d time.Duration) bool {
	limit := time.NewTimer(d)
	defer limit.Stop()
	first := time.NewTimer(min(d, 10*time.Second))
	defer first.Stop()
	for {
		select {
		case <-s.quiescent:
			return true
		case <-first.C:
			if !s.sawStatus.Load() {
				return false
			}
		case <-s.conn.done:
			return false
		case <-ctx.Done():
			return false
		case <-limit.C:
			return false
		}
	}
}

// call is conn.Call with the server's exit status folded into errors.
func (s *server) call(ctx context.Context, method string, params, result any, timeout time.Duration) error {
	err := s.conn.Call(ctx, method, params, result, timeout)
	if err != nil {
		return s.explain(err)
	}
	return nil
}

// explain adds what is known about a server whose connection has ended
// to err: its exit status and the end of its standard error. Errors of a
// live connection (a timeout, an error response) are returned as they are.
func (s *server) explain(err error) error {
	if s.conn.Err() == nil && !brokenPipe(err) {
		return err
	}
	select {
	case <-s.exited:
	case <-time.After(500 * time.Millisecond): // let the exit status arrive
	}
	var b strings.Builder
	exited := false
	select {
	case <-s.exited:
		exited = true
		if s.waitErr != nil {
			fmt.Fprintf(&b, "; %s exited: %v", s.name, s.waitErr)
		} else {
			fmt.Fprintf(&b, "; %s exited", s.name)
		}
	default:
	}
	if tail := strings.TrimSpace(s.stderr.String()); tail != "" {
		fmt.Fprintf(&b, "; it said: %s", stderrSummary(tail))
	}
	if exited {
		return fmt.Errorf("%w: %w%s", ErrServerFailed, err, b.String())
	}
	return fmt.Errorf("%w%s", err, b.String())
}

// brokenPipe reports whether err is a write to a server that has closed
// its input, which may reach a caller before the reader sees the end of
// the server's output: the server has stopped all the same.
func brokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed)
}

// ErrServerFailed wraps failures of a server that has stopped.
var ErrServerFailed = errors.New("language server stopped")

// close shuts the server down politely (shutdown, exit), then kills it if
// it has not answered within a second or gone within two more. It is safe to call more than once.
func (s *server) close() {
	s.closeOnce.Do(func() {
		if s.stopWatch != nil {
			s.stopWatch()
		}
		if s.conn.Err() == nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			if s.conn.Call(ctx, "shutdown", nil, nil, 0) == nil && s.conn.Notify("exit", nil) == nil {
				select {
				case <-s.exited:
				case <-time.After(2 * time.Second):
				}
			}
			cancel()
		}
		s.kill()
	})
}

// kill ends the process (and its process group) and the connection.
func (s *server) kill() {
	s.conn.fail(ErrClosed) // first, so that calls fail with ErrClosed and not a pipe error
	select {
	case <-s.exited:
	default:
		killProcess(s.cmd)
	}
	s.stdin.Close()
	s.stdout.Close()
	select {
	case <-s.exited:
	case <-time.After(3 * time.Second):
	}
}

// tailBuffer keeps the last n bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	n   int
	buf []byte
}

func newTailBuffer(n int) *tailBuffer { return &tailBuffer{n: n} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.n {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.n:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// stderrSummary picks what to quote of a server's last output: its first
// line that reports an error or a panic (a backtrace follows it), else its
// last three lines.
func stderrSummary(s string) string {
	lines := strings.Split(s, "\n")
	for _, l := range lines {
		low := strings.ToLower(l)
		if strings.Contains(low, "error") || strings.Contains(low, "panic") || strings.Contains(low, "fatal") {
			return clipText(strings.TrimSpace(l))
		}
	}
	var keep []string
	for i := len(lines) - 1; i >= 0 && len(keep) < 3; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			keep = append([]string{l}, keep...)
		}
	}
	return clipText(strings.Join(keep, " | "))
}

// clipText cuts s to about 300 bytes, at a rune boundary.
func clipText(s string) string {
	const n = 300
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
