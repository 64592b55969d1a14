package expand

import (
	"context"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/google/go-cmp/cmp"
)

type mapSource struct {
	facts *analyze.Facts
	files map[string]string
}

func (m mapSource) Content(f analyze.FileID) ([]byte, error) {
	return []byte(m.files[m.facts.Files[f].Path]), nil
}

// lookupFacts is a method that calls a helper, and a handler that calls
// the method and spells its name, and the words of its name, many times.
func lookupFacts() (*analyze.Facts, map[string]string) {
	files := map[string]string{
		"service/user.go":  "package service\n\n// UserService looks users up.\ntype UserService struct{}\n\nfunc (s *UserService) FindByEmail(email string) error {\n\treturn check(Canonical(email))\n}\n",
		"service/canon.go": "package service\n\n// Canonical lower-cases an address and trims it.\nfunc Canonical(a string) string { return a }\n",
		"api/login.go":     "package api\n\n// Login finds the user by email with the UserService:\n// UserService.FindByEmail, then checks the user's password.\nfunc Login(users *service.UserService, email string) error {\n\treturn users.FindByEmail(email) // find the user by email\n}\n",
		// A use the analysis did not see (no edge): only its words tell.
		"tools/lookup.go": "package tools\n\n// Lookup runs UserService.FindByEmail through reflection.\nfunc Lookup() {}\n",
	}
	fs := &analyze.Facts{Root: "/repo"}
	user := fs.AddFile(analyze.File{Path: "service/user.go", Lang: analyze.LangGo, PkgName: "service", Package: "x/service", Lines: 8})
	canon := fs.AddFile(analyze.File{Path: "service/canon.go", Lang: analyze.LangGo, PkgName: "service", Package: "x/service", Lines: 4})
	login := fs.AddFile(analyze.File{Path: "api/login.go", Lang: analyze.LangGo, PkgName: "api", Package: "x/api", Lines: 7})
	tool := fs.AddFile(analyze.File{Path: "tools/lookup.go", Lang: analyze.LangGo, PkgName: "tools", Package: "x/tools", Lines: 4})
	svc := fs.AddSymbol(analyze.Symbol{Name: "UserService", Kind: analyze.KindStruct, File: user, Start: 3, End: 4, DeclLine: 4, Exported: true, Parent: analyze.NoSym})
	find := fs.AddSymbol(analyze.Symbol{Name: "FindByEmail", Container: "UserService", Kind: analyze.KindMethod, File: user, Start: 6, End: 8, DeclLine: 6, Exported: true, Parent: analyze.NoSym})
	can := fs.AddSymbol(analyze.Symbol{Name: "Canonical", Kind: analyze.KindFunc, File: canon, Start: 3, End: 4, DeclLine: 4, Exported: true, Parent: analyze.NoSym})
	fs.AddSymbol(analyze.Symbol{Name: "Lookup", Kind: analyze.KindFunc, File: tool, Start: 3, End: 4, DeclLine: 4, Exported: true, Parent: analyze.NoSym})
	lg := fs.AddSymbol(analyze.Symbol{Name: "Login", Kind: analyze.KindFunc, File: login, Start: 3, End: 7, DeclLine: 5, Exported: true, Parent: analyze.NoSym})
	fs.AddEdge(analyze.Edge{From: find, To: svc, Kind: analyze.EdgeMethodOf, Exact: true, Line: 6})
	fs.AddEdge(analyze.Edge{From: find, To: can, Kind: analyze.EdgeCalls, Exact: true, Line: 7})
	fs.AddEdge(analyze.Edge{From: lg, To: find, Kind: analyze.EdgeCalls, Exact: true, Line: 6})
	fs.AddEdge(analyze.Edge{From: lg, To: svc, Kind: analyze.EdgeReferences, Exact: true, Line: 5})
	fs.Normalize()
	return fs, files
}

// TestSpentTerms: in a fix, the words that only spell a name the query
// gave, once the name resolves confidently, are spent (they count only
// where the name is defined or where the walk did not reach); words the
// rest of the query uses, names that resolve weakly or not at all, and
// names in other tasks are not.
func TestSpentTerms(t *testing.T) {
	facts, files := lookupFacts()
	eng, err := NewEngine(context.Background(), facts, mapSource{facts, files})
	if err != nil {
		t.Fatal(err)
	}
	user := []string{"account", "memb", "profil"} // synonyms of "user"
	tests := []struct {
		query string
		want  []string
	}{
		{"fix UserService.FindByEmail", append([]string{"userservice", "user", "servic", "findbyemail", "find", "email"}, user...)},
		{"fix UserService.find_by_email", append([]string{"userservice", "user", "servic", "findbyemail", "find", "email"}, user...)},
		// "users" is the query's own word too: it stays searched.
		{"fix UserService.FindByEmail for deleted users", []string{"userservice", "servic", "findbyemail", "find", "email"}},
		// A lone lower-case word names a concept as often as a symbol.
		{"fix findbyemail", nil},
		{"fix NoSuch.Method", nil},
		// Changing a name's shape changes the code that spells it: the
		// mentions are what lexical search is for.
		{"add a context parameter to UserService.FindByEmail", nil},
	}
	for _, tt := range tests {
		res, err := eng.Expand(context.Background(), query.Analyze(tt.query), nil, Options{Strategy: "focused"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, res.SpentTerms); diff != "" {
			t.Errorf("%q: spent terms (-want +got):\n%s", tt.query, diff)
		}
	}
}

// TestCalleeAboveCaller: for "fix X", the helper X calls ranks above the
// caller that spells X's name: the caller's mentions of the name are the
// call the walk already followed, not more evidence. The file defining X
// keeps its lexical match, and so does a file that mentions X where the
// analysis saw no edge: there the words are the only evidence.
func TestCalleeAboveCaller(t *testing.T) {
	facts, files := lookupFacts()
	eng, err := NewEngine(context.Background(), facts, mapSource{facts, files})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Expand(context.Background(), query.Analyze("fix UserService.FindByEmail"), nil, Options{Strategy: "focused"})
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{}
	lexical := map[string]bool{}
	for i, f := range res.Files {
		rank[f.Path] = i + 1
		for _, c := range f.Contribs {
			if c.What == "lexical" {
				lexical[f.Path] = true
			}
		}
	}
	if rank["service/user.go"] != 1 || rank["service/canon.go"] == 0 || rank["api/login.go"] == 0 || rank["service/canon.go"] > rank["api/login.go"] {
		t.Errorf("ranks %v; want service/user.go first, then service/canon.go above api/login.go", rank)
	}
	if diff := cmp.Diff(map[string]bool{"service/user.go": true, "tools/lookup.go": true}, lexical); diff != "" {
		t.Errorf("files with lexical evidence (-want +got):\n%s", diff)
	}
}
