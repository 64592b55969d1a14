package engine

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

func TestLoadBackendChecks(t *testing.T) {
	root := filepath.Join(repoRoot(t), "testdata", "gosvc")
	for _, opt := range []LoadOptions{
		{Backend: "clangd"},
		{Backend: BackendLSP, LSPCmd: `gopls "unclosed`},
		{Backend: BackendLSP, LSPCmd: "   "},
	} {
		if _, err := Load(context.Background(), root, opt); err == nil {
			t.Errorf("Load with backend %q and command %q succeeded", opt.Backend, opt.LSPCmd)
		}
	}
}

// TestLoadBackendLSPFallsBack: a language server that cannot start leaves
// the built-in analysis in charge, with a problem saying so.
func TestLoadBackendLSPFallsBack(t *testing.T) {
	root := filepath.Join(repoRoot(t), "testdata", "gosvc")
	facts, err := Load(context.Background(), root, LoadOptions{Backend: BackendLSP, LSPCmd: "ctxexpand-no-such-language-server --stdio"})
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, p := range facts.Problems {
		if strings.Contains(p.Msg, "lsp backend") {
			notes = append(notes, p.Kind.String()+": "+p.Msg)
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "load: lsp backend failed: ") ||
		!strings.Contains(notes[0], "ctxexpand-no-such-language-server") || !strings.HasSuffix(notes[0], "; using the built-in analysis") {
		t.Errorf("fallback notes %q: want one saying the server failed and the built-in analysis is used", notes)
	}
	builtin := session(t, "gosvc").Facts
	if diff := cmp.Diff(builtin.Summary(), facts.Summary()); diff != "" {
		t.Errorf("the fallback facts differ from the built-in analysis (-builtin +fallback):\n%s", diff)
	}
}

// TestRunBackendLSP ranks with gopls's facts, where gopls is installed:
// the files a fix of FindByEmail needs come first, as with the built-in
// analysis.
func TestRunBackendLSP(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		if _, err := exec.LookPath(filepath.Join(goPath(t), "bin", "gopls")); err != nil {
			t.Skip("gopls is not installed; go install golang.org/x/tools/gopls@v0.21.1")
		}
	}
	root := filepath.Join(repoRoot(t), "testdata", "gosvc")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := Run(ctx, Request{Root: root, Query: "fix UserService.find_by_email", Backend: BackendLSP, MaxFiles: 5, Load: LoadOptions{NoHistory: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range out.Facts.Problems {
		if p.Kind == analyze.ProblemLoad {
			t.Errorf("problem: %v", p)
		}
	}
	var got []string
	for _, f := range out.Result.Files {
		got = append(got, f.Path)
	}
	// The language server must lead to the ranking the built-in analysis
	// gives, whatever the ranking's weights are today.
	builtin, err := Run(ctx, Request{Root: root, Query: "fix UserService.find_by_email", MaxFiles: 5, Load: LoadOptions{NoHistory: true}})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range builtin.Result.Files[:3] {
		want = append(want, f.Path)
	}
	if len(got) < len(want) {
		t.Fatalf("ranked %q", got)
	}
	if diff := cmp.Diff(want, got[:len(want)]); diff != "" {
		t.Errorf("top files with gopls (-want +got):\n%s", diff)
	}
}

func goPath(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return strings.TrimSpace(string(out))
}
