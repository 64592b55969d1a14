package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/clitest"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
)

// child is the command line as a child process with its output captured.
func child(ctx context.Context, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := clitest.Command(ctx, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return cmd, &out, &errb
}

// cacheBaseline makes the repository of the cache tests and returns it
// with their query and the run without a cache they are compared with.
func cacheBaseline(t *testing.T) (root, query string, want clitest.Result) {
	t.Helper()
	root = bigRepo(t, 12, 2)
	query = "fix Handle1_7 in p6"
	want = clitest.Run(t, "--root", root, "--no-cache", "--format", "json", "--budget", "6000", query)
	if want.Code != 0 {
		t.Fatalf("without cache: %s", want)
	}
	return root, query, want
}

// TestSharedCacheTwoProcesses: two processes filling one empty cache
// directory at the same time, then a third reading it, each print the
// bundle a run without a cache prints.
func TestSharedCacheTwoProcesses(t *testing.T) {
	root, query, want := cacheBaseline(t)
	cache := t.TempDir()
	args := []string{"--root", root, "--cache-dir", cache, "--format", "json", "--budget", "6000", query}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Watchdog)
	defer cancel()
	type result struct {
		out, errb string
		err       error
	}
	results := make([]result, 2)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd, out, errb := child(ctx, args...)
			err := cmd.Run()
			results[i] = result{out.String(), errb.String(), err}
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("process %d: %v\n%s", i+1, r.err, r.errb)
		}
		if diff := cmp.Diff(want.Stdout, r.out); diff != "" {
			t.Errorf("process %d, sharing the cache, differs from the run without cache (-want +got):\n%s", i+1, diff)
		}
	}
	after := clitest.Run(t, args...)
	if after.Code != 0 || after.Stdout != want.Stdout {
		t.Errorf("the run reading the shared cache differs from the run without cache (-want +got):\n%s\n%s",
			cmp.Diff(want.Stdout, after.Stdout), after.Stderr)
	}
	if entries, _ := os.ReadDir(cache); len(entries) == 0 {
		t.Errorf("the cache directory %s is empty: the runs did not use it", cache)
	}
}

// TestKilledRunLeavesCacheUsable: a run killed (SIGKILL) at several points
// of its work leaves a cache from which the next run gives the bundle a
// run without a cache gives.
func TestKilledRunLeavesCacheUsable(t *testing.T) {
	root, query, want := cacheBaseline(t)
	killed := 0
	for _, delay := range []time.Duration{50 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond, time.Second} {
		t.Run(delay.String(), func(t *testing.T) {
			cache := t.TempDir()
			args := []string{"--root", root, "--cache-dir", cache, "--format", "json", "--budget", "6000", query}
			ctx, cancel := context.WithTimeout(context.Background(), testenv.Watchdog)
			defer cancel()
			cmd, _, _ := child(ctx, args...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(delay)
			cmd.Process.Signal(syscall.SIGKILL)
			if err := cmd.Wait(); err != nil {
				killed++
			} else {
				t.Logf("the run finished within %v, before the kill", delay)
			}
			got := clitest.Run(t, args...)
			clitest.CheckSane(t, got)
			if got.Code != 0 {
				t.Fatalf("after a killed run: %s", got)
			}
			if diff := cmp.Diff(want.Stdout, got.Stdout); diff != "" {
				t.Errorf("after a run killed at %v, the bundle differs from the run without cache (-want +got):\n%s", delay, diff)
			}
			// And the cache it left behind, now complete, is used as is.
			again := clitest.Run(t, args...)
			if again.Stdout != want.Stdout {
				t.Errorf("third run differs:\n%s", cmp.Diff(want.Stdout, again.Stdout))
			}
		})
	}
	if killed == 0 {
		t.Errorf("every run finished before it was killed: the test killed nothing")
	}
}
