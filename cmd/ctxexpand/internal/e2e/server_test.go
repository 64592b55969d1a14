package e2e

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/clitest"
	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/serve"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// The server end to end: `ctxexpand serve` as a child process, queries
// through the command line in process. Every wait is for a condition
// (the server answering, the process exiting), bounded by the watchdog.

// syncBuffer is a buffer the child's output is copied into while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// server is a running `ctxexpand serve`.
type server struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	paths  serve.Paths
	done   chan struct{} // closed when the process exited, with err set
	err    error
}

// startServer starts a server for root with the index in cache and waits
// until it has loaded the repository.
func startServer(t *testing.T, root, cache string, extra ...string) *server {
	t.Helper()
	s := launchServer(t, root, cache, extra...)
	deadline := time.Now().Add(testenv.Watchdog)
	for {
		resp, err := serve.Call(context.Background(), s.paths.Socket, &serve.Request{Op: serve.OpStatus, Root: root})
		if err == nil && resp.Status != nil && resp.Status.Gen > 0 {
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("the server exited before answering: %v\n%s", s.err, s.stderr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not load within %v\n%s", testenv.Watchdog, s.stderr)
		}
	}
}

// launchServer starts a server for root with the index in cache; it is
// killed when the test ends.
func launchServer(t *testing.T, root, cache string, extra ...string) *server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*testenv.Watchdog)
	cmd := clitest.Command(ctx, append([]string{"serve", "--root", root, "--cache-dir", cache}, extra...)...)
	errb := &syncBuffer{}
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stderr: errb, paths: serve.PathsFor(cache, root), done: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		cancel()
		close(s.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-s.done
	})
	return s
}

// wait returns the server's exit status once it exits.
func (s *server) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-s.done:
		return s.err
	case <-time.After(testenv.Watchdog):
		t.Fatalf("the server did not exit\n%s", s.stderr)
		return nil
	}
}

// viaServer runs a query that the server must answer, and the same query
// with --no-server, and checks that both print the same bytes.
func viaServer(t *testing.T, root, cache string, args ...string) clitest.Result {
	t.Helper()
	base := []string{"--root", root, "--cache-dir", cache}
	local := clitest.Run(t, append(append(base, "--no-server"), args...)...)
	got := clitest.Run(t, append(append(base, "--verbose"), args...)...)
	clitest.CheckSane(t, got)
	if !strings.Contains(got.Stderr, "answered by the server") {
		t.Fatalf("the server did not answer %q\n%s", args, got)
	}
	if got.Code != local.Code || got.Stdout != local.Stdout {
		t.Fatalf("%q: the server's answer differs from the local one\n--- server\n%s\n--- local\n%s", args, got, local)
	}
	quiet := clitest.Run(t, append(base, args...)...)
	if quiet.Stderr != local.Stderr {
		t.Errorf("%q: stderr differs\n--- server\n%s\n--- local\n%s", args, quiet.Stderr, local.Stderr)
	}
	return got
}

