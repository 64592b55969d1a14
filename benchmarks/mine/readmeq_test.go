package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/eval"
)

// TestMineReadme mines a scratch repository's markdown: a section that
// names code by a path or a declared name in code marks asks about those
// files, without the names; sections that name nothing, a word that is
// also a name, a name declared everywhere, or too many files ask
// nothing; changelogs and translations are not read.
func TestMineReadme(t *testing.T) {
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	head := r.commit("init", map[string]string{
		"go.mod":               "module example.com/web\n\ngo 1.22\n",
		"router/group.go":      "package router\n\ntype RouteGroup struct{}\n\nfunc (g *RouteGroup) Mount() {}\n",
		"router/tree.go":       "package router\n\nfunc insertNode() {}\n\ntype version int\n",
		"router/version.go":    "package router\n\nfunc Close() {}\n",
		"server/serve.go":      "package server\n\nfunc Close() {}\n\nfunc GracefulStop() {}\n",
		"server/other.go":      "package server\n\ntype Other struct{}\n",
		"server/close.go":      "package server\n\nfunc closeAll() {}\n",
		"client/close.go":      "package client\n\nfunc Close() {}\n",
		"router/group_test.go": "package router\n\ntype TestOnly struct{}\n",
		"README.md": "# web\n\nA small web toolkit.\n\n" +
			"## Route groups\n\nRoutes that share a prefix are kept together by `RouteGroup`, see [the tree](router/tree.go).\n\n" +
			"```go\nvar g = Other{}\n```\n\n" +
			"## Stopping the server gracefully\n\nCall `server.GracefulStop()` to drain the open connections before it exits.\n\n" +
			"## Closing\n\nEverything has a `Close` method.\n\n" +
			"## Versions\n\nThe `version` type counts the tree's changes.\n\n" +
			"## Installation\n\nRun go get, see `router/group.go`.\n\n" +
			"## Everything at once\n\nSee `RouteGroup`, `GracefulStop`, `Other`, `insertNode` and `closeAll` here.\n",
		"CHANGELOG.md":       "# Changes\n\n## Route groups renamed\n\n`RouteGroup` is new.\n",
		"docs/de-DE/road.md": "# Gruppen von Routen\n\nDie `RouteGroup` hält Routen mit gleichem Präfix zusammen.\n",
	})
	res, err := mineReadme(context.Background(), filepath.Join(r.dir, ".git"), repoSpec{Repo: "ex/web", Lang: eval.LangGo, Head: head}, options{Shape: shapeReadme})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, in := range res.Instances {
		if in.Kind != "question" || in.Base != head || in.Commit != head || len(in.TestFiles) != 0 {
			t.Errorf("instance %+v: want a question asked at the head %s", in, head)
		}
		got[in.Subject] = in.GoldFiles
		for _, name := range []string{"RouteGroup", "GracefulStop", "tree.go", "group.go"} {
			if strings.Contains(in.Query, name) {
				t.Errorf("%s: query %q names %s", in.Subject, in.Query, name)
			}
		}
	}
	want := map[string][]string{
		"README.md # Route groups":                   {"router/group.go", "router/tree.go"},
		"README.md # Stopping the server gracefully": {"server/serve.go"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mined (-want +got):\n%s", diff)
	}
	if res.Rejects[rejectManyAnswers] != 1 {
		t.Errorf("rejects %v: want the section naming five files rejected", res.Rejects)
	}
	// "Closing" names Close, declared in three files; "Versions" names a
	// word; "Installation" is a heading about no code and its sentence
	// is too short; the top section names nothing.
	if res.Rejects[rejectNoAnswer] != 3 || res.Rejects[rejectNoQuestion] != 1 {
		t.Errorf("rejects %v: want 3 sections naming nothing and 1 with no question", res.Rejects)
	}
	again, err := mineReadme(context.Background(), filepath.Join(r.dir, ".git"), repoSpec{Repo: "ex/web", Lang: eval.LangGo, Head: head}, options{Shape: shapeReadme})
	if err != nil || !slices.EqualFunc(again.Instances, res.Instances, func(a, b eval.Instance) bool { return a.ID == b.ID && a.Query == b.Query }) {
		t.Errorf("mining again gives %v (err %v), want the same instances", again.Instances, err)
	}
}

func TestDeclFiles(t *testing.T) {
	decls := map[string][]string{
		"Router": {"router.rs"}, "Router::route": {"routing.rs"}, "route": {"a.rs", "b.rs", "c.rs"},
		"new": {"a.rs", "b.rs", "c.rs"}, "find_by_email": {"users.rs"}, "Close": {"a.go", "b.go", "c.go"},
		"Conn.Close": {"conn.go"}, "Conn": {"conn.go"}, "helper": {"util.go"},
	}
	cases := map[string][]string{
		"Router":                  {"router.rs"},
		"Router::route()":         {"routing.rs"},
		"&mut Router":             {"router.rs"},
		"Router::new":             {"router.rs"}, // new is everywhere: the type
		"users::find_by_email":    {"users.rs"},
		"find_by_email(&db, x)":   {"users.rs"},
		"Conn.Close()":            {"conn.go"},
		"Close":                   nil, // three files
		"helper":                  nil, // a plain word
		"ROUTER":                  nil,
		"cargo run --release":     nil,
		"Router<S>":               {"router.rs"},
		"https://example.com/a.b": nil,
	}
	for span, want := range cases {
		if got := declFiles(span, decls); !slices.Equal(got, want) {
			t.Errorf("declFiles(%q) = %v, want %v", span, got, want)
		}
	}
}

func TestDocFile(t *testing.T) {
	for p, want := range map[string]bool{
		"README.md": true, "docs/routing.md": true, "crates/core/README.md": true, "ARCHITECTURE.md": true,
		"CHANGELOG.md": false, "docs/changelog/v2.md": false, ".github/PULL_REQUEST_TEMPLATE.md": false,
		"docs/pt-BR/config.md": false, "docs/zh/readme.md": false, "vendor/x/README.md": false,
		"MIGRATION_V3.md": false, "main.go": false, "testdata/README.md": false,
	} {
		if got := docFile(p); got != want {
			t.Errorf("docFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestSectionQuestion(t *testing.T) {
	cases := []struct {
		heading, text string
		names         []string
		want          []string // any of these
	}{
		{"Route groups", "Kept by `RouteGroup`.", []string{"RouteGroup"},
			[]string{"how does route groups work?", "route groups", "where is route groups handled?"}},
		{"How to use a custom `ID` generator", "", []string{"ID"}, []string{"how to use a custom generator?"}},
		{"Installation", "Creates the listener on the configured port and starts serving requests.", nil,
			[]string{"what creates the listener on the configured port and starts serving requests?",
				"where is the code that creates the listener on the configured port and starts serving requests",
				"which part creates the listener on the configured port and starts serving requests?"}},
		{"Usage", "The `Pool` keeps idle connections open for reuse by later requests.", []string{"Pool"},
			[]string{"keeps idle connections open for reuse by later requests",
				"what keeps idle connections open for reuse by later requests?",
				"where is the code that keeps idle connections open for reuse by later requests",
				"which part keeps idle connections open for reuse by later requests?"}},
		{"Examples", "Short.", nil, []string{""}},
	}
	for _, c := range cases {
		s := mdSection{File: "README.md", Heading: c.heading, Lines: strings.Split(c.text, "\n")}
		for _, seed := range []string{"a", "b", "c", "d"} {
			if got := sectionQuestion(s, c.names, seed); !slices.Contains(c.want, got) {
				t.Errorf("sectionQuestion(%q, %q, seed %s) = %q, want one of %q", c.heading, c.text, seed, got, c.want)
			}
		}
	}
}

// FuzzReadmeSection checks the markdown reader on arbitrary text: it
// never panics, every section line is a line of the input outside code
// fences, and a question, when one is made, names none of the code marks
// that gave its answers as a word.
func FuzzReadmeSection(f *testing.F) {
	for _, s := range []string{
		"# t\n\nx `RouteGroup` y [a](src/a.rs)\n\n```\n# not a heading\n```\n## Route groups\ntext",
		"~~~\nunclosed fence\n# h",
		"##    \n#\n####### seven\n    # indented code\n",
		"# `Router::new()` and `&mut Builder<T>`\n\nThe `Pool` keeps idle connections open for reuse by later requests.",
	} {
		f.Add(s, "Router")
	}
	decls := map[string][]string{"Router": {"router.rs"}, "RouteGroup": {"group.go"}, "Pool": {"pool.go"}}
	f.Fuzz(func(t *testing.T, src, name string) {
		lines := map[string]bool{}
		for _, l := range strings.Split(src, "\n") {
			lines[l] = true
		}
		if distinctive(name) && identPart.MatchString(name) {
			decls[name] = []string{"x.go"}
			defer delete(decls, name)
		}
		for _, s := range splitSections("README.md", src) {
			for _, l := range s.Lines {
				if !lines[l] {
					t.Fatalf("section line %q is no line of the input", l)
				}
			}
			_, names := sectionAnswers(s, "ex/x", decls, map[string]bool{"src/a.rs": true})
			q := sectionQuestion(s, names, src)
			for _, n := range names {
				if strings.HasPrefix(n, "[") {
					continue
				}
				ln := lastName(n)
				for _, w := range strings.Fields(q) {
					core := strings.TrimRight(strings.TrimLeft(w, "(\"'"), ".,;:)'\"!?")
					core = strings.TrimSuffix(strings.TrimSuffix(core, "'s"), "()")
					if core == ln {
						t.Errorf("question %q keeps the name %q of the code mark %q", q, ln, n)
					}
				}
			}
		}
	})
}
