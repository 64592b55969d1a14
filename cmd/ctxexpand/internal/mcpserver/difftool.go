package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxexpand/ctxexpand/diffmode"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
)

// maxUntracked caps the untracked files a working-tree diff adds.
const maxUntracked = 50

// DiffArgs are the arguments of diff_context.
type DiffArgs struct {
	Base     string `json:"base,omitempty" jsonschema:"the revision to compare from (branch, tag, commit, HEAD~3). Omitted: HEAD, or head's parent when only head is given"`
	Head     string `json:"head,omitempty" jsonschema:"the revision to compare to. Omitted: the working tree as it is on disk (uncommitted and untracked changes included)"`
	Query    string `json:"query,omitempty" jsonschema:"optional: what the change is for or what to look at ('review the token expiry fix'); its names and words also rank the files"`
	Budget   int    `json:"budget,omitempty" jsonschema:"token budget of the returned page; the bundle never exceeds it"`
	Format   string `json:"format,omitempty" jsonschema:"output format of the bundle"`
	Strategy string `json:"strategy,omitempty" jsonschema:"expansion strategy from the changed code; impact (callers, implementations, owning types and tests) is meant for diffs"`
	MaxFiles int    `json:"max_files,omitempty" jsonschema:"length of the ranked file list that the pages are cut from (changed files always count)"`
	Page     int    `json:"page,omitempty" jsonschema:"which page of the ranked files to return, as in expand_context; the diff itself leads page 1"`
	Refresh  bool   `json:"refresh,omitempty" jsonschema:"reload the repository before answering (edits are normally noticed without it)"`
}

func addDiffTool(s *Server) {
	schema := schemaFor[DiffArgs]()
	setInt(schema, "budget", MinBudget, MaxBudget, DefaultBudget)
	setEnum(schema, "format", formats, "markdown")
	setDefault(schema, "strategy", "impact")
	setInt(schema, "max_files", 1, MaxMaxFiles, DefaultMaxFiles)
	setInt(schema, "page", 1, 1_000, 1)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "diff_context",
		Title: "Context for reviewing a git diff",
		Description: `Returns what a reviewer of a git diff needs, within a token budget: the diff itself, the changed code in its files, and the code it affects — callers of changed functions, implementations of changed interfaces and traits, the types they belong to, and the tests that exercise them — each with the reason it is there.
Without arguments it reviews the working tree against HEAD (uncommitted and untracked changes). base alone compares the working tree with base; base and head compare two revisions; head alone reviews that one commit. The repository is analysed as it is on disk, so context for a head other than the checked-out tree is approximate. Paged like expand_context.`,
		InputSchema: schema,
		Annotations: readOnly(false),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in DiffArgs) (*mcp.CallToolResult, any, error) {
		return s.call(ctx, "diff_context", in.Refresh, func(ctx context.Context, sess *engine.Session) (*mcp.CallToolResult, error) {
			return s.diffContext(ctx, sess, in)
		}), nil, nil
	})
}

func (s *Server) diffContext(ctx context.Context, sess *engine.Session, in DiffArgs) (*mcp.CallToolResult, error) {
	strategy := in.Strategy
	if strings.TrimSpace(strategy) == "" {
		strategy = expand.Impact.Name
	}
	req, page, err := s.bundleRequest(sess, in.Budget, in.Format, strategy, in.MaxFiles, in.Page, 0)
	if err != nil {
		return nil, err
	}
	req.Kind = query.KindDiff // what ReviewRequest makes of it: no query needed
	if err := toolRequest(req); err != nil {
		return nil, err
	}
	rng, err := diffmode.ResolveRange(ctx, sess.Root, in.Base, in.Head)
	switch {
	case errors.Is(err, diffmode.ErrNoWorkTree):
		return nil, toolErrorf("%s is not inside a git work tree: diff_context needs git history; use expand_context instead", sess.Root)
	case err != nil:
		return nil, toolErrorf("%v", err)
	}
	ch, err := diffmode.ReadRange(ctx, sess.Root, rng.Range, maxUntracked)
	if err != nil {
		return nil, toolErrorf("reading the diff of the %s: %v", rng.Label, err)
	}
	d := ch.Diff
	if len(d.Files) == 0 {
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("No changes: the diff of the %s is empty. Give base (and head) to review committed changes, e.g. base=\"main\".", rng.Label)}}}
		return res, nil
	}
	ch.What = "the " + rng.Label
	if rng.SubjectsTo != "" && rng.SubjectsTo != rng.Base {
		g := &diffmode.Git{Dir: sess.Root}
		ch.Subjects, _ = g.Subjects(ctx, rng.Base, rng.SubjectsTo, 10)
	}
	rv, err := sess.ReviewChange(ctx, ch, in.Query)
	if err != nil {
		return nil, toolErrorf("mapping the diff to symbols: %v", err)
	}
	rv.Notes = append(rng.Notes, ch.Notes...)
	req = engine.ReviewRequest(req, rv)
	res, err := s.pagedBundle(ctx, sess, req, page, "diff_context")
	if err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("diff: %s, %s.", rng.Label, changeSummary(d.Files))
	res.Content = append(res.Content, &mcp.TextContent{Text: summary})
	return res, nil
}

// changeSummary counts the files by status: "3 files changed (1 added)".
func changeSummary(files []diffmode.File) string {
	by := map[diffmode.Status]int{}
	for i := range files {
		by[files[i].Status]++
	}
	s := fmt.Sprintf("%d file", len(files))
	if len(files) != 1 {
		s += "s"
	}
	s += " changed"
	var parts []string
	for _, st := range []diffmode.Status{diffmode.Added, diffmode.Deleted, diffmode.Renamed, diffmode.Copied} {
		if by[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", by[st], st))
		}
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}
