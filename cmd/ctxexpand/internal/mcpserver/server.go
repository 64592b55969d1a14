package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// Options configures a Server. Root is required; the zero value of every
// other field means its default.
type Options struct {
	// Root is the absolute path of the repository served.
	Root string
	// Version is reported to clients in the initialize handshake.
	Version string
	// Load configures loading the repository, unless Configure is set:
	// then it is called for the load options at start and whenever the
	// ignore rules or the configuration change.
	Load      engine.LoadOptions
	Configure func() (engine.LoadOptions, error)
	// Tokenizer counts bundle tokens: o200k (default), cl100k or estimate.
	Tokenizer string
	// NoNetwork refuses @url references in queries.
	NoNetwork bool
	// Timeout bounds each tool call, loading included; 0 means none.
	Timeout time.Duration
	// Poll compares the files' metadata at every call instead of
	// watching the tree (see package engine/resident).
	Poll bool
	// Logf receives progress lines (loads, reloads, recovered panics); the
	// command sends them to stderr, which MCP clients keep as the server's
	// log. Nil discards them.
	Logf func(format string, args ...any)

	// open and reopen load the repository; nil means the pipeline's.
	// Tests replace them.
	open   func(ctx context.Context, root string, opt engine.LoadOptions) (*engine.Session, error)
	reopen func(ctx context.Context, prev *engine.Session, opt engine.LoadOptions, ch engine.Changes) (*engine.Session, error)
}

// Server serves one repository over MCP. Tool calls run one at a time on
// the resident index (package engine/resident), which every call finds current
// with the files on disk.
type Server struct {
	opts Options
	mcp  *mcp.Server
	// work is a one-slot semaphore held by a running tool call.
	work chan struct{}
	repo *resident.Repo
	// gen is the generation the last call answered from, for the note
	// that says the repository was reloaded.
	gen uint64
	// refreshed: the last refresh asked for is not answered yet.
	refreshed bool
}

// New builds a server for opts.Root with every tool registered. Nothing
// is loaded until the first tool call.
func New(opts Options) (*Server, error) {
	if opts.Root == "" {
		return nil, errors.New("mcpserver: no repository root given")
	}
	if opts.Tokenizer == "" {
		opts.Tokenizer = "o200k"
	}
	if opts.Version == "" {
		opts.Version = "devel"
	}
	s := &Server{opts: opts, work: make(chan struct{}, 1)}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "ctxexpand", Title: "ctxexpand context expander", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		// No logging capability: progress goes to stderr.
		Capabilities: &mcp.ServerCapabilities{},
	})
	s.mcp.AddReceivingMiddleware(s.guardToolCalls, explainArgumentErrors)
	addExpandTool(s)
	addFindSymbolTool(s)
	addRelatedTool(s)
	addDiffTool(s)
	return s, nil
}

// instructions tell a client's model when to use the tools.
const instructions = `ctxexpand serves one Go or Rust repository. It analyses the code into a symbol graph (calls, references, implementations, tests) and answers with the code a task needs, within a token budget.
Use expand_context first for a task in words ("fix UserService.find_by_email returning nil"); ask for page=2, 3, ... when the answer says more ranked files remain.
Use find_symbol to locate a definition by name, related_files to see what a file connects to, and diff_context to review uncommitted changes or a range of commits.
The server notices edited files by itself; pass refresh=true to force a reload.`

