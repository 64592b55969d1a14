package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolCalls measures one call of each tool on the loaded
// scenario repository, protocol round trip included (in memory): what an
// agent waits for once the session is loaded.
func BenchmarkToolCalls(b *testing.B) {
	cs, _ := sharedClient(b)
	calls := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"expand_context", "expand_context", map[string]any{"query": "fix UserService.find_by_email"}},
		{"expand_context_page3", "expand_context", map[string]any{"query": "fix UserService.find_by_email", "budget": 2000, "page": 3}},
		{"find_symbol", "find_symbol", map[string]any{"name": "UserService.FindByEmail"}},
		{"related_files", "related_files", map[string]any{"path": editFile}},
		{"diff_context", "diff_context", map[string]any{}},
	}
	for _, c := range calls {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatalf("%v %v", err, texts(res))
				}
			}
		})
	}
}
