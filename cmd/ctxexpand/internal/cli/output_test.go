package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteOutput: the payload of ctxexpand and ctxexpand diff goes to
// stdout, or to the --output file and nowhere else; a file that cannot be
// written is an error naming it.
func TestWriteOutput(t *testing.T) {
	var out bytes.Buffer
	io := &IO{Out: &out}
	if err := writeOutput(io, "", []byte("bundle\n")); err != nil || out.String() != "bundle\n" {
		t.Fatalf("to stdout: %q, %v", out.String(), err)
	}
	out.Reset()
	file := filepath.Join(t.TempDir(), "ctx.md")
	if err := writeOutput(io, file, []byte("bundle\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "bundle\n" || out.Len() != 0 {
		t.Fatalf("to --output: file %q (%v), stdout %q", b, err, out.String())
	}
	bad := filepath.Join(t.TempDir(), "missing", "ctx.md")
	if err := writeOutput(io, bad, []byte("x")); err == nil || !strings.Contains(err.Error(), "writing "+bad) {
		t.Fatalf("unwritable --output: %v", err)
	}
}
