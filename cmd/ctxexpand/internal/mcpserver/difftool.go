package mcpserver

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/pipeline"
	"github.com/ctxexpand/ctxexpand/expand"
)

// Limits of diff_context.
const (
	// maxChangedRanges caps the explicit places a diff pins; a larger
	// diff pins its files' first ranges and says so.
	maxChangedRanges = 400
	// maxUntracked caps the untracked files a working-tree diff adds.
	maxUntracked = 50
	// diffReason is the reason of every place a diff pins.
	diffReason = "changed in diff"
)

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
		return s.call(ctx, "diff_context", in.Refresh, func(ctx context.Context, sess *pipeline.Session) (*mcp.CallToolResult, error) {
			return s.diffContext(ctx, sess, in)
		}), nil, nil
	})
}

// diffRange is what diff_context compares, in words and as git arguments.
type diffRange struct {
	args  []string // after "git diff"
	label string   // "working tree against HEAD", "main..feature"
	notes []string
	// workTree is set when the new side is the working tree.
	workTree bool
}

// resolveRange checks the revisions and decides what to compare.
func resolveRange(ctx context.Context, root string, base, head string) (diffRange, error) {
	base, head = strings.TrimSpace(base), strings.TrimSpace(head)
	if err := inGitRepo(ctx, root); err != nil {
		return diffRange{}, err
	}
	headCommit, headErr := checkRev(ctx, root, "HEAD", "HEAD")
	switch {
	case base == "" && head == "":
		if headErr != nil {
			return diffRange{}, toolErrorf("the repository has no commit yet, so there is nothing to compare the working tree with; commit once, or give base")
		}
		return diffRange{args: []string{"HEAD"}, label: "working tree against HEAD", workTree: true}, nil
	case head == "":
		if _, err := checkRev(ctx, root, "base", base); err != nil {
			return diffRange{}, err
		}
		return diffRange{args: []string{base}, label: "working tree against " + base, workTree: true}, nil
	}
	hc, err := checkRev(ctx, root, "head", head)
	if err != nil {
		return diffRange{}, err
	}
	if base == "" {
		base = head + "^"
		if _, err := checkRev(ctx, root, "base", base); err != nil {
			return diffRange{}, toolErrorf("head %q has no parent commit to compare with; give base", head)
		}
	} else if _, err := checkRev(ctx, root, "base", base); err != nil {
		return diffRange{}, err
	}
	r := diffRange{args: []string{base, head}, label: base + ".." + head}
	if headErr != nil || hc != headCommit {
		r.notes = append(r.notes, fmt.Sprintf("the repository was analysed as it is on disk, not at %s: line numbers of the surrounding context may differ from that revision", head))
	}
	return r, nil
}

func (s *Server) diffContext(ctx context.Context, sess *pipeline.Session, in DiffArgs) (*mcp.CallToolResult, error) {
	strategy := in.Strategy
	if strings.TrimSpace(strategy) == "" {
		strategy = expand.Impact.Name
	}
	a, err := checkBundleArgs(in.Budget, in.Format, strategy, in.MaxFiles, in.Page, 0)
	if err != nil {
		return nil, err
	}
	rng, err := resolveRange(ctx, sess.Root, in.Base, in.Head)
	if err != nil {
		return nil, err
	}
	// --relative: paths relative to the served root, which may be below
	// the top of the git work tree; changes outside it are left out.
	args := append([]string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "-U3", "--relative"}, rng.args...)
	args = append(args, "--")
	text, cut, err := git(ctx, sess.Root, maxDiffBytes, args...)
	if err != nil {
		return nil, toolErrorf("running git diff (%s): %v", rng.label, err)
	}
	files, probs := ParseUnified(string(text))
	notes := rng.notes
	if cut {
		notes = append(notes, fmt.Sprintf("the diff is larger than %d MiB; the rest was not read", maxDiffBytes>>20))
	}
	if len(probs) > 0 {
		notes = append(notes, fmt.Sprintf("%d part(s) of the diff could not be read (first: %v)", len(probs), probs[0]))
	}
	if rng.workTree {
		untracked, more, err := untrackedFiles(ctx, sess.Root)
		if err != nil {
			notes = append(notes, "untracked files could not be listed: "+err.Error())
		}
		files = append(files, untracked...)
		if more {
			notes = append(notes, fmt.Sprintf("only the first %d untracked files are included", maxUntracked))
		}
	}
	if len(files) == 0 {
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("No changes: the diff of the %s is empty. Give base (and head) to review committed changes, e.g. base=\"main\".", rng.label)}}}
		return res, nil
	}
	explicit, extras, more := diffPlaces(sess, files)
	if more > 0 {
		notes = append(notes, fmt.Sprintf("the diff changes more places than the %d pinned; %d were left to ranking", maxChangedRanges, more))
	}
	// Without a query the diff alone seeds the ranking: words such as
	// "review" or "changes" would only add lexical noise.
	query := strings.TrimSpace(in.Query)
	req := pipeline.Request{
		Root:      sess.Root,
		Query:     query,
		Budget:    a.budget,
		MaxFiles:  a.maxFiles,
		Strategy:  a.strategy,
		Format:    a.format,
		Tokenizer: s.opts.Tokenizer,
		NoNetwork: true,
		Explicit:  explicit,
		Extras:    extras,
	}
	res, err := s.pagedBundle(ctx, sess, req, a.page, "diff_context")
	if err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("diff: %s, %s.", rng.label, changeSummary(files))
	res.Content = append(res.Content, &mcp.TextContent{Text: summary})
	for _, n := range notes {
		res.Content = append(res.Content, &mcp.TextContent{Text: "note: " + n + "."})
	}
	return res, nil
}

