package rank

import (
	"context"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/google/go-cmp/cmp"
)

type mapSource map[string]string

func (m mapSource) content(facts *analyze.Facts) Source {
	return sourceFunc(func(f analyze.FileID) ([]byte, error) { return []byte(m[facts.Files[f].Path]), nil })
}

type sourceFunc func(analyze.FileID) ([]byte, error)

func (s sourceFunc) Content(f analyze.FileID) ([]byte, error) { return s(f) }

// sample is a tiny two-package repository written out as facts.
func sample(t *testing.T) (*analyze.Facts, Source) {
	t.Helper()
	src := mapSource{
		"service/user.go":               "package service\n\n// FindByEmail looks a user up by email.\nfunc (s *UserService) FindByEmail(email string) (*User, error) {\n\treturn s.repo.GetByEmail(normalize(email))\n}\n\ntype UserService struct{ repo Repo }\n",
		"auth/token.go":                 "package auth\n\n// Issue signs a session token that expires after ttl.\nfunc Issue(user string, ttl int) string {\n\treturn sign(user, ttl)\n}\n",
		"service/find_by_email_test.go": "package service\n\nfunc TestFindByEmail(t *testing.T) {}\n",
	}
	var f analyze.Facts
	su := f.AddFile(analyze.File{Path: "service/user.go", Lang: analyze.LangGo, Package: "x/service", PkgName: "service"})
	at := f.AddFile(analyze.File{Path: "auth/token.go", Lang: analyze.LangGo, Package: "x/auth", PkgName: "auth"})
	tf := f.AddFile(analyze.File{Path: "service/find_by_email_test.go", Lang: analyze.LangGo, Package: "x/service", PkgName: "service", Category: analyze.CatTest})
	f.AddSymbol(analyze.Symbol{Name: "FindByEmail", Container: "UserService", Kind: analyze.KindMethod, File: su, Start: 3, End: 6, DeclLine: 4, Parent: analyze.NoSym})
	f.AddSymbol(analyze.Symbol{Name: "UserService", Kind: analyze.KindStruct, File: su, Start: 8, End: 8, DeclLine: 8, Parent: analyze.NoSym})
	f.AddSymbol(analyze.Symbol{Name: "Issue", Kind: analyze.KindFunc, File: at, Start: 3, End: 6, DeclLine: 4, Parent: analyze.NoSym})
	f.AddSymbol(analyze.Symbol{Name: "TestFindByEmail", Kind: analyze.KindFunc, File: tf, Start: 3, End: 3, DeclLine: 3, Test: true, Parent: analyze.NoSym})
	f.Imports = append(f.Imports, analyze.Import{File: su, Path: "strings"}, analyze.Import{File: su, Path: "x/auth"})
	f.Normalize()
	return &f, src.content(&f)
}

func TestResolve(t *testing.T) {
	facts, _ := sample(t)
	names := NewNames(facts)
	label := func(r Resolution) []string {
		var out []string
		for _, m := range r.Matches {
			s := &facts.Symbols[m.Sym]
			out = append(out, s.QualName(analyze.LangGo)+"/"+m.How)
		}
		return out
	}
	tests := []struct {
		parts   []string
		want    []string
		suggest []string
	}{
		{[]string{"UserService", "find_by_email"}, []string{"UserService.FindByEmail/style-insensitive"}, nil},
		{[]string{"UserService", "FindByEmail"}, []string{"UserService.FindByEmail/exact"}, nil},
		{[]string{"service", "FindByEmail"}, []string{"UserService.FindByEmail/exact"}, nil},
		{[]string{"Other", "FindByEmail"}, []string{"UserService.FindByEmail/name-only"}, nil},
		{[]string{"UserService", "Delete"}, []string{"UserService/container"}, nil},
		{[]string{"FindByEmal"}, []string{"UserService.FindByEmail/fuzzy"}, []string{"UserService.FindByEmail"}},
		{[]string{"Nothing"}, nil, nil},
		// strings is an imported package from outside: its FindByEmail is not ours.
		{[]string{"strings", "FindByEmail"}, nil, nil},
		{[]string{"std", "fs", "FindByEmal"}, nil, nil},
		// auth is a repository package, so a qualifier naming it is not external.
		{[]string{"auth", "FindByEmail"}, []string{"UserService.FindByEmail/name-only"}, nil},
	}
	for _, tt := range tests {
		r := names.Resolve(query.Entity{Raw: tt.parts[len(tt.parts)-1], Kind: query.EntitySymbol, Parts: tt.parts})
		if diff := cmp.Diff(tt.want, label(r)); diff != "" {
			t.Errorf("Resolve(%v) (-want +got):\n%s", tt.parts, diff)
		}
		if diff := cmp.Diff(tt.suggest, r.Suggestions); diff != "" {
			t.Errorf("Resolve(%v) suggestions (-want +got):\n%s", tt.parts, diff)
		}
	}
}