// MCP is the underlying SDK server, for callers that connect their own
// transport (tests use in-memory transports).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves on t until the client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// Close stops the resident index, once the writes to the on-disk index
// are done.
func (s *Server) Close() error {
	s.work <- struct{}{}
	defer func() { <-s.work }()
	if s.repo != nil {
		return s.repo.Close()
	}
	return nil
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// toolErr is a failure the agent can act on: it becomes a tool result
// with isError set and the message as its text.
type toolErr struct{ msg string }

func (e *toolErr) Error() string { return e.msg }

func toolErrorf(format string, args ...any) error {
	return &toolErr{fmt.Sprintf(format, args...)}
}

// errorResult is the tool result of a failed call.
func errorResult(err error) *mcp.CallToolResult {
	r := &mcp.CallToolResult{}
	r.SetError(err)
	return r
}

// call runs one tool call: it waits for its turn, applies the time limit,
// gets the session (loading it if need be) and runs fn, turning every
// error and any panic into a tool error so that the server never dies on
// a request.
func (s *Server) call(ctx context.Context, tool string, refresh bool, fn func(ctx context.Context, sess *engine.Session) (*mcp.CallToolResult, error)) (res *mcp.CallToolResult) {
	select {
	case s.work <- struct{}{}:
	case <-ctx.Done():
		return errorResult(toolErrorf("%s was cancelled while waiting for another call to finish", tool))
	}
	defer func() { <-s.work }()
	defer func() {
		if p := recover(); p != nil {
			s.logf("panic in %s: %v\n%s", tool, p, debug.Stack())
			res = errorResult(toolErrorf("internal error in %s: %v. This is a bug in ctxexpand; please report it. Other tools and other arguments still work", tool, p))
		}
	}()
	if s.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opts.Timeout)
		defer cancel()
	}
	repo, err := s.openRepo(ctx)
	if err != nil {
		return errorResult(err)
	}
	if refresh {
		repo.Refresh()
		s.refreshed = true
	}
	snap, err := repo.Use(ctx, func(snap *resident.Snapshot) error {
		var err error
		res, err = fn(ctx, snap.Session)
		return err
	})
	if errors.Is(err, resident.ErrBusy) {
		return errorResult(toolErrorf("%v", err))
	}
	if snap == nil {
		return errorResult(loadError(ctx, s.opts.Root, err))
	}
	if err != nil {
		if ctx.Err() != nil && !isToolErr(err) {
			return errorResult(toolErrorf("%s did not finish: %v (the server's --timeout is %v); narrow the request or raise --timeout", tool, ctx.Err(), s.opts.Timeout))
		}
		return errorResult(err)
	}
	if s.gen != 0 && snap.Gen != s.gen {
		why := "reloaded: files changed on disk"
		if s.refreshed {
			why = "reloaded on request"
		}
		res.Content = append(res.Content, &mcp.TextContent{Text: "note: repository " + why + "."})
	}
	s.gen = snap.Gen
	s.refreshed = false
	return res
}

func isToolErr(err error) bool {
	var te *toolErr
	return errors.As(err, &te)
}

// guardToolCalls keeps a tool call from taking the server down: it reads
// "arguments": null as no arguments (the SDK would apply schema defaults
// to a nil map and panic), and turns a panic anywhere in the call into a
// tool error.
func (s *Server) guardToolCalls(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		name := ""
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			name = p.Name
			if a := bytes.TrimSpace(p.Arguments); len(a) == 0 || bytes.Equal(a, []byte("null")) {
				p.Arguments = json.RawMessage("{}")
			}
		}
		defer func() {
			if p := recover(); p != nil {
				s.logf("panic in %s: %v\n%s", name, p, debug.Stack())
				res, err = errorResult(toolErrorf("internal error in %s: %v. This is a bug in ctxexpand; please report it. Other tools and other arguments still work", name, p)), nil
			}
		}()
		return next(ctx, method, req)
	}
}

// schemaPath is a property's place in a validation message.
var schemaPath = regexp.MustCompile(`validating /properties/([A-Za-z0-9_]+): `)

// explainArgumentErrors rewrites the SDK's schema validation failures
// ("validating \"arguments\": …") into a message that says which tool
// refused what and how to fix the call.
func explainArgumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "tools/call" || err != nil {
			return res, err
		}
		r, ok := res.(*mcp.CallToolResult)
		if !ok || !r.IsError || len(r.Content) != 1 {
			return res, err
		}
		tc, ok := r.Content[0].(*mcp.TextContent)
		if !ok || !strings.HasPrefix(tc.Text, `validating "arguments"`) {
			return res, err
		}
		name := ""
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			name = p.Name
		}
		detail := strings.TrimPrefix(tc.Text, `validating "arguments": `)
		detail = strings.TrimPrefix(detail, "validating root: ")
		detail = schemaPath.ReplaceAllString(detail, "$1: ")
		tc.Text = fmt.Sprintf("invalid arguments for %s: %s. Fix the arguments to match the tool's input schema (see tools/list) and call again.", name, strings.TrimSpace(detail))
		return res, err
	}
}