// TestServerAnswersLikeLocal: queries answered by the server print what
// the command prints without it, byte for byte, before and after edits;
// a query with other load options is answered locally; --stop stops it.
func TestServerAnswersLikeLocal(t *testing.T) {
	root := filepath.Join(t.TempDir(), "gosvc")
	testfiles.CopyDir(t, filepath.Join(testfiles.ModuleRoot(t), "testdata", "gosvc"), root)
	cache := t.TempDir()
	metrics := freeLoopback(t)
	srv := startServer(t, root, cache, "--metrics", metrics)

	viaServer(t, root, cache, "--format", "json", "--budget", "4000", "fix UserService.find_by_email")
	viaServer(t, root, cache, "--format", "markdown", "--budget", "2500", "--explain", "the login token expires too early")
	viaServer(t, root, cache, "--files-only", "how does the server start")

	p := filepath.Join(root, "internal/service/user.go")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "FindByEmail", "LookupByEmail")), 0o644)
	r := viaServer(t, root, cache, "--format", "json", "--budget", "4000", "fix UserService.find_by_email")
	if !strings.Contains(r.Stdout, "LookupByEmail") || !strings.Contains(r.Stderr, "generation=2") {
		t.Errorf("the edit is not in the answer\n%s", r)
	}

	other := clitest.Run(t, "--root", root, "--cache-dir", cache, "--verbose", "--no-history", "--files-only", "fix UserService.LookupByEmail")
	if other.Code != 0 || strings.Contains(other.Stderr, "answered by the server") || !strings.Contains(other.Stderr, "answering locally") {
		t.Errorf("--no-history against a server without it: want a local answer\n%s", other)
	}

	// The server counts what it answered: four viaServer calls above,
	// each asking it twice (with --verbose and without).
	st := clitest.Run(t, "serve", "--status", "--root", root, "--cache-dir", cache)
	if st.Code != 0 || !strings.Contains(st.Stdout, "queries: 8 answered; p50 ") || !strings.Contains(st.Stdout, "(the last 8)") {
		t.Errorf("serve --status: want the four queries and their latency\n%s", st)
	}
	// And what the engine measured: the token counts the repeated query
	// found, the edit and the one file it changed.
	for _, want := range []string{"token counts: ", "% found in the memo", "go skeletons: ", "edits: 1 applied; to a fresh answer p50 ", "last update: 1 of 17 files analysed again"} {
		if !strings.Contains(st.Stdout, want) {
			t.Errorf("serve --status lacks %q\n%s", want, st)
		}
	}
	// The same figures for a scraper, on the loopback address given.
	scrape := scrapeMetrics(t, metrics)
	for _, want := range []string{"ctxexpand_queries_total 8", "ctxexpand_query_duration_seconds_count 8", "ctxexpand_generation 2", "ctxexpand_resident_memory_bytes ",
		"ctxexpand_token_memo_hits_total ", "ctxexpand_skeleton_memo_hits_total ", "ctxexpand_edit_to_fresh_seconds_count 1", "ctxexpand_reanalysed_files 1"} {
		if !strings.Contains(scrape, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, scrape)
		}
	}

	stop := clitest.Run(t, "serve", "--stop", "--root", root, "--cache-dir", cache)
	if stop.Code != 0 {
		t.Fatalf("serve --stop: %s", stop)
	}
	if err := srv.wait(t); err != nil {
		t.Errorf("the server exited with %v\n%s", err, srv.stderr)
	}
	if _, err := os.Stat(srv.paths.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket outlived the server: %v", err)
	}
	if r := clitest.Run(t, "--root", root, "--cache-dir", cache, "--files-only", "fix UserService.LookupByEmail"); r.Code != 0 {
		t.Errorf("after the server stopped: %s", r)
	}
}

// TestKilledServer: a server killed outright leaves its socket behind
// and a usable on-disk index: queries answer locally with what a run
// without any cache prints, and a new server starts in its place.
func TestKilledServer(t *testing.T) {
	root := filepath.Join(t.TempDir(), "gosvc")
	testfiles.CopyDir(t, filepath.Join(testfiles.ModuleRoot(t), "testdata", "gosvc"), root)
	cache := t.TempDir()
	srv := startServer(t, root, cache)
	args := []string{"--root", root, "--format", "json", "--budget", "4000", "fix UserService.find_by_email"}
	want := clitest.Run(t, append(args, "--no-cache")...)
	srv.cmd.Process.Signal(syscall.SIGKILL)
	srv.wait(t)
	if _, err := os.Stat(srv.paths.Socket); err != nil {
		t.Fatalf("the killed server's socket is gone (%v): the test would prove nothing", err)
	}
	got := clitest.Run(t, append(args, "--cache-dir", cache, "--verbose")...)
	if got.Code != 0 || got.Stdout != want.Stdout {
		t.Fatalf("after the kill: want the uncached bundle\n--- got\n%s\n--- want\n%s", got, want)
	}
	if strings.Contains(got.Stderr, "answered by the server") {
		t.Errorf("a dead server answered")
	}
	if !strings.Contains(got.Stderr, "phase=index") {
		t.Errorf("the query did not load locally\n%s", got.Stderr)
	}
	again := startServer(t, root, cache)
	viaServer(t, root, cache, "--format", "json", "--budget", "4000", "fix UserService.find_by_email")
	again.cmd.Process.Signal(syscall.SIGTERM)
	if err := again.wait(t); err != nil {
		t.Errorf("SIGTERM: exit %v\n%s", err, again.stderr)
	}
}

// tiny is a one-file Go module.
func tiny(t *testing.T) string {
	root := filepath.Join(t.TempDir(), "tiny")
	testfiles.WriteFile(t, root, "go.mod", []byte("module example.com/tiny\n\ngo 1.22\n"))
	testfiles.WriteFile(t, root, "tiny.go", []byte("package tiny\n\n// Tiny is all there is.\nfunc Tiny() int { return 1 }\n"))
	return root
}

