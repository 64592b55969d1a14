package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestVerboseLogsPhases(t *testing.T) {
	repo := writeRepo(t, smallRepo)
	code, out, errs := run(t, "--verbose", "--files-only", "--root", repo, "fix token.Issue")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`level=INFO msg=loaded phase=load took=\S+ lang=go files=\d+ symbols=\d+ edges=\d+`),
		regexp.MustCompile(`level=INFO msg=loaded phase=load took=\S+ lang=all files=\d+ `),
		regexp.MustCompile(`level=DEBUG msg="golang: .*" phase=load lang=go`),
		regexp.MustCompile(`level=INFO msg=indexed phase=index took=\S+ nodes=\d+ graph_edges=\d+`),
		regexp.MustCompile(`level=INFO msg=expanded phase=expand took=\S+ strategies=focused depth=\d+ seeds=\d+ considered=\d+ ranked=\d+`),
		regexp.MustCompile(`level=INFO msg=bundled phase=bundle took=\S+ format=markdown tokens=\d+ budget=16000 files=\d+`),
	} {
		if !want.MatchString(errs) {
			t.Errorf("stderr lacks %v:\n%s", want, errs)
		}
	}
	if strings.Contains(out, "level=") || !strings.HasPrefix(out, "token/token.go\n") {
		t.Errorf("stdout is not the plain file list:\n%s", out)
	}

	// Off by default.
	_, _, errs = run(t, "--files-only", "--root", repo, "fix token.Issue")
	if strings.Contains(errs, "level=") {
		t.Errorf("logs without --verbose:\n%s", errs)
	}

	// index logs its load and index phases too.
	code, _, errs = run(t, "index", "--verbose", "--quiet", "--root", repo, "--cache-dir", t.TempDir())
	if code != ExitOK {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`level=INFO msg=loaded phase=load took=\S+ lang=all files=\d+ `),
		regexp.MustCompile(`level=INFO msg=indexed phase=index took=\S+ nodes=\d+`),
	} {
		if !want.MatchString(errs) {
			t.Errorf("index --verbose: stderr lacks %v:\n%s", want, errs)
		}
	}
}

// TestProfileFlags checks the hidden --cpuprofile and --trace flags: both
// files are written, the trace in the runtime's format.
func TestProfileFlags(t *testing.T) {
	repo := writeRepo(t, smallRepo)
	dir := t.TempDir()
	prof, tr := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "run.trace")
	code, _, errs := run(t, "index", "--quiet", "--root", repo, "--cache-dir", t.TempDir(), "--cpuprofile", prof, "--trace", tr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("no CPU profile written: %v", err)
	}
	data, err := os.ReadFile(tr)
	if err != nil || !bytes.HasPrefix(data, []byte("go 1.")) {
		t.Errorf("no execution trace written (%d bytes, %v)", len(data), err)
	}
	if code, _, _ := run(t, "index", "--quiet", "--root", repo, "--cache-dir", t.TempDir(), "--trace", filepath.Join(dir, "missing", "x")); code == ExitOK {
		t.Error("--trace into a missing directory succeeded")
	}
}
