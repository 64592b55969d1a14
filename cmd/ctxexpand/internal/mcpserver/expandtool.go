package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/expand"
)

// Defaults and limits of the bundle tools' arguments.
const (
	// DefaultBudget is the token budget of a page when none is given. It
	// stays well under the 25,000 tokens Claude Code accepts from a tool
	// by default, leaving room for the paging note.
	DefaultBudget   = 12000
	MinBudget       = 100
	MaxBudget       = 1_000_000
	DefaultMaxFiles = 30
	MaxMaxFiles     = 200
	MaxDepth        = expand.MaxDepth
)

// ExpandArgs are the arguments of expand_context.
type ExpandArgs struct {
	Query    string `json:"query" jsonschema:"the task in words, as you would tell a colleague: 'fix UserService.find_by_email returning nil for mixed-case emails', 'how does the server start'. Names of functions, types, files and pasted stack traces or error messages sharpen the result. Inline references pin things: @path/to/file.go, @path/to/file.go#L10-20, @Symbol, @grep:\"regex\", @search:\"text\""`
	Budget   int    `json:"budget,omitempty" jsonschema:"token budget of the returned page; the bundle never exceeds it"`
	Format   string `json:"format,omitempty" jsonschema:"output format of the bundle"`
	Strategy string `json:"strategy,omitempty" jsonschema:"expansion strategy: auto (chosen from the query), focused (named symbols, their callers, callees, types and tests), broad (everything matching the query's concepts), entrypoint (from main packages and cmd/ downward), semantic (lexical similarity), impact (callers and tests of changed code); several may be joined with +, e.g. focused+semantic"`
	MaxFiles int    `json:"max_files,omitempty" jsonschema:"length of the ranked file list that the pages are cut from"`
	Page     int    `json:"page,omitempty" jsonschema:"which page of the ranked files to return: 1 is the best files that fit the budget; page N+1 holds the next ranked files that pages 1..N did not show with their relevant code. Each answer says whether another page exists"`
	Depth    int    `json:"depth,omitempty" jsonschema:"graph steps to expand from each seed; 0 lets the strategy and query choose"`
	NoTests  bool   `json:"no_tests,omitempty" jsonschema:"leave test files out of the ranking"`
	Refresh  bool   `json:"refresh,omitempty" jsonschema:"reload the repository before answering (edits are normally noticed without it)"`
}

var formats = []any{"markdown", "xml", "json", "plain"}

func addExpandTool(s *Server) {
	schema := schemaFor[ExpandArgs]()
	setInt(schema, "budget", MinBudget, MaxBudget, DefaultBudget)
	setEnum(schema, "format", formats, "markdown")
	setDefault(schema, "strategy", "auto")
	setInt(schema, "max_files", 1, MaxMaxFiles, DefaultMaxFiles)
	setInt(schema, "page", 1, 1_000, 1)
	setInt(schema, "depth", 0, MaxDepth, 0)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "expand_context",
		Title: "Expand a task into the code it needs",
		Description: `Finds the code a task is about and returns it as one context bundle within a token budget.
The repository is analysed into a symbol graph; the symbols, files, stack frames and words of the query seed a walk along calls, references, implementations and tests; files are ranked, and each is shown whole, as its relevant spans, as a skeleton of signatures, or as a one-line summary, with the reason it is there.
Results are paged: page 1 holds the best files that fit the budget. When the answer ends with "more ranked files remain", call again with the same arguments and page=2 (then 3, ...) for the next files; a page never repeats a file an earlier page showed with its relevant code.`,
		InputSchema: schema,
		Annotations: readOnly(!s.opts.NoNetwork),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in ExpandArgs) (*mcp.CallToolResult, any, error) {
		return s.call(ctx, "expand_context", in.Refresh, func(ctx context.Context, sess *engine.Session) (*mcp.CallToolResult, error) {
			return s.expandContext(ctx, sess, in)
		}), nil, nil
	})
}

// bundleRequest maps the bundle settings that expand_context and
// diff_context share onto an engine request at sess's root, with this
// server's defaults and limits (DefaultBudget, MaxBudget and the like);
// the caller adds its own and has the engine check the rest (toolRequest).
// It returns the page asked for beside the request.
func (s *Server) bundleRequest(sess *engine.Session, budget int, format, strategy string, maxFiles, page, depth int) (engine.Request, int, error) {
	req := engine.Request{Root: sess.Root, Budget: budget, MaxFiles: maxFiles, Depth: depth, Strategy: strategy, Format: format, Tokenizer: s.opts.Tokenizer}
	if req.Budget == 0 {
		req.Budget = DefaultBudget
	}
	if req.Budget < MinBudget || req.Budget > MaxBudget {
		return req, 0, toolErrorf("budget must be between %d and %d tokens, got %d", MinBudget, MaxBudget, budget)
	}
	if req.MaxFiles == 0 {
		req.MaxFiles = DefaultMaxFiles
	}
	if req.MaxFiles < 1 || req.MaxFiles > MaxMaxFiles {
		return req, 0, toolErrorf("max_files must be between 1 and %d, got %d", MaxMaxFiles, maxFiles)
	}
	if page == 0 {
		page = 1
	}
	if page < 1 {
		return req, 0, toolErrorf("page must be 1 or more, got %d", page)
	}
	return req, page, nil
}

// toolRequest checks req (engine.Request.Validate) and words a fault as
// the tool's error, naming the argument: "depth must be between 0 and
// 10, got 11", "strategy: unknown strategy …".
func toolRequest(req engine.Request) error {
	if err := req.Validate(); err != nil {
		return toolErrorf("%v", err)
	}
	return nil
}

func (s *Server) expandContext(ctx context.Context, sess *engine.Session, in ExpandArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, toolErrorf("query is empty: say what you want to do, e.g. \"fix UserService.FindByEmail returning nil\"")
	}
	req, page, err := s.bundleRequest(sess, in.Budget, in.Format, in.Strategy, in.MaxFiles, in.Page, in.Depth)
	if err != nil {
		return nil, err
	}
	req.Query, req.NoTests, req.NoNetwork = in.Query, in.NoTests, s.opts.NoNetwork
	if err := toolRequest(req); err != nil {
		return nil, err
	}
	return s.pagedBundle(ctx, sess, req, page, "expand_context")
}

// pagedBundle answers req and returns the requested page of its bundle
// followed by a note on what the page held and what remains.
func (s *Server) pagedBundle(ctx context.Context, sess *engine.Session, req engine.Request, page int, tool string) (*mcp.CallToolResult, error) {
	budget := req.Budget
	req.Budget = 0 // rank only; the pages are assembled below
	out, err := sess.Query(ctx, req)
	if err != nil {
		return nil, toolErrorf("%s failed: %v", tool, err)
	}
	req.Budget = budget
	if strings.TrimSpace(req.Query) == "" {
		// The caller seeds the ranking itself (diff_context): the plan's
		// advice to write a query does not apply.
		out.Notes = without(out.Notes, out.Plan.Warnings)
	}
	pg, err := pageOf(ctx, sess, out, req, page)
	if err != nil {
		return nil, err
	}
	text := string(pg.Bundle.Output)
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	res.Content = append(res.Content, &mcp.TextContent{Text: describePage(pg, tool)})
	if out.Partial {
		res.Content = append(res.Content, &mcp.TextContent{Text: "note: partial result: the time limit cut the analysis short."})
	}
	return res, nil
}

// without returns xs without the strings in drop.
func without(xs, drop []string) []string {
	var out []string
	for _, x := range xs {
		keep := true
		for _, d := range drop {
			if x == d {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, x)
		}
	}
	return out
}