// TestServerStops: a server exits cleanly when its root is removed or
// renamed, and when no query came within its idle timeout.
func TestServerStops(t *testing.T) {
	for _, how := range []string{"removed", "renamed", "idle"} {
		t.Run(how, func(t *testing.T) {
			root := tiny(t)
			var srv *server
			if how == "idle" {
				srv = launchServer(t, root, t.TempDir(), "--idle-timeout", "200ms")
			} else {
				srv = startServer(t, root, t.TempDir())
			}
			switch how {
			case "removed":
				os.RemoveAll(root)
			case "renamed":
				os.Rename(root, root+"2")
			}
			if err := srv.wait(t); err != nil {
				t.Errorf("exit %v\n%s", err, srv.stderr)
			}
			if _, err := os.Stat(srv.paths.Socket); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the socket outlived the server: %v", err)
			}
			want := map[string]string{"removed": "removed or renamed", "renamed": "removed or renamed", "idle": "no query for"}[how]
			if !strings.Contains(srv.stderr.String(), want) {
				t.Errorf("the log does not say %q\n%s", want, srv.stderr)
			}
		})
	}
}

// TestServerRefusesOtherUsers: another user can neither reach the socket
// nor, when its permissions are loosened by hand, be answered. Only root
// can run a process as another user; elsewhere the test checks the
// permissions alone.
func TestServerRefusesOtherUsers(t *testing.T) {
	root := tiny(t)
	cache := t.TempDir()
	if os.Geteuid() == 0 {
		root = filepath.Join(testfiles.PublicDir(t), "tiny")
		testfiles.CopyDir(t, tiny(t), root)
		cache = testfiles.PublicDir(t)
	}
	srv := startServer(t, root, cache)
	for p, want := range map[string]os.FileMode{srv.paths.Dir: 0o700, srv.paths.Socket: 0o600} {
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want mode %v", p, st.Mode().Perm(), err, want)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot run a client as another user")
	}
	cred := &syscall.Credential{Uid: 65534, Gid: 65534}
	home := testfiles.PublicDir(t)
	os.Chown(home, 65534, 65534)
	env := []string{"HOME=" + home, "GOCACHE=" + filepath.Join(home, "gocache"), "XDG_CACHE_HOME=" + home}
	status := func() clitest.Result {
		return clitest.Exec(t, env, cred, "serve", "--status", "--root", root, "--cache-dir", cache)
	}
	if r := status(); r.Code == 0 || !strings.Contains(r.Stderr, "permission denied") {
		t.Errorf("another user reached the server\n%s", r)
	}
	os.Chmod(srv.paths.Dir, 0o777)
	os.Chmod(srv.paths.Socket, 0o666)
	if r := status(); r.Code == 0 || !strings.Contains(r.Stderr, "refused") {
		t.Errorf("with loosened permissions, another user was answered\n%s", r)
	}
	if !strings.Contains(srv.stderr.String(), "refused a connection: a process of user 65534") {
		t.Errorf("the server does not log the refusal\n%s", srv.stderr)
	}
}

// freeLoopback returns a loopback HOST:PORT no one listens on now.
func freeLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// scrapeMetrics reads the server's /metrics page.
func scrapeMetrics(t *testing.T, addr string) string {
	t.Helper()
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scraping the metrics: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("scraping the metrics: %s, %v", resp.Status, err)
	}
	return string(body)
}

// TestServeMetricsLoopbackOnly: serve --metrics takes a loopback address
// only, and says so before starting anything.
func TestServeMetricsLoopbackOnly(t *testing.T) {
	root := t.TempDir()
	for _, addr := range []string{"0.0.0.0:9464", "example.com:9464", "9464"} {
		r := clitest.Run(t, "serve", "--root", root, "--cache-dir", t.TempDir(), "--metrics", addr)
		if r.Code != 2 || !strings.Contains(r.Stderr, "--metrics") {
			t.Errorf("--metrics %s: want a usage error\n%s", addr, r)
		}
	}
}

// TestServerPrimes: a server prepares its files for queries once its
// first generation is ready, and says so in its status; with --no-prime
// it does not.
func TestServerPrimes(t *testing.T) {
	for _, noPrime := range []bool{false, true} {
		root := filepath.Join(t.TempDir(), "gosvc")
		testfiles.CopyDir(t, filepath.Join(testfiles.ModuleRoot(t), "testdata", "gosvc"), root)
		cache := t.TempDir()
		var extra []string
		if noPrime {
			extra = append(extra, "--no-prime")
		}
		startServer(t, root, cache, extra...)
		viaServer(t, root, cache, "--files-only", "fix UserService.find_by_email")
		status := func() string {
			return clitest.Run(t, "serve", "--status", "--root", root, "--cache-dir", cache).Stdout
		}
		st := status()
		if noPrime {
			if strings.Contains(st, "primed:") {
				t.Errorf("--no-prime: the server primed\n%s", st)
			}
			continue
		}
		for !strings.Contains(st, "primed: 17 files of generation 1") {
			if strings.Contains(st, "primed:") {
				t.Fatalf("want 17 files of generation 1 primed\n%s", st)
			}
			time.Sleep(20 * time.Millisecond) // the suite's watchdog bounds the wait
			st = status()
		}
	}
}
