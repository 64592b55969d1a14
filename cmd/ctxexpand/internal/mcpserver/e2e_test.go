package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEndToEnd builds the real ctxexpand binary, starts `ctxexpand mcp`
// on the scenario repository as an MCP client would (a subprocess over
// stdio), lists the tools and calls each one.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ctxexpand")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, "./cmd/ctxexpand")
	build.Dir = filepath.Join("..", "..", "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := makeRepo(t, dir)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--root", root, "--tokenizer", "estimate", "--no-network")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\nstderr:\n%s", err, stderr.String())
	}
	defer func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	}()

	if got := cs.InitializeResult().ServerInfo.Name; got != "ctxexpand" {
		t.Errorf("server name %q", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"diff_context", "expand_context", "find_symbol", "related_files"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}

	call := func(name string, args map[string]any) (*mcp.CallToolResult, []string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res, texts(res)
	}

	// expand_context: the named method's file leads the bundle.
	res, tx := call("expand_context", map[string]any{"query": "fix UserService.find_by_email"})
	if res.IsError {
		t.Fatalf("expand_context: %v", tx)
	}
	if i := strings.Index(tx[0], "\n## "); i < 0 || !strings.HasPrefix(tx[0][i+4:], editFile) {
		t.Errorf("expand_context: first section is not %s:\n%.600s", editFile, tx[0])
	}
	if !strings.Contains(tx[0], "func (s *UserService) FindByEmail(") {
		t.Errorf("expand_context: FindByEmail's code is missing")
	}

	// find_symbol: the exact span of FindByEmail.
	res, tx = call("find_symbol", map[string]any{"name": "UserService.FindByEmail"})
	var sym FindSymbolResult
	if res.IsError || json.Unmarshal([]byte(tx[0]), &sym) != nil || len(sym.Definitions) == 0 {
		t.Fatalf("find_symbol: %v", tx)
	}
	span := symbolSpan(t, root, editFile, "func (s *UserService) FindByEmail(")
	if d := sym.Definitions[0]; d.Path != editFile || d.StartLine != span[0] || d.DeclLine != span[1] || d.EndLine != span[2] {
		t.Errorf("find_symbol: %+v, want %s lines %v", d, editFile, span)
	}

	// related_files: the repository contract and the HTTP handlers.
	res, tx = call("related_files", map[string]any{"path": editFile})
	var rel RelatedResult
	if res.IsError || json.Unmarshal([]byte(tx[0]), &rel) != nil {
		t.Fatalf("related_files: %v", tx)
	}
	var paths []string
	for _, f := range rel.Files {
		paths = append(paths, f.Path)
	}
	for _, want := range []string{"internal/repository/repository.go", "internal/httpapi/handlers.go"} {
		if !slices.Contains(paths, want) {
			t.Errorf("related_files: %s missing from %v", want, paths)
		}
	}

	// diff_context: the uncommitted edit, its hunk and its function.
	res, tx = call("diff_context", nil)
	if res.IsError {
		t.Fatalf("diff_context: %v", tx)
	}
	for _, want := range []string{
		"modified method UserService.FindByEmail (" + editFile + ":",
		"@@ -44,7 +44,7 @@ func (s *UserService) FindByEmail(",
		"+\t\t" + editNew,
		"Why: " + changedReason,
	} {
		if !strings.Contains(tx[0], want) {
			t.Errorf("diff_context: bundle lacks %q", want)
		}
	}

	// A bad argument is a tool error, and the server lives on.
	res, tx = call("expand_context", map[string]any{"query": "x", "format": "yaml"})
	if !res.IsError || !strings.Contains(tx[0], "invalid arguments for expand_context") {
		t.Errorf("bad format: isError=%v %q", res.IsError, tx)
	}
	res, tx = call("find_symbol", map[string]any{"name": "NewUserService"})
	if res.IsError || !strings.Contains(tx[0], `"name":"NewUserService"`) {
		t.Errorf("after an error: %v", tx)
	}
	if !strings.Contains(stderr.String(), "loaded "+root) {
		t.Errorf("stderr does not log the load:\n%s", stderr.String())
	}
}

// lockedBuffer collects the server's stderr, written by the goroutine
// that copies it and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
