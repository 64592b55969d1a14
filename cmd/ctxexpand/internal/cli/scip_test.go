package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze/scip"
)

// TestSCIPFlags drives the SCIP options through the command line: index.scip
// at the root is read by itself, --no-scip turns it off, --scip names
// another index, and index --export-scip writes one that reads back.
func TestSCIPFlags(t *testing.T) {
	ts := sample(t, "tssvc")
	code, out, errOut := run(t, "--root", ts, "--no-cache", "--no-history", "--files-only", "fix UserService.findByEmail")
	if code != ExitOK || !strings.HasPrefix(out, "src/service/user.ts\n") {
		t.Errorf("with index.scip: exit %d, out %q, err %q", code, out, errOut)
	}
	code, out, errOut = run(t, "--root", ts, "--no-cache", "--no-history", "--no-scip", "--files-only", "fix UserService.findByEmail")
	if code != ExitOK || out != "" || !strings.Contains(errOut, "no SCIP index") {
		t.Errorf("--no-scip: exit %d, out %q, err %q", code, out, errOut)
	}

	rs := sample(t, "rustsvc")
	code, _, errOut = run(t, "--root", rs, "--no-cache", "--no-history", "--scip", "rust-analyzer.scip", "--explain", "--files-only", "fix UserService::find_by_email")
	if code != ExitOK || !strings.Contains(errOut, "from SCIP indexes") || !strings.Contains(errOut, "(scip)") {
		t.Errorf("--scip: exit %d, explain lacks the SCIP edges:\n%s", code, errOut)
	}
	code, _, errOut = run(t, "--root", rs, "--no-cache", "--scip", "missing.scip", "--files-only", "fix it")
	if code != ExitOK || !strings.Contains(errOut, "SCIP index missing.scip not used") {
		t.Errorf("a missing --scip index: exit %d, err %q; want a note and a result", code, errOut)
	}

	dst := filepath.Join(t.TempDir(), "out.scip")
	code, out, errOut = run(t, "index", "--no-cache", "--root", rs, "--export-scip", dst)
	if code != ExitOK || !strings.Contains(out, "SCIP index of 10 documents") {
		t.Fatalf("index --export-scip: exit %d, out %q, err %q", code, out, errOut)
	}
	idx, err := scip.ReadFile(dst, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.Documents) != 10 || idx.Metadata.GetToolInfo().GetName() != "ctxexpand" {
		t.Errorf("exported index: %d documents, tool %q", len(idx.Documents), idx.Metadata.GetToolInfo().GetName())
	}
}
