package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestListTools(t *testing.T) {
	cs, _ := sharedClient(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type toolInfo struct {
		Required []string
		ReadOnly bool
	}
	got := map[string]toolInfo{}
	for _, tool := range res.Tools {
		if len(tool.Description) < 100 {
			t.Errorf("%s: description too short to act on: %q", tool.Name, tool.Description)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(schema, &s); err != nil {
			t.Fatalf("%s: schema: %v", tool.Name, err)
		}
		for name, p := range s.Properties {
			if !strings.Contains(string(p), `"description"`) {
				t.Errorf("%s.%s has no description", tool.Name, name)
			}
		}
		if _, ok := s.Properties["refresh"]; !ok {
			t.Errorf("%s has no refresh argument", tool.Name)
		}
		got[tool.Name] = toolInfo{Required: s.Required, ReadOnly: tool.Annotations != nil && tool.Annotations.ReadOnlyHint}
	}
	want := map[string]toolInfo{
		"expand_context": {Required: []string{"query"}, ReadOnly: true},
		"find_symbol":    {Required: []string{"name"}, ReadOnly: true},
		"related_files":  {Required: []string{"path"}, ReadOnly: true},
		"diff_context":   {ReadOnly: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

// jsonBundle is the part of a JSON bundle the tests read.
type jsonBundle struct {
	Files  []bundleFile `json:"files"`
	Extras []struct {
		Kind    string `json:"kind"`
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"extras"`
}

type bundleFile struct {
	Path     string   `json:"path"`
	Rung     string   `json:"rung"`
	Explicit bool     `json:"explicit"`
	Reasons  []string `json:"reasons"`
	Content  string   `json:"content"`
}

// extras returns the contents of the bundle's extras of one kind.
func (b jsonBundle) extras(kind string) []string {
	var out []string
	for _, e := range b.Extras {
		if e.Kind == kind {
			out = append(out, e.Content)
		}
	}
	return out
}

// changedReason is the reason diff mode gives the changed method of the
// scenario.
const changedReason = "changed: modified method UserService.FindByEmail (internal/service/user.go:"

func hasReasonPrefix(reasons []string, prefix string) bool {
	for _, r := range reasons {
		if strings.HasPrefix(r, prefix) {
			return true
		}
	}
	return false
}

func decodeBundle(t *testing.T, text string) jsonBundle {
	t.Helper()
	var b jsonBundle
	if err := json.Unmarshal([]byte(text), &b); err != nil {
		t.Fatalf("bundle is not JSON: %v\n%s", err, text)
	}
	return b
}

func TestExpandContext(t *testing.T) {
	cs, _ := sharedClient(t)
	res, tx := callTool(t, cs, "expand_context", map[string]any{"query": "fix UserService.find_by_email", "format": "json"})
	if res.IsError {
		t.Fatalf("error: %v", tx)
	}
	b := decodeBundle(t, tx[0])
	if len(b.Files) < 3 {
		t.Fatalf("only %d files", len(b.Files))
	}
	first := b.Files[0]
	if first.Path != editFile || (first.Rung != "spans" && first.Rung != "full") {
		t.Errorf("first file = %s at %s, want %s with its code", first.Path, first.Rung, editFile)
	}
	if !strings.Contains(first.Content, "func (s *UserService) FindByEmail") {
		t.Errorf("first file does not show FindByEmail:\n%s", first.Content)
	}
	if !strings.Contains(tx[1], "page 1:") {
		t.Errorf("no paging note: %q", tx[1])
	}

	// The markdown default leads with the same file.
	_, md := callTool(t, cs, "expand_context", map[string]any{"query": "fix UserService.find_by_email"})
	if !strings.HasPrefix(md[0], "# Context: fix UserService.find_by_email") {
		t.Errorf("markdown bundle starts %q", firstLineOf(md[0]))
	}
	if i := strings.Index(md[0], "\n## "); i < 0 || !strings.HasPrefix(md[0][i+4:], editFile) {
		t.Errorf("first markdown section is not %s", editFile)
	}
}

// TestExpandPaging walks the pages of a small budget to the end: every
// page holds files no earlier page held, each note points at the next
// page, and the page after the last is an error.
func TestExpandPaging(t *testing.T) {
	cs, _ := sharedClient(t)
	args := map[string]any{"query": "fix UserService.find_by_email", "format": "json", "budget": 2500, "max_files": 8}
	held := map[string]int{}
	var last int
	for page := 1; page <= 10; page++ {
		args["page"] = page
		res, tx := callTool(t, cs, "expand_context", args)
		if res.IsError {
			t.Fatalf("page %d: %v", page, tx)
		}
		b := decodeBundle(t, tx[0])
		n := 0
		for _, f := range b.Files {
			if f.Rung == "spans" || f.Rung == "full" {
				if p, ok := held[f.Path]; ok {
					t.Errorf("page %d shows %s again (held by page %d)", page, f.Path, p)
				}
				held[f.Path] = page
				n++
			}
		}
		if n == 0 {
			t.Errorf("page %d holds no file with its code", page)
		}
		if page == 1 && (len(b.Files) == 0 || b.Files[0].Path != editFile) {
			t.Errorf("page 1 does not lead with %s", editFile)
		}
		note := tx[1]
		if strings.Contains(note, "This is the last page") {
			last = page
			break
		}
		if want := "page=" + strconv.Itoa(page+1); !strings.Contains(note, want) {
			t.Fatalf("page %d note does not point at %s: %q", page, want, note)
		}
	}
	if last < 2 {
		t.Fatalf("a 2500-token budget should need several pages for 8 files; last page = %d", last)
	}
	if len(held) != 8 {
		t.Errorf("pages held %d distinct files, want all 8: %v", len(held), held)
	}
	args["page"] = last + 1
	res, tx := callTool(t, cs, "expand_context", args)
	if !res.IsError || !strings.Contains(tx[0], "past the last page") {
		t.Errorf("page %d: isError=%v %q, want a past-the-last-page error", last+1, res.IsError, tx)
	}
}

func TestToolArgumentErrors(t *testing.T) {
	cs, _ := sharedClient(t)
	tests := []struct {
		tool string
		args map[string]any
		want string // in the error text
	}{
		{"expand_context", map[string]any{"query": "  "}, "query is empty"},
		{"expand_context", map[string]any{}, `missing properties: ["query"]`},
		{"expand_context", map[string]any{"query": "x", "format": "yaml"}, "format: enum"},
		{"expand_context", map[string]any{"query": "x", "budget": 5}, "budget: minimum"},
		{"expand_context", map[string]any{"query": "x", "strategy": "clever"}, `unknown strategy "clever"`},
		{"expand_context", map[string]any{"query": "x", "querry": "y"}, `unexpected additional properties ["querry"]`},
		{"expand_context", map[string]any{"query": 3}, "query: type"},
		{"find_symbol", map[string]any{"name": "not a name"}, "is not a symbol name"},
		{"find_symbol", map[string]any{"name": "x", "limit": 0}, "limit: minimum"},
		{"related_files", map[string]any{"path": "service/user.go"}, "service/user.go does not exist in the repository: give a path relative to the repository root; did you mean internal/models/user.go, internal/service/user.go?"},
		{"related_files", map[string]any{"path": "../../etc/passwd"}, "outside the repository"},
		{"related_files", map[string]any{"path": "README.md"}, "not a Go or Rust source file"},
		{"related_files", map[string]any{"path": editFile, "strategy": "sideways"}, "unknown strategy"},
		{"diff_context", map[string]any{"base": "no-such-branch"}, `base "no-such-branch" names no commit`},
		{"diff_context", map[string]any{"base": "--output=/tmp/x"}, "is not a revision"},
		{"diff_context", map[string]any{"head": "HEAD"}, "has no parent commit"},
	}
	for _, tc := range tests {
		t.Run(tc.tool+"/"+tc.want, func(t *testing.T) {
			res, tx := callTool(t, cs, tc.tool, tc.args)
			if !res.IsError {
				t.Fatalf("no error; got %q", tx)
			}
			if len(tx) == 0 || !strings.Contains(tx[0], tc.want) {
				t.Errorf("error %q does not say %q", tx, tc.want)
			}
		})
	}
}

func TestFindSymbol(t *testing.T) {
	cs, root := sharedClient(t)
	span := symbolSpan(t, root, editFile, "func (s *UserService) FindByEmail(")
	tests := []struct {
		name      string
		wantFirst string // qualified name of the first definition
		wantMatch string
		wantNote  string
		wantSugg  []string
	}{
		{name: "UserService.FindByEmail", wantFirst: "UserService.FindByEmail", wantMatch: "exact"},
		{name: "UserService.find_by_email", wantFirst: "UserService.FindByEmail", wantMatch: "style-insensitive"},
		{name: "find_by_email", wantFirst: "UserService.FindByEmail", wantMatch: "style-insensitive"},
		{name: "(*UserService).FindByEmail", wantFirst: "UserService.FindByEmail", wantMatch: "exact"},
		{name: "github.com/acme/usersvc/internal/service.NewUserService()", wantFirst: "NewUserService", wantMatch: "exact"},
		{name: "service::UserService", wantFirst: "UserService", wantMatch: "exact"},
		{name: "FindByEmial", wantFirst: "UserService.FindByEmail", wantMatch: "fuzzy", wantNote: "no symbol is named FindByEmial; the closest names are listed; did you mean UserService.FindByEmail?", wantSugg: []string{"UserService.FindByEmail"}},
		{name: "@UserService.FindByEmial", wantFirst: "UserService", wantMatch: "container", wantNote: "UserService has no member named FindByEmial; the type itself is listed first; did you mean UserService.FindByEmail?", wantSugg: []string{"UserService.FindByEmail"}},
		{name: "Handlers.FindByEmail", wantFirst: "Handlers", wantMatch: "container", wantNote: "Handlers has no member named FindByEmail; the type itself is listed first, then the definitions of FindByEmail elsewhere"},
		{name: "nosuchpkg.FindByEmail", wantFirst: "UserService.FindByEmail", wantMatch: "name-only", wantNote: "the qualifier of nosuchpkg.FindByEmail matched no definition"},
		{name: "Quux", wantNote: "none is close"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, tx := callTool(t, cs, "find_symbol", map[string]any{"name": tc.name})
			if res.IsError {
				t.Fatalf("error: %v", tx)
			}
			var got FindSymbolResult
			if err := json.Unmarshal([]byte(tx[0]), &got); err != nil {
				t.Fatalf("content is not the JSON answer: %v\n%s", err, tx[0])
			}
			raw, _ := json.Marshal(res.StructuredContent)
			var structured FindSymbolResult
			if err := json.Unmarshal(raw, &structured); err != nil || !cmp.Equal(got, structured) {
				t.Errorf("structured content differs from the text: %s", raw)
			}
			if tc.wantFirst == "" {
				if len(got.Definitions) != 0 {
					t.Errorf("found %v, want nothing", got.Definitions)
				}
			} else if len(got.Definitions) == 0 || got.Definitions[0].Name != tc.wantFirst || got.Definitions[0].Match != tc.wantMatch {
				t.Fatalf("definitions %+v, want %s (%s) first", got.Definitions, tc.wantFirst, tc.wantMatch)
			}
			if !strings.Contains(got.Note, tc.wantNote) {
				t.Errorf("note %q does not say %q", got.Note, tc.wantNote)
			}
			if diff := cmp.Diff(tc.wantSugg, got.Suggestions); tc.wantSugg != nil && diff != "" {
				t.Errorf("suggestions (-want +got):\n%s", diff)
			}
			if tc.wantFirst == "UserService.FindByEmail" {
				d := got.Definitions[0]
				if diff := cmp.Diff(span, [3]int{d.StartLine, d.DeclLine, d.EndLine}); diff != "" {
					t.Errorf("span [start decl end] (-want +got):\n%s", diff)
				}
				if d.Path != editFile || d.Kind != "method" || !strings.HasPrefix(d.Signature, "func (s *UserService) FindByEmail(ctx context.Context, email string)") || !strings.HasPrefix(d.Doc, "FindByEmail returns the user") {
					t.Errorf("definition %+v", d)
				}
			}
		})
	}
}

// symbolSpan finds, in the file, the line declaring decl, the first line
// of the comment block above it and the closing brace at column one
// after it: [start, decl, end].
func symbolSpan(t *testing.T, root, rel, decl string) [3]int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, decl) {
			continue
		}
		start := i
		for start > 0 && strings.HasPrefix(lines[start-1], "//") {
			start--
		}
		end := i
		for end < len(lines) && lines[end] != "}" {
			end++
		}
		return [3]int{start + 1, i + 1, end + 1}
	}
	t.Fatalf("%s has no line starting %q", rel, decl)
	return [3]int{}
}

func TestRelatedFiles(t *testing.T) {
	cs, root := sharedClient(t)
	res, tx := callTool(t, cs, "related_files", map[string]any{"path": filepath.Join(root, editFile), "limit": 20})
	if res.IsError {
		t.Fatalf("error: %v", tx)
	}
	var got RelatedResult
	if err := json.Unmarshal([]byte(tx[0]), &got); err != nil {
		t.Fatal(err)
	}
	if got.Path != editFile {
		t.Errorf("path = %q, want %q (absolute paths are made relative)", got.Path, editFile)
	}
	reasons := map[string]string{}
	for _, f := range got.Files {
		if f.Path == editFile {
			t.Errorf("the file itself is listed")
		}
		if len(f.Reasons) == 0 || f.Score <= 0 {
			t.Errorf("%s has no reason or score: %+v", f.Path, f)
		}
		reasons[f.Path] = strings.Join(f.Reasons, "; ")
	}
	for path, want := range map[string]*regexp.Regexp{
		"internal/repository/repository.go": regexp.MustCompile(`UserService\.FindByEmail → calls → UserRepository\.GetByEmail`),
		"internal/httpapi/handlers.go":      regexp.MustCompile(`called by → Handlers\.`),
		"internal/service/user_test.go":     regexp.MustCompile(`tested by → TestUserService_`),
	} {
		r, ok := reasons[path]
		if !ok {
			t.Errorf("%s is not related; got %v", path, keys(reasons))
			continue
		}
		if !want.MatchString(r) {
			t.Errorf("%s: reasons %q do not match %s", path, r, want)
		}
	}

	res, tx = callTool(t, cs, "related_files", map[string]any{"path": editFile, "limit": 2})
	if err := json.Unmarshal([]byte(tx[0]), &got); err != nil || res.IsError {
		t.Fatalf("limit 2: %v %v", err, tx)
	}
	if len(got.Files) != 2 || got.Considered <= 2 {
		t.Errorf("limit 2 gave %d files of %d considered", len(got.Files), got.Considered)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestDiffContextWorkingTree(t *testing.T) {
	cs, _ := sharedClient(t)
	res, tx := callTool(t, cs, "diff_context", map[string]any{"format": "json"})
	if res.IsError {
		t.Fatalf("error: %v", tx)
	}
	b := decodeBundle(t, tx[0])
	diffs, changes := b.extras("diff"), b.extras("changes")
	if len(b.Extras) != 2 || len(diffs) != 1 || !strings.Contains(diffs[0], "+\t\t"+editNew) {
		t.Fatalf("the diff does not lead the bundle: %+v", b.Extras)
	}
	if len(changes) != 1 || !strings.HasPrefix(changes[0], changedReason[len("changed: "):]) {
		t.Errorf("the list of changes does not name the changed method: %q", changes)
	}
	if len(b.Files) == 0 || b.Files[0].Path != editFile || !b.Files[0].Explicit {
		t.Fatalf("first file is not the changed one: %+v", b.Files)
	}
	if !strings.Contains(b.Files[0].Content, editNew) || !hasReasonPrefix(b.Files[0].Reasons, changedReason) {
		t.Errorf("changed file lacks the change or the reason: %v", b.Files[0].Reasons)
	}
	var paths []string
	for _, f := range b.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Contains(paths, "internal/httpapi/handlers.go") {
		t.Errorf("the callers of FindByEmail are missing: %v", paths)
	}
	all := strings.Join(tx, "\n")
	if !strings.Contains(all, "diff: working tree against HEAD, 1 file changed.") {
		t.Errorf("no diff summary in %q", tx[1:])
	}
	if strings.Contains(all, "empty query") {
		t.Errorf("the empty-query advice leaked into diff_context: %q", all)
	}

	// "arguments": null reads as no arguments.
	nullRes, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "diff_context", Arguments: json.RawMessage("null")})
	if err != nil || nullRes.IsError {
		t.Errorf("null arguments: %v %v", err, texts(nullRes))
	}

	// Comparing HEAD with itself is an empty diff, not an error.
	res, tx = callTool(t, cs, "diff_context", map[string]any{"base": "HEAD", "head": "HEAD"})
	if res.IsError || !strings.Contains(tx[0], "No changes") {
		t.Errorf("HEAD..HEAD: isError=%v %q", res.IsError, tx)
	}
}

// TestDiffContextCommits reviews committed changes in a repository of
// its own: one commit's change, a range, and an untracked new file.
func TestDiffContextCommits(t *testing.T) {
	root := makeRepo(t, t.TempDir())
	runGit(t, root, "commit", "-q", "-am", "reword the lookup error")
	newFile := "internal/service/audit.go"
	if err := os.WriteFile(filepath.Join(root, newFile), []byte("package service\n\n// Audit records a lookup.\nfunc Audit(email string) string { return email }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Root: root, Tokenizer: "estimate", NoNetwork: true})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := connect(context.Background(), srv)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	for _, args := range []map[string]any{{"head": "HEAD"}, {"base": "HEAD~1", "head": "HEAD"}, {"base": "main~1", "head": "main", "page": 1}} {
		args["format"] = "json"
		res, tx := callTool(t, cs, "diff_context", args)
		if res.IsError {
			t.Fatalf("%v: %v", args, tx)
		}
		b := decodeBundle(t, tx[0])
		if diffs := b.extras("diff"); len(diffs) != 1 || !strings.Contains(diffs[0], editNew) {
			t.Errorf("%v: extras %+v", args, b.Extras)
		}
		if !hasReasonPrefix(b.Files[0].Reasons, changedReason) {
			t.Errorf("%v: the changed method is not pinned: %v", args, b.Files[0].Reasons)
		}
		if len(b.Files) == 0 || b.Files[0].Path != editFile {
			t.Errorf("%v: files %+v", args, b.Files)
		}
	}

	res, tx := callTool(t, cs, "diff_context", map[string]any{"format": "json"})
	if res.IsError {
		t.Fatalf("working tree: %v", tx)
	}
	b := decodeBundle(t, tx[0])
	if diffs := b.extras("diff"); len(diffs) != 1 || !strings.Contains(diffs[0], "new file mode 100644") || !strings.Contains(diffs[0], "+func Audit(email string) string") {
		t.Errorf("untracked file not in the diff: %+v", b.Extras)
	}
	if changes := b.extras("changes"); len(changes) != 1 || !strings.Contains(changes[0], "added func Audit ("+newFile+":") {
		t.Errorf("the untracked file's function is not listed as added: %q", changes)
	}
	if len(b.Files) == 0 || b.Files[0].Path != newFile || !strings.Contains(b.Files[0].Content, "func Audit") {
		t.Errorf("untracked file not pinned first: %+v", b.Files)
	}
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
