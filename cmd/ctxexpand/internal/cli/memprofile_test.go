package cli

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestMemProfile: --memprofile writes a heap profile (gzip-compressed
// protocol buffers, as `go tool pprof` reads them) whatever the command.
func TestMemProfile(t *testing.T) {
	repo := writeRepo(t, smallRepo)
	path := filepath.Join(t.TempDir(), "heap.pprof")
	code, _, errs := run(t, "--memprofile", path, "--files-only", "--root", repo, "fix token.Issue")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no profile written: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the profile is not gzip-compressed (%v): %q", err, data[:min(len(data), 40)])
	}
	raw, err := io.ReadAll(zr)
	if err != nil || len(raw) == 0 {
		t.Fatalf("the profile does not decompress: %v (%d bytes)", err, len(raw))
	}
	if !bytes.Contains(raw, []byte("inuse_space")) {
		t.Errorf("the profile has no inuse_space sample type")
	}
}