func TestLexicalAndCombine(t *testing.T) {
	facts, src := sample(t)
	ix, err := BuildIndex(context.Background(), facts, src)
	if err != nil {
		t.Fatal(err)
	}
	terms := []query.Term{{Text: "token", Weight: 1}, {Text: query.NormTerm("expires"), Weight: 1}, {Text: "session", Weight: 1}}
	lex := ix.Score(terms)
	auth, _ := facts.FileByPath("auth/token.go")
	svc, _ := facts.FileByPath("service/user.go")
	if lex.File[auth] <= 0 || lex.File[svc] != 0 {
		t.Fatalf("file scores: auth %v, service %v; want only auth > 0", lex.File[auth], lex.File[svc])
	}
	if lex.Path[auth] <= 0 {
		t.Errorf("path score of auth/token.go = %v, want > 0 (\"token\" is in its path)", lex.Path[auth])
	}
	ranked := Combine(facts, lex, nil, CombineOptions{})
	if len(ranked) != 1 || ranked[0].Path != "auth/token.go" {
		t.Fatalf("ranked = %+v, want only auth/token.go", ranked)
	}
	if len(ranked[0].Symbols) == 0 || facts.Symbols[ranked[0].Symbols[0].Sym].Name != "Issue" {
		t.Errorf("symbol hits = %+v, want Issue first", ranked[0].Symbols)
	}
}

func TestCombineSeedsAndDemotion(t *testing.T) {
	facts, src := sample(t)
	ix, err := BuildIndex(context.Background(), facts, src)
	if err != nil {
		t.Fatal(err)
	}
	lex := ix.Score([]query.Term{{Text: "findbyemail", Weight: 2}, {Text: "email", Weight: 1}})
	svc, _ := facts.FileByPath("service/user.go")
	test, _ := facts.FileByPath("service/find_by_email_test.go")
	ev := []Evidence{
		{File: svc, Sym: 1, Kind: EvSeed, Score: 1, Reason: "seed UserService.FindByEmail"},
		{File: test, Sym: 3, Kind: EvGraph, Score: 0.8, Reason: "tested by TestFindByEmail"},
	}
	ranked := Combine(facts, lex, ev, CombineOptions{})
	var paths []string
	for _, r := range ranked {
		paths = append(paths, r.Path)
	}
	if diff := cmp.Diff([]string{"service/user.go", "service/find_by_email_test.go"}, paths); diff != "" {
		t.Errorf("ranking (-want +got):\n%s", diff)
	}
	var demoted bool
	for _, c := range ranked[1].Contribs {
		if c.What == "category" {
			demoted = true
		}
	}
	if !demoted {
		t.Errorf("test file not demoted: %+v", ranked[1].Contribs)
	}
	if ranked[0].Reasons[0] != "seed UserService.FindByEmail" {
		t.Errorf("first reason = %q", ranked[0].Reasons[0])
	}
}

// A style-insensitive match is weaker when the query's spelling says
// little: snake_case in a Go repository, or a lone lower-case word that
// may name the concept rather than the symbol.
func TestResolveStyleStrength(t *testing.T) {
	facts, _ := sample(t)
	names := NewNames(facts)
	tests := []struct {
		parts []string
		want  float64
	}{
		{[]string{"FindByEmail"}, 1},
		{[]string{"findByEmail"}, 0.9},
		{[]string{"UserService", "find_by_email"}, 0.9},
		{[]string{"find_by_email"}, 0.55},
		{[]string{"issue"}, 0.45},
		{[]string{"userservice"}, 0.45},
	}
	for _, tt := range tests {
		r := names.Resolve(query.Entity{Raw: tt.parts[len(tt.parts)-1], Kind: query.EntitySymbol, Parts: tt.parts})
		if len(r.Matches) != 1 {
			t.Fatalf("Resolve(%v): %d matches, want 1", tt.parts, len(r.Matches))
		}
		if got := r.Matches[0].Strength; got != tt.want {
			t.Errorf("Resolve(%v) strength = %v, want %v", tt.parts, got, tt.want)
		}
	}
}

