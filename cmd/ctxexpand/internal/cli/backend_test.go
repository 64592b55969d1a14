package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestBackendFlags(t *testing.T) {
	root, err := filepath.Abs("../../../../testdata/gosvc")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // in stderr
	}{
		{"unknown backend", []string{"--backend", "ctags", "q"}, ExitUsage, "--backend must be builtin or lsp"},
		{"command without lsp", []string{"--lsp-cmd", "gopls", "q"}, ExitUsage, "--lsp-cmd needs --backend lsp"},
		{"unclosed quote", []string{"--backend", "lsp", "--lsp-cmd", "'gopls", "q"}, ExitUsage, "unclosed ' quote"},
		{"server missing falls back", []string{"--backend", "lsp", "--lsp-cmd", "ctxexpand-no-such-server", "--files-only", "fix UserService.FindByEmail"},
			ExitOK, "lsp backend failed: language server did not start: ctxexpand-no-such-server not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(append([]string{"--root", root}, tt.args...), strings.NewReader(""), &out, &errb)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.wantCode, errb.String())
			}
			if !strings.Contains(errb.String(), tt.wantErr) {
				t.Errorf("stderr %q does not say %q", errb.String(), tt.wantErr)
			}
			if tt.wantCode == ExitOK && !strings.HasPrefix(out.String(), "internal/service/user.go\n") {
				t.Errorf("the built-in analysis did not rank: %q", out.String())
			}
		})
	}
}
