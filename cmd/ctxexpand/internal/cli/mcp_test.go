package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPUsageErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--tokenizer", "words"}, "--tokenizer must be o200k, cl100k or estimate"},
		{[]string{"mcp", "--root", filepath.Join(dir, "missing")}, "--root"},
		{[]string{"mcp", "--timeout", "-1s"}, "--timeout must not be negative"},
		{[]string{"mcp", "extra"}, "mcp takes no arguments"},
		{[]string{"mcp", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"mcp", "--root", string(filepath.Separator)}, "refusing to serve"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != ExitUsage {
				t.Errorf("exit code %d, want %d (usage); stderr: %s", code, ExitUsage, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout must stay clean for the protocol, got %q", stdout.String())
			}
		})
	}
}

// TestMCPServesOnItsStreams runs the command on pipes, as an MCP client
// would run the process, and lists the tools; stdout carries only the
// protocol, the log goes to stderr, and the command exits when the client
// closes its end.
func TestMCPServesOnItsStreams(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	// No --root: the folder comes from the variable Cursor sets.
	t.Setenv("WORKSPACE_FOLDER_PATHS", root+","+t.TempDir())
	go func() {
		code := Main([]string{"mcp", "--check-interval", "-1s"}, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 4 {
		t.Errorf("%d tools, want 4", len(res.Tools))
	}
	if v := cs.InitializeResult().ServerInfo.Version; strings.HasPrefix(v, "ctxexpand") || v == "" {
		t.Errorf("server version %q should be the bare version", v)
	}
	cs.Close()
	select {
	case code := <-done:
		if code != ExitOK {
			t.Errorf("exit code %d after the client left; stderr: %s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("the command did not exit after the client closed its end")
	}
	if !strings.Contains(stderr.String(), "serving "+root+" on stdio") {
		t.Errorf("stderr %q lacks the serving line", stderr.String())
	}
}
