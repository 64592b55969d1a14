package mcpserver

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxexpand/ctxexpand/internal/testenv"
)

// The scenario repository of the tool tests: a copy of testdata/gosvc
// made a git repository with one commit, then one edit inside
// UserService.FindByEmail left uncommitted.
const (
	editFile = "internal/service/user.go"
	editOld  = `return nil, fmt.Errorf("finding user by email: %w", err)`
	editNew  = `return nil, fmt.Errorf("looking up user by email %q: %w", email, err)`
	// editLine is the line of the edit in editFile.
	editLine = 47
)

// makeRepo builds the scenario repository under dir and returns its root.
func makeRepo(t testing.TB, dir string) string {
	t.Helper()
	root := filepath.Join(dir, "gosvc")
	src := filepath.Join("..", "..", "..", "..", "testdata", "gosvc")
	if err := copyTree(src, root); err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}
	runGit(t, root, "init", "-q", "-b", "main")
	runGit(t, root, "add", "-A")
	runGit(t, root, "commit", "-q", "-m", "initial import")
	p := filepath.Join(root, filepath.FromSlash(editFile))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), editOld) {
		t.Fatalf("%s no longer holds %q; update the scenario", editFile, editOld)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), editOld, editNew, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func runGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// shared is one scenario repository and one server for the in-process
// tool tests, which only read it (loading gosvc costs seconds).
var shared struct {
	once sync.Once
	dir  string
	root string
	srv  *Server
	cs   *mcp.ClientSession
	err  error
}

func TestMain(m *testing.M) {
	code := testenv.Run(m)
	if shared.cs != nil {
		shared.cs.Close()
	}
	if shared.srv != nil {
		shared.srv.Close()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// sharedClient returns a client connected in memory to the shared server.
func sharedClient(t testing.TB) (*mcp.ClientSession, string) {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "mcpserver-test-")
		if shared.err != nil {
			return
		}
		shared.root = makeRepo(t, shared.dir)
		shared.srv, shared.err = New(Options{Root: shared.root, Tokenizer: "estimate", NoNetwork: true})
		if shared.err != nil {
			return
		}
		shared.cs, shared.err = connect(context.Background(), shared.srv)
	})
	if shared.err != nil {
		t.Fatalf("setting up the shared server: %v", shared.err)
	}
	return shared.cs, shared.root
}

// connect starts srv on an in-memory transport and connects a client.
func connect(ctx context.Context, srv *Server) (*mcp.ClientSession, error) {
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
		return nil, err
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	return c.Connect(ctx, ct, nil)
}

// callTool calls a tool and returns the result and its text contents.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, []string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	return res, texts(res)
}

func texts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}
