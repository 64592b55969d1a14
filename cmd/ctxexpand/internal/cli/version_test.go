package cli

import (
	"strings"
	"testing"
)

// TestVersionFlag checks that --version prints the version command's line
// and nothing else, without running a query.
func TestVersionFlag(t *testing.T) {
	code, cmdOut, errs := run(t, "version")
	if code != ExitOK || !strings.HasPrefix(cmdOut, "ctxexpand ") || errs != "" {
		t.Fatalf("version: exit %d, stdout %q, stderr %q", code, cmdOut, errs)
	}
	if want := versionString() + "\n"; cmdOut != want {
		t.Errorf("version printed %q, want %q", cmdOut, want)
	}
	for _, args := range [][]string{{"--version"}, {"--root", gosvc, "--version"}} {
		code, out, errs := run(t, args...)
		if code != ExitOK || out != cmdOut || errs != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 0 and %q", args, code, out, errs, cmdOut)
		}
	}
	// -v stays free: it is not a spelling of --version.
	if code, _, _ := run(t, "-v"); code != ExitUsage {
		t.Errorf("-v: exit %d, want a usage error", code)
	}
}