// diffPlaces maps the changed files to explicit places (each run of
// changed lines in an analysed source file) and extras (each file's part
// of the diff, in path order). It returns how many places were over the
// cap.
func diffPlaces(sess *pipeline.Session, files []FileDiff) ([]expand.Explicit, []pipeline.Extra, int) {
	sort.SliceStable(files, func(i, j int) bool { return files[i].Path() < files[j].Path() })
	var explicit []expand.Explicit
	var extras []pipeline.Extra
	over := 0
	for i := range files {
		f := &files[i]
		title := diffTitle(f)
		content := f.Text
		if f.Binary {
			content = "binary file changed\n"
		}
		extras = append(extras, pipeline.Extra{Kind: "diff", Title: title, Content: content, Lang: "diff"})
		if f.NewPath == "" || f.Binary {
			continue
		}
		if _, ok := sess.Facts.FileByPath(f.NewPath); !ok {
			continue // not analysed source: the diff extra shows it
		}
		if f.OldPath == "" && len(f.Hunks) == 0 {
			// An untracked file: all of it is new.
			explicit, over = addPlace(explicit, over, expand.Explicit{Path: f.NewPath, Reason: "new file, not yet tracked by git"})
			continue
		}
		for _, h := range f.Hunks {
			for _, r := range h.Changed {
				explicit, over = addPlace(explicit, over, expand.Explicit{Path: f.NewPath, StartLine: r.Start, EndLine: r.End, Reason: diffReason})
			}
		}
	}
	return explicit, extras, over
}

// diffTitle names a file's part of the diff; the bundle adds "(diff)".
func diffTitle(f *FileDiff) string {
	switch f.Status() {
	case "added":
		return "new file " + f.NewPath
	case "deleted":
		return "deleted file " + f.OldPath
	case "renamed":
		return "renamed " + f.OldPath + " → " + f.NewPath
	}
	return "changes to " + f.NewPath
}

func addPlace(list []expand.Explicit, over int, e expand.Explicit) ([]expand.Explicit, int) {
	if len(list) >= maxChangedRanges {
		return list, over + 1
	}
	return append(list, e), over
}

// changeSummary counts the files by status: "3 files changed (1 added)".
func changeSummary(files []FileDiff) string {
	by := map[string]int{}
	for i := range files {
		by[files[i].Status()]++
	}
	s := fmt.Sprintf("%d file", len(files))
	if len(files) != 1 {
		s += "s"
	}
	s += " changed"
	var parts []string
	for _, st := range []string{"added", "deleted", "renamed"} {
		if by[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", by[st], st))
		}
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// untrackedFiles lists the files git does not track yet (ignored files
// excluded) as added files without hunks.
func untrackedFiles(ctx context.Context, root string) ([]FileDiff, bool, error) {
	out, _, err := git(ctx, root, 1<<20, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
	if err != nil {
		return nil, false, err
	}
	var files []FileDiff
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		if len(files) == maxUntracked {
			return files, true, nil
		}
		files = append(files, FileDiff{NewPath: p, Text: "new file " + p + " (untracked)\n"})
	}
	return files, false, nil
}