// TestGitSignalsOnlyWhenTheyDiscriminate: a past-commit vote or a change
// prior that is the same for every candidate adds no score and no reason;
// one that differs between them does both.
func TestGitSignalsOnlyWhenTheyDiscriminate(t *testing.T) {
	facts, src := sample(t)
	ix, err := BuildIndex(context.Background(), facts, src)
	if err != nil {
		t.Fatal(err)
	}
	lex := ix.Score([]query.Term{{Text: "findbyemail", Weight: 2}, {Text: "email", Weight: 1}, {Text: "token", Weight: 1}})
	n := len(facts.Files)
	same := func(v float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	detail := make([]string, n)
	for i := range detail {
		detail[i] = "import the sample service"
	}
	gitWhat := func(rs []FileRank) map[string][]string {
		out := map[string][]string{}
		for _, r := range rs {
			for _, c := range r.Contribs {
				if c.What == "commits" || c.What == "history" {
					out[r.Path] = append(out[r.Path], c.What)
				}
			}
			for _, why := range r.Reasons {
				if strings.Contains(why, "past commit") || strings.Contains(why, "changed in") {
					out[r.Path] = append(out[r.Path], "reason")
				}
			}
		}
		return out
	}
	prior := func(f analyze.FileID) string { return "changed in 1 of the last 1 commits" }
	plain := Combine(facts, lex, nil, CombineOptions{})

	uniform := Combine(facts, lex, nil, CombineOptions{Similar: same(1), SimilarDetail: detail, Prior: same(1), PriorDetail: prior})
	if got := gitWhat(uniform); len(got) != 0 {
		t.Errorf("uniform git signals showed: %v", got)
	}
	if diff := cmp.Diff(plain, uniform); diff != "" {
		t.Errorf("uniform git signals changed the ranking (-without +with):\n%s", diff)
	}

	auth, _ := facts.FileByPath("auth/token.go")
	votes, touched := make([]float64, n), make([]float64, n)
	votes[auth], touched[auth] = 1, 1
	varied := Combine(facts, lex, nil, CombineOptions{Similar: votes, SimilarDetail: detail, Prior: touched, PriorDetail: prior})
	want := map[string][]string{"auth/token.go": {"commits", "history", "reason", "reason"}}
	if diff := cmp.Diff(want, gitWhat(varied)); diff != "" {
		t.Errorf("git signals that tell files apart (-want +got):\n%s", diff)
	}
}

// TestCoChangeHits: in a review, the symbols of a co-changed file that
// spell the change's words become its spans and move no score; a hit in a
// file without a co-change tie is dropped.
func TestCoChangeHits(t *testing.T) {
	facts, src := sample(t)
	ix, err := BuildIndex(context.Background(), facts, src)
	if err != nil {
		t.Fatal(err)
	}
	lex := ix.Score([]query.Term{{Text: "findbyemail", Weight: 2}})
	svc, _ := facts.FileByPath("service/user.go")
	test, _ := facts.FileByPath("service/find_by_email_test.go")
	auth, _ := facts.FileByPath("auth/token.go")
	symNamed := func(name string) analyze.SymID {
		for i, s := range facts.Symbols {
			if s.Name == name {
				return analyze.SymID(i)
			}
		}
		t.Fatalf("no symbol %s", name)
		return analyze.NoSym
	}
	testFn, issue := symNamed("TestFindByEmail"), symNamed("Issue")
	tie := make([]float64, len(facts.Files))
	tie[test] = 1
	opt := CombineOptions{CoChange: tie, CoChangeDetail: make([]string, len(facts.Files))}
	without := Combine(facts, lex, []Evidence{{File: svc, Sym: 0, Kind: EvSeed, Score: 1, Reason: "seed"}}, opt)
	opt.CoChangeHits = []SymHit{
		{Sym: testFn, Score: 0.5, Reason: "spells the change's words"},
		{Sym: issue, Score: 0.5, Reason: "spells the change's words"}, // auth/token.go is not tied
		{Sym: 99, Score: 0.5}, // out of range
	}
	with := Combine(facts, lex, []Evidence{{File: svc, Sym: 0, Kind: EvSeed, Score: 1, Reason: "seed"}}, opt)
	syms := map[analyze.FileID][]analyze.SymID{}
	for _, r := range with {
		for _, h := range r.Symbols {
			syms[r.File] = append(syms[r.File], h.Sym)
		}
	}
	if got := syms[test]; len(got) != 1 || got[0] != testFn {
		t.Errorf("the tied test's symbols are %v; want [%d] (TestFindByEmail)", got, testFn)
	}
	if got := syms[auth]; len(got) != 0 {
		t.Errorf("an untied file got symbols %v", got)
	}
	if len(with) != len(without) {
		t.Fatalf("%d files ranked with the hits, %d without", len(with), len(without))
	}
	for i := range with {
		if with[i].Path != without[i].Path || with[i].Score != without[i].Score {
			t.Errorf("rank %d: %s %.4f with the hits, %s %.4f without", i+1, with[i].Path, with[i].Score, without[i].Path, without[i].Score)
		}
	}
}
