package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Limits of find_symbol.
const (
	DefaultSymbolLimit = 10
	MaxSymbolLimit     = 100
	maxDocChars        = 1000
)

// FindSymbolArgs are the arguments of find_symbol.
type FindSymbolArgs struct {
	Name    string `json:"name" jsonschema:"the symbol's name, Go or Rust style, qualified or not: FindByEmail, find_by_email, UserService.FindByEmail, (*UserService).FindByEmail, service.NewUserService, store::Store, crate::store::Store::orders_of. Case style does not matter: find_by_email also finds FindByEmail"`
	Limit   int    `json:"limit,omitempty" jsonschema:"most definitions to return, best match first"`
	Refresh bool   `json:"refresh,omitempty" jsonschema:"reload the repository before answering (edits are normally noticed without it)"`
}

// SymbolDef is one definition find_symbol found.
type SymbolDef struct {
	Name      string `json:"name" jsonschema:"the name qualified with its type: UserService.FindByEmail, Store::orders_of"`
	Kind      string `json:"kind" jsonschema:"func, method, struct, interface, type, field, const, var, enum, trait, mod, macro, ..."`
	Path      string `json:"path" jsonschema:"repository-relative file path"`
	StartLine int    `json:"start_line" jsonschema:"first line of the definition, its doc comment included (1-based)"`
	EndLine   int    `json:"end_line" jsonschema:"last line of the definition (inclusive)"`
	DeclLine  int    `json:"decl_line" jsonschema:"line of the name itself"`
	Package   string `json:"package,omitempty" jsonschema:"Go import path or Rust module path"`
	Signature string `json:"signature,omitempty"`
	Doc       string `json:"doc,omitempty"`
	Exported  bool   `json:"exported"`
	Match     string `json:"match" jsonschema:"how the name matched: exact, style-insensitive, name-only (the qualifier matched nothing), container (the type named by the qualifier; its member is missing), fuzzy (a close name)"`
}

// FindSymbolResult is the answer of find_symbol.
type FindSymbolResult struct {
	Name        string      `json:"name"`
	Definitions []SymbolDef `json:"definitions"`
	Total       int         `json:"total" jsonschema:"definitions found before limit was applied"`
	Suggestions []string    `json:"suggestions,omitempty" jsonschema:"close names, when nothing matched exactly"`
	Note        string      `json:"note,omitempty"`
}

func addFindSymbolTool(s *Server) {
	schema := schemaFor[FindSymbolArgs]()
	setMinLength(schema, "name", 1)
	setInt(schema, "limit", 1, MaxSymbolLimit, DefaultSymbolLimit)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "find_symbol",
		Title: "Find where a symbol is defined",
		Description: `Finds the definitions of a function, method, type, field, constant or module by name and returns, for each, its file, exact line span, kind, signature and doc comment.
Names may be written in Go or Rust style, qualified or not; matching ignores case style (find_by_email finds FindByEmail). A qualifier (type, package, module or file name) narrows the matches. When nothing matches exactly, close names are returned as fuzzy matches and suggestions.`,
		InputSchema: schema,
		Annotations: readOnly(false),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in FindSymbolArgs) (*mcp.CallToolResult, *FindSymbolResult, error) {
		var out *FindSymbolResult
		res := s.call(ctx, "find_symbol", in.Refresh, func(ctx context.Context, sess *engine.Session) (*mcp.CallToolResult, error) {
			r, err := findSymbol(sess, in)
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

func findSymbol(sess *engine.Session, in FindSymbolArgs) (*FindSymbolResult, error) {
	limit := in.Limit
	if limit == 0 {
		limit = DefaultSymbolLimit
	}
	if limit < 1 || limit > MaxSymbolLimit {
		return nil, toolErrorf("limit must be between 1 and %d, got %d", MaxSymbolLimit, in.Limit)
	}
	ent, err := parseSymbolName(in.Name)
	if err != nil {
		return nil, err
	}
	r := sess.Engine.Names.Resolve(ent)
	facts := sess.Facts
	out := &FindSymbolResult{Name: in.Name, Definitions: []SymbolDef{}, Total: len(r.Matches), Suggestions: r.Suggestions}
	for i, m := range r.Matches {
		if i == limit {
			break
		}
		sym := &facts.Symbols[m.Sym]
		f := &facts.Files[sym.File]
		out.Definitions = append(out.Definitions, SymbolDef{
			Name:      sym.QualName(f.Lang),
			Kind:      sym.Kind.String(),
			Path:      f.Path,
			StartLine: sym.Start,
			EndLine:   sym.End,
			DeclLine:  sym.DeclLine,
			Package:   f.Package,
			Signature: sym.Signature,
			Doc:       clip(sym.Doc, maxDocChars),
			Exported:  sym.Exported,
			Match:     m.How,
		})
	}
	var notes []string
	switch {
	case len(r.Matches) == 0 && len(r.Suggestions) == 0:
		notes = append(notes, fmt.Sprintf("no symbol is named %s, and none is close; try the unqualified name, or expand_context with a description of what it does", in.Name))
	case len(r.Matches) == 0 || r.Matches[0].How == rank.MatchFuzzy:
		notes = append(notes, fmt.Sprintf("no symbol is named %s; the closest names are listed", in.Name))
	case r.Matches[0].How == rank.MatchNameOnly:
		notes = append(notes, fmt.Sprintf("the qualifier of %s matched no definition; definitions of the bare name are listed", in.Name))
	case r.Matches[0].How == rank.MatchContainer:
		n := fmt.Sprintf("%s has no member named %s; the type itself is listed first", strings.Join(ent.Parts[:len(ent.Parts)-1], "."), ent.Name())
		if slices.ContainsFunc(r.Matches, func(m rank.Match) bool { return m.How == rank.MatchNameOnly }) {
			n += ", then the definitions of " + ent.Name() + " elsewhere"
		}
		notes = append(notes, n)
	}
	if len(r.Suggestions) > 0 {
		notes = append(notes, "did you mean "+strings.Join(r.Suggestions, ", ")+"?")
	}
	if len(r.Matches) > limit {
		notes = append(notes, fmt.Sprintf("%d more definitions were cut by limit=%d", len(r.Matches)-limit, limit))
	}
	out.Note = strings.Join(notes, "; ")
	return out, nil
}

// parseSymbolName reads a name as an agent writes it
// (query.ParseSymbolName), refusing what is no symbol name.
func parseSymbolName(raw string) (query.Entity, error) {
	e, ok := query.ParseSymbolName(raw)
	if !ok {
		return query.Entity{}, toolErrorf("%q is not a symbol name: write an identifier, optionally qualified with . or ::, such as FindByEmail, find_by_email, UserService.FindByEmail or store::Store", raw)
	}
	return e, nil
}

// clip shortens s to about n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
