// Package clitest runs the ctxexpand command line in tests: in process
// with in-memory IO, or in a child process (this test binary re-executed
// as the command, under another GOMAXPROCS or another user), always under
// a watchdog that fails the test with every goroutine's stack instead of
// hanging the suite ([testenv.Watchdog]). It also reads JSON bundles (test
// repositories are written with package testfiles). Only tests import it.
//
// A test binary that uses [Exec] calls [MainIfChild] first in its TestMain:
//
//	func TestMain(m *testing.M) {
//		clitest.MainIfChild()
//		os.Exit(m.Run())
//	}
package clitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/cli"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
)

// asCLI, set in the environment, makes a test binary run as the command.
const asCLI = "CTXEXPAND_TEST_AS_CLI"

// MainIfChild runs the command line and exits when this process was
// started by Exec; otherwise it returns at once.
func MainIfChild() {
	if os.Getenv(asCLI) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
}

// Result is what one run of the command line gave.
type Result struct {
	Code           int
	Stdout, Stderr string
	Took           time.Duration
}

func (r Result) String() string {
	return fmt.Sprintf("exit %d after %v\n--- stderr:\n%s\n--- stdout (first 2000 bytes):\n%.2000s", r.Code, r.Took.Round(time.Millisecond), r.Stderr, r.Stdout)
}

// Run runs the command line in process with in-memory IO (empty stdin).
func Run(t testing.TB, args ...string) Result {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	start := time.Now()
	go func() { done <- cli.Main(args, strings.NewReader(""), &out, &errb) }()
	select {
	case code := <-done:
		return Result{Code: code, Stdout: out.String(), Stderr: errb.String(), Took: time.Since(start)}
	case <-time.After(testenv.Watchdog):
		var stacks bytes.Buffer
		pprof.Lookup("goroutine").WriteTo(&stacks, 2)
		t.Fatalf("ctxexpand %q did not return within %v: a hang\n%s", args, testenv.Watchdog, stacks.String())
		return Result{}
	}
}

// Command is the command line as a child process (this test binary, whose
// TestMain calls MainIfChild), not started, for tests that start, signal
// or run several at once.
func Command(ctx context.Context, args ...string) *exec.Cmd {
	return command(ctx, os.Args[0], args...)
}

func command(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), asCLI+"=1")
	return cmd
}

// Exec runs the command line in a child process: this test binary, whose
// TestMain calls MainIfChild. env is added to this process's environment;
// with cred set the child runs as that user, from a copy of the binary
// that any user can run.
func Exec(t testing.TB, env []string, cred *syscall.Credential, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Watchdog)
	defer cancel()
	bin := os.Args[0]
	if cred != nil {
		bin = publicCopy(t, bin)
	}
	cmd := command(ctx, bin, args...)
	cmd.Env = append(cmd.Env, env...)
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String(), Took: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("ctxexpand %q did not return within %v: a hang\n%s", args, testenv.Watchdog, r)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.Code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", bin, err)
	}
	return r
}

// stackTrace matches what a crash prints.
var stackTrace = regexp.MustCompile(`(?m)^panic: |^goroutine \d+ \[|^fatal error: `)

// CheckSane fails on what no run may ever show: a panic, a Go stack, an
// internal error note. (Stdout holds repository code, which may say
// "internal error" in a string; only a stack counts there.)
func CheckSane(t testing.TB, r Result) {
	t.Helper()
	if m := stackTrace.FindString(r.Stdout + "\n" + r.Stderr); m != "" {
		t.Fatalf("the output shows a crash (%q)\n%s", m, r)
	}
	for _, bad := range []string{"runtime error", "internal error"} {
		if strings.Contains(r.Stderr, bad) {
			t.Fatalf("stderr shows %q\n%s", bad, r)
		}
	}
}

// Bundle is the part of a JSON bundle tests read.
type Bundle struct {
	Budget      int      `json:"budget"`
	TotalTokens int      `json:"total_tokens"`
	Notes       []string `json:"notes"`
	Extras      []struct {
		Kind    string `json:"kind"`
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"extras"`
	Files []struct {
		Path     string `json:"path"`
		Category string `json:"category"`
		Rung     string `json:"rung"`
	} `json:"files"`
}

// ParseBundle reads the JSON bundle a run printed, failing the test when
// it is not one.
func ParseBundle(t testing.TB, r Result) Bundle {
	t.Helper()
	var doc Bundle
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatalf("the output is not a JSON bundle: %v\n%s", err, r)
	}
	return doc
}

// Paths lists the bundle's files in order.
func (d Bundle) Paths() []string {
	var out []string
	for _, f := range d.Files {
		out = append(out, f.Path)
	}
	return out
}
