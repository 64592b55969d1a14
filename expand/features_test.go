package expand

import (
	"context"
	"math"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

type mapContent map[analyze.FileID]string

func (m mapContent) Content(f analyze.FileID) ([]byte, error) { return []byte(m[f]), nil }

// shop is a service whose method calls a helper in another file and is
// called from main; a test exercises it, and an unrelated file only
// mentions the query's words.
func shop(t *testing.T) (*Engine, map[string]analyze.FileID) {
	t.Helper()
	fs := &analyze.Facts{Root: "/repo"}
	ids := map[string]analyze.FileID{}
	content := mapContent{}
	add := func(p, pkg, text string, cat analyze.Category) analyze.FileID {
		f := fs.AddFile(analyze.File{Path: p, Lang: analyze.LangGo, PkgName: pkg, Package: "shop/" + pkg, Lines: 10, Size: int64(len(text)), Category: cat})
		ids[p] = f
		content[f] = text
		return f
	}
	svc := add("service/user.go", "service", "func (s *UserService) FindByEmail(email string) { normalize(email) }", analyze.CatSource)
	norm := add("service/email.go", "service", "func normalize(email string) string { return lower(email) }", analyze.CatSource)
	mainF := add("cmd/app/main.go", "main", "func main() { svc.FindByEmail(flag) }", analyze.CatSource)
	test := add("service/user_test.go", "service", "func TestFindByEmail(t *testing.T) { FindByEmail(\"a@b\") }", analyze.CatTest)
	other := add("docs/email_lookup.go", "docs", "// find user by email: email email email", analyze.CatExample)
	sym := func(f analyze.FileID, name, container string, kind analyze.SymbolKind) analyze.SymID {
		return fs.AddSymbol(analyze.Symbol{Name: name, Container: container, Kind: kind, File: f, Start: 1, End: 1, DeclLine: 1, Parent: analyze.NoSym})
	}
	find := sym(svc, "FindByEmail", "UserService", analyze.KindMethod)
	helper := sym(norm, "normalize", "", analyze.KindFunc)
	mainFn := sym(mainF, "main", "", analyze.KindFunc)
	testFn := sym(test, "TestFindByEmail", "", analyze.KindFunc)
	sym(other, "Lookup", "", analyze.KindFunc)
	fs.AddEdge(analyze.Edge{From: find, To: helper, Kind: analyze.EdgeCalls, Exact: true, Line: 1})
	fs.AddEdge(analyze.Edge{From: mainFn, To: find, Kind: analyze.EdgeCalls, Exact: true, Line: 1})
	fs.AddEdge(analyze.Edge{From: testFn, To: find, Kind: analyze.EdgeTests, Exact: true, Line: 1})
	fs.Normalize()
	eng, err := NewEngine(context.Background(), fs, content)
	if err != nil {
		t.Fatal(err)
	}
	for p := range ids {
		ids[p], _ = fs.FileByPath(p)
	}
	return eng, ids
}

func featureOf(t *testing.T, res *Result, f analyze.FileID, name string) float64 {
	t.Helper()
	j := -1
	for i, n := range FeatureNames {
		if n == name {
			j = i
		}
	}
	if j < 0 {
		t.Fatalf("no feature %s", name)
	}
	for _, c := range res.Candidates {
		if c.File == f {
			return c.Features[j]
		}
	}
	t.Fatalf("file %d is not a candidate", f)
	return 0
}

// TestFeatures checks the features that say how a file was reached: the
// named method's file is an entity seed, the helper it calls is a callee,
// main is a caller and declares main, the test is reached by a tests edge,
// and the file that merely repeats the query's words has lexical features
// and no graph ones.
func TestFeatures(t *testing.T) {
	eng, ids := shop(t)
	plan := query.Analyze("fix UserService.FindByEmail so that it finds the user by email")
	res, err := eng.Expand(context.Background(), plan, nil, Options{Strategy: "focused", Features: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ranker != RankerHand {
		t.Errorf("ranker %q without a model, want %q", res.Ranker, RankerHand)
	}
	checks := []struct {
		file, feature string
		positive      bool
	}{
		{"service/user.go", "seed_entity", true},
		{"service/email.go", "seed_entity", false},
		{"service/email.go", "graph_callee", true},
		{"service/email.go", "graph_caller", false},
		{"cmd/app/main.go", "graph_caller", true},
		{"cmd/app/main.go", "graph_callee", false},
		{"cmd/app/main.go", "main", true},
		{"service/user.go", "main", false},
		{"service/user_test.go", "graph_tests", true},
		{"service/user_test.go", "cat_test", true},
		{"docs/email_lookup.go", "graph", false},
		{"docs/email_lookup.go", "lex_file", true},
		{"docs/email_lookup.go", "cat_example", true},
		{"service/user.go", "hand", true},
		{"service/user.go", "q_entities", true},
	}
	for _, c := range checks {
		v := featureOf(t, res, ids[c.file], c.feature)
		if (v > 0) != c.positive {
			t.Errorf("%s: %s = %v, want positive %v", c.file, c.feature, v, c.positive)
		}
	}
	if d := featureOf(t, res, ids["service/email.go"], "graph_depth"); d != 1 {
		t.Errorf("graph_depth of the direct callee = %v, want 1", d)
	}
	// The baseline's best file is a candidate with reciprocal rank 1.
	best, bestScore := analyze.FileID(-1), 0.0
	for f, v := range eng.Index.ScorePlain(plan.Text) {
		if v > bestScore {
			best, bestScore = analyze.FileID(f), v
		}
	}
	if rr := featureOf(t, res, best, "bm25_rr"); rr != 1 {
		t.Errorf("bm25_rr of the baseline's best file = %v, want 1", rr)
	}
}

// TestLearnedRank ranks with a linear model that likes callees and
// dislikes callers: the helper then comes before main, every file's
// contributions add up to its margin, and scores are probabilities.
func TestLearnedRank(t *testing.T) {
	eng, ids := shop(t)
	names := []string{"seed_entity", "graph_callee", "graph_caller", "cat_test"}
	m, err := learn.New(learn.File{Version: 1, Kind: learn.KindLinear, Features: names, CalibA: 1,
		Weights: []float64{3, 2, -1, -2}, Mean: make([]float64, 4), Scale: []float64{1, 1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Bind(FeatureNames[:])
	if err != nil {
		t.Fatal(err)
	}
	plan := query.Analyze("fix UserService.FindByEmail")
	res, err := eng.Expand(context.Background(), plan, nil, Options{Strategy: "focused", Model: b})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ranker != RankerLearned {
		t.Fatalf("ranker %q, want %q", res.Ranker, RankerLearned)
	}
	pos := map[analyze.FileID]int{}
	for i, f := range res.Files {
		pos[f.File] = i + 1
		if f.Score <= 0 || f.Score > 1 {
			t.Errorf("%s: score %v is not a probability", f.Path, f.Score)
		}
		var sum float64
		for _, c := range f.Contribs {
			sum += c.Value
		}
		if want := math.Log(f.Score / (1 - f.Score)); math.Abs(sum-want) > 0.01 && f.Score < 0.999 && f.Score > 0.001 {
			t.Errorf("%s: contributions add up to %v, the margin is %v", f.Path, sum, want)
		}
	}
	order := []string{"service/user.go", "service/email.go", "cmd/app/main.go"}
	for i := 1; i < len(order); i++ {
		a, b := pos[ids[order[i-1]]], pos[ids[order[i]]]
		if a == 0 || b == 0 || a > b {
			t.Errorf("%s at %d, %s at %d: want them in that order", order[i-1], a, order[i], b)
		}
	}
	if got := res.Files[0].Contribs[0].What; got != "seed_entity" {
		t.Errorf("top file's strongest contribution is %s, want seed_entity", got)
	}
	if len(res.Files[0].Reasons) == 0 {
		t.Errorf("the top file has no reasons")
	}
}
