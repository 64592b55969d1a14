package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/expand"
)

// fakeLoader stands in for engine.Open: it counts loads and builds a
// small session from the names of the .go files under the root, one
// function per file named after it, without the go command.
type fakeLoader struct {
	mu    sync.Mutex
	loads int
	fail  error // returned by the next load, then cleared
	panic bool  // the next load panics
}

func (l *fakeLoader) open(ctx context.Context, root string, _ engine.LoadOptions) (*engine.Session, error) {
	l.mu.Lock()
	l.loads++
	fail, pan := l.fail, l.panic
	l.fail, l.panic = nil, false
	l.mu.Unlock()
	if pan {
		panic("loader exploded")
	}
	if fail != nil {
		return nil, fail
	}
	files, _, err := analyze.ListFiles(ctx, root, analyze.WalkOptions{})
	if err != nil {
		return nil, err
	}
	facts := &analyze.Facts{Root: root}
	for _, p := range files {
		fid := facts.AddFile(analyze.File{Path: p, Lang: analyze.LangGo, Package: "example.com/m", PkgName: "m", Lines: 3})
		name := strings.ToUpper(p[:1]) + strings.TrimSuffix(p[1:], ".go")
		facts.AddSymbol(analyze.Symbol{Name: name, Kind: analyze.KindFunc, File: fid, Start: 3, End: 3, DeclLine: 3, Exported: true, Parent: analyze.NoSym})
	}
	facts.Normalize()
	eng, err := expand.NewEngine(ctx, facts, fileSource{facts})
	if err != nil {
		return nil, err
	}
	return &engine.Session{Root: root, Facts: facts, Engine: eng}, nil
}

func (l *fakeLoader) reopen(ctx context.Context, prev *engine.Session, opt engine.LoadOptions, _ engine.Changes) (*engine.Session, error) {
	return l.open(ctx, prev.Root, opt)
}

func (l *fakeLoader) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.loads
}

type fileSource struct{ facts *analyze.Facts }

func (s fileSource) Content(f analyze.FileID) ([]byte, error) {
	return analyze.ReadSource(s.facts.Root, s.facts.Files[f].Path, 0)
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSessionLifetime follows the loaded session through a series of
// calls: loaded once, kept while the files stand still, and every change
// seen by the very next call — an added file, an edited manifest, a
// deleted file — or reloaded on refresh.
func TestSessionLifetime(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "go.mod", "module example.com/m\n")
	writeFile(t, root, "hello.go", "package m\n\nfunc Hello() {}\n")
	loader := &fakeLoader{}
	srv, err := New(Options{Root: root, open: loader.open, reopen: loader.reopen})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cs, err := connect(context.Background(), srv)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	steps := []struct {
		name      string
		do        func()
		symbol    string
		refresh   bool
		wantLoads int
		wantNote  string // a note the answer must carry, "" for none
		wantFound bool
	}{
		{name: "first call loads", symbol: "Hello", wantLoads: 1, wantFound: true},
		{name: "second call keeps the session", symbol: "Hello", wantLoads: 1, wantFound: true},
		{name: "a new file is seen by the next call", do: func() { writeFile(t, root, "world.go", "package m\n\nfunc World() {}\n") }, symbol: "World", wantLoads: 2, wantNote: "reloaded: files changed on disk", wantFound: true},
		{name: "no change, no reload", symbol: "World", wantLoads: 2, wantFound: true},
		{name: "a file the loaders ignore, no reload", do: func() { writeFile(t, root, "notes.txt", "not source") }, symbol: "World", wantLoads: 2, wantFound: true},
		{name: "an edited manifest reloads", do: func() { writeFile(t, root, "go.mod", "module example.com/m\n\ngo 1.22\n") }, symbol: "Hello", wantLoads: 3, wantNote: "files changed", wantFound: true},
		{name: "refresh reloads at once", symbol: "Hello", refresh: true, wantLoads: 4, wantNote: "reloaded on request", wantFound: true},
		{name: "a deleted file reloads", do: func() { os.Remove(filepath.Join(root, "world.go")) }, symbol: "World", wantLoads: 5, wantNote: "files changed", wantFound: false},
	}
	for _, st := range steps {
		if st.do != nil {
			st.do()
		}
		res, tx := callTool(t, cs, "find_symbol", map[string]any{"name": st.symbol, "refresh": st.refresh})
		if res.IsError {
			t.Fatalf("%s: %v", st.name, tx)
		}
		if got := loader.count(); got != st.wantLoads {
			t.Errorf("%s: %d loads, want %d", st.name, got, st.wantLoads)
		}
		all := strings.Join(tx[1:], "\n")
		if st.wantNote == "" && all != "" {
			t.Errorf("%s: unexpected notes %q", st.name, all)
		}
		if !strings.Contains(all, st.wantNote) {
			t.Errorf("%s: notes %q lack %q", st.name, all, st.wantNote)
		}
		found := strings.Contains(tx[0], `"match":"exact"`)
		if found != st.wantFound {
			t.Errorf("%s: found %s = %v, want %v: %s", st.name, st.symbol, found, st.wantFound, tx[0])
		}
	}
}

// TestLoadFailures checks that a repository that fails to load, a loader
// that panics and a load cut by the time limit are tool errors, and that
// the server recovers on the next call.
func TestLoadFailures(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "hello.go", "package m\n\nfunc Hello() {}\n")
	tests := []struct {
		name    string
		arrange func(l *fakeLoader)
		timeout time.Duration
		open    func(ctx context.Context, root string, opt engine.LoadOptions) (*engine.Session, error)
		want    []string
	}{
		{name: "load error", arrange: func(l *fakeLoader) { l.fail = errors.New("disk on fire") }, want: []string{"the repository could not be loaded", "disk on fire", "check that --root"}},
		{name: "panic", arrange: func(l *fakeLoader) { l.panic = true }, want: []string{"internal error", "loader exploded", "please report it"}},
		{name: "time limit", timeout: 50 * time.Millisecond, open: func(ctx context.Context, _ string, _ engine.LoadOptions) (*engine.Session, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, want: []string{"timed out", "--timeout"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			loader := &fakeLoader{}
			if tc.arrange != nil {
				tc.arrange(loader)
			}
			opts := Options{Root: root, open: loader.open, reopen: loader.reopen, Timeout: tc.timeout}
			if tc.open != nil {
				opts.open = tc.open
			}
			srv, _ := New(opts)
			if tc.open == nil {
				defer srv.Close() // a load blocked until the engine stops would keep Close waiting
			}
			cs, err := connect(context.Background(), srv)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, tx := callTool(t, cs, "find_symbol", map[string]any{"name": "Hello"})
			if !res.IsError {
				t.Fatalf("no error: %v", tx)
			}
			for _, w := range tc.want {
				if !strings.Contains(tx[0], w) {
					t.Errorf("error %q lacks %q", tx[0], w)
				}
			}
			if tc.open != nil {
				return
			}
			res, tx = callTool(t, cs, "find_symbol", map[string]any{"name": "Hello"})
			if res.IsError || loader.count() != 2 {
				t.Errorf("next call: isError=%v loads=%d %v; want a fresh load that works", res.IsError, loader.count(), tx)
			}
		})
	}
}
