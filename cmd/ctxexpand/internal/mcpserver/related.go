package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxexpand/ctxexpand/engine"
)

// Limits of related_files.
const (
	DefaultRelatedLimit = 15
	MaxRelatedLimit     = 100
	maxRelatedWhy       = 3
)

// RelatedArgs are the arguments of related_files.
type RelatedArgs struct {
	Path     string `json:"path" jsonschema:"a repository file, relative to the repository root (internal/service/user.go, src/store/mem.rs); an absolute path inside the repository also works"`
	Limit    int    `json:"limit,omitempty" jsonschema:"most files to return, best first"`
	Strategy string `json:"strategy,omitempty" jsonschema:"how to walk from the file: focused (callers, callees, types, implementations and tests; the default), impact (mostly what depends on the file: callers, implementations and tests), broad (one step along every kind of edge), or several joined with +"`
	Depth    int    `json:"depth,omitempty" jsonschema:"graph steps to walk from the file's symbols; 0 means the strategy's default (2 for focused)"`
	Refresh  bool   `json:"refresh,omitempty" jsonschema:"reload the repository before answering (edits are normally noticed without it)"`
}

// RelatedFile is one neighbour of the file asked about.
type RelatedFile struct {
	Path     string   `json:"path"`
	Score    float64  `json:"score" jsonschema:"relevance, higher is closer; comparable within one answer"`
	Category string   `json:"category" jsonschema:"source, test, generated, vendored or example"`
	Lang     string   `json:"lang"`
	Reasons  []string `json:"reasons" jsonschema:"the strongest paths through the graph that connect the file, in words: 'seed internal/service/user.go → contains → UserService.FindByEmail → calls → UserRepository.GetByEmail'"`
	Symbols  []string `json:"symbols,omitempty" jsonschema:"the file's symbols that connect it, strongest first"`
}

// RelatedResult is the answer of related_files.
type RelatedResult struct {
	Path       string        `json:"path"`
	Files      []RelatedFile `json:"files"`
	Considered int           `json:"considered" jsonschema:"files with any connection before limit was applied"`
	Note       string        `json:"note,omitempty"`
}

func addRelatedTool(s *Server) {
	schema := schemaFor[RelatedArgs]()
	setMinLength(schema, "path", 1)
	setInt(schema, "limit", 1, MaxRelatedLimit, DefaultRelatedLimit)
	setDefault(schema, "strategy", engine.RelatedStrategy)
	setInt(schema, "depth", 0, MaxDepth, 0)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "related_files",
		Title: "Files connected to a file",
		Description: `Lists the repository files most closely connected to one file through the code: files whose functions its functions call or are called by, the types it uses, the interfaces it implements or whose implementations it names, and the tests that exercise it. Each file comes with the path through the symbol graph that connects it.
Use it before editing a file to see what else may need to change, or to find the tests of a file.`,
		InputSchema: schema,
		Annotations: readOnly(false),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in RelatedArgs) (*mcp.CallToolResult, *RelatedResult, error) {
		var out *RelatedResult
		res := s.call(ctx, "related_files", in.Refresh, func(ctx context.Context, sess *engine.Session) (*mcp.CallToolResult, error) {
			r, err := relatedFiles(ctx, sess, in)
			if err != nil {
				return nil, err
			}
			out = r
			return &mcp.CallToolResult{}, nil
		})
		if res.IsError {
			return res, nil, nil
		}
		return withJSON(res, out), out, nil
	})
}

// relatedFiles ranks the neighbours of a file (engine.RelatedRequest and
// Session.Related) and describes them.
func relatedFiles(ctx context.Context, sess *engine.Session, in RelatedArgs) (*RelatedResult, error) {
	limit := in.Limit
	if limit == 0 {
		limit = DefaultRelatedLimit
	}
	if limit < 1 || limit > MaxRelatedLimit {
		return nil, toolErrorf("limit must be between 1 and %d, got %d", MaxRelatedLimit, in.Limit)
	}
	if err := toolRequest(engine.RelatedRequest(sess.Root, "", in.Strategy, in.Depth, limit)); err != nil {
		return nil, err
	}
	p := strings.TrimSpace(in.Path)
	if p == "" {
		return nil, toolErrorf("path is empty: give a repository file such as internal/service/user.go")
	}
	rel, err := sess.AnalysedFile(p)
	if err != nil {
		return nil, &toolErr{err.Error()}
	}
	files, considered, err := sess.Related(ctx, engine.RelatedRequest(sess.Root, rel, in.Strategy, in.Depth, limit), rel, limit)
	if err != nil {
		return nil, toolErrorf("ranking the neighbours of %s: %v", rel, err)
	}
	res := &RelatedResult{Path: rel, Files: []RelatedFile{}, Considered: considered}
	for _, f := range files {
		rf := RelatedFile{
			Path:     f.Path,
			Score:    round4(f.Score),
			Category: f.Category.String(),
			Lang:     f.Lang.String(),
			Reasons:  f.Reasons[:min(len(f.Reasons), maxRelatedWhy)],
		}
		for i, h := range f.Symbols {
			if i == 5 {
				break
			}
			sym := &sess.Facts.Symbols[h.Sym]
			rf.Symbols = append(rf.Symbols, sym.QualName(f.Lang))
		}
		res.Files = append(res.Files, rf)
	}
	if len(res.Files) == 0 {
		res.Note = fmt.Sprintf("nothing in the symbol graph connects %s to another file: it may declare nothing that other files use, or its language was analysed from syntax only", rel)
	}
	return res, nil
}

func round4(x float64) float64 {
	return float64(int64(x*10000+0.5)) / 10000
}
