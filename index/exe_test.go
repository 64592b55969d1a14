package index

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestGoBuildID: the build ID read from the test binary is the one go
// tool buildid prints, and a file that is not an executable has none.
func TestGoBuildID(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the build ID is read from ELF executables")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	got, ok := goBuildID(exe)
	if !ok {
		t.Fatalf("no build ID read from %s", exe)
	}
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	if want := strings.TrimSpace(string(out)); got != want {
		t.Errorf("build ID %q, go tool buildid says %q", got, want)
	}
	text := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(text, []byte("not an executable\n"), 0o644)
	if id, ok := goBuildID(text); ok {
		t.Errorf("a text file has build ID %q", id)
	}
	st, err := Open(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if id := st.ExecutableID(); id != "gobuildid:"+got && !strings.HasPrefix(id, "vcs:") && !strings.HasPrefix(id, "mod:") {
		t.Errorf("ExecutableID %q, want the build ID %q", id, got)
	}
}
