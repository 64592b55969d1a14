// Package testenv gives a test binary an environment of its own, so that
// what a test sees does not depend on the history of the machine it runs
// on: a fresh HOME with empty user cache and config directories (the
// on-disk index, the page cache of @url and the language servers' state
// live there by default) and no global or system git configuration. The
// Go toolchain's own caches stay where they were (they are resolved before
// HOME moves), so tests still build and load modules the go command has.
// Only tests import it:
//
//	func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
//
// Benchmarks that report CPU time next to wall time read it from
// [CPUTime]; tests that wait on a run give up after [Watchdog].
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Watchdog is how long any run (of the command line, a server, a
// reload) may take before it counts as a hang. Runs take well under a
// second; the margin is for a loaded CI machine under the race detector.
const Watchdog = 90 * time.Second

// Run sets the environment up, runs the tests and removes what they left
// in the temporary home, returning the exit code for os.Exit.
func Run(m *testing.M) int {
	home, err := Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	code := m.Run()
	os.RemoveAll(home)
	return code
}

// Setup moves HOME, XDG_CACHE_HOME and XDG_CONFIG_HOME to a new temporary
// directory, pins GOCACHE, GOMODCACHE and GOPATH to the values they had
// (they default to places under HOME), turns off global and system git
// configuration and gives git an identity, in this process's environment.
// It returns the temporary home, for the caller to remove.
func Setup() (string, error) {
	pinned, err := goEnv("GOCACHE", "GOMODCACHE", "GOPATH")
	if err != nil {
		return "", err
	}
	home, err := os.MkdirTemp("", "ctxexpand-test-home-")
	if err != nil {
		return "", err
	}
	vars := map[string]string{
		"HOME":                home,
		"XDG_CACHE_HOME":      filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"GIT_CONFIG_GLOBAL":   os.DevNull,
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "ctxexpand test",
		"GIT_AUTHOR_EMAIL":    "test@example.com",
		"GIT_COMMITTER_NAME":  "ctxexpand test",
		"GIT_COMMITTER_EMAIL": "test@example.com",
	}
	for k, v := range pinned {
		vars[k] = v
	}
	for k, v := range vars {
		if err := os.Setenv(k, v); err != nil {
			return home, err
		}
	}
	os.Unsetenv("CTXEXPAND_CACHE_DIR")
	return home, nil
}

// goEnv asks the go command for variables; one that is not installed
// leaves them as they are (tests that need it say so themselves).
func goEnv(names ...string) (map[string]string, error) {
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		if _, lerr := exec.LookPath("go"); lerr != nil {
			return nil, nil
		}
		return nil, fmt.Errorf("go env: %w", err)
	}
	vals := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(vals) != len(names) {
		return nil, fmt.Errorf("go env: %d values for %d names", len(vals), len(names))
	}
	m := make(map[string]string, len(names))
	for i, n := range names {
		if vals[i] != "" {
			m[n] = vals[i]
		}
	}
	return m, nil
}
