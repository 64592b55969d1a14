package resident_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// These tests wait for conditions, never for time: every assertion
// follows a query, which the Repo answers only once every change made
// before it is applied. The only waits are for the root-gone check, with
// the suite's watchdog as the limit.

// gosvc writes a small Go module to a fresh directory: a user service
// over a repository, with a command, importing nothing outside itself so
// that a load takes milliseconds even under the race detector.
func gosvc(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	files := map[string]string{
		"go.mod": "module example.com/usersvc\n\ngo 1.22\n",
		"internal/models/user.go": `package models

// User is a registered account.
type User struct {
	ID    int
	Email string
}

// NormalizeEmail lower-cases an address.
func NormalizeEmail(email string) string {
	out := []byte(email)
	for i, c := range out {
		if c >= 'A' && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return string(out)
}
`,
		"internal/repository/repository.go": `package repository

import "example.com/usersvc/internal/models"

// UserRepository stores users.
type UserRepository interface {
	GetByEmail(email string) (*models.User, bool)
	Save(u *models.User)
}

// Memory is a UserRepository in memory.
type Memory struct{ byEmail map[string]*models.User }

// GetByEmail finds a user by address.
func (m *Memory) GetByEmail(email string) (*models.User, bool) {
	u, ok := m.byEmail[email]
	return u, ok
}

// Save stores u.
func (m *Memory) Save(u *models.User) {
	if m.byEmail == nil {
		m.byEmail = map[string]*models.User{}
	}
	m.byEmail[u.Email] = u
}
`,
		"internal/repository/sql.go": `package repository

// SQL would store users in a database.
type SQL struct{ DSN string }
`,
		"internal/service/user.go": `package service

import (
	"example.com/usersvc/internal/models"
	"example.com/usersvc/internal/repository"
)

// UserService looks users up and registers them.
type UserService struct{ repo repository.UserRepository }

// FindByEmail returns the user registered with email, whatever its case.
func (s *UserService) FindByEmail(email string) (*models.User, bool) {
	return s.repo.GetByEmail(models.NormalizeEmail(email))
}

// Register adds a user.
func (s *UserService) Register(email string) *models.User {
	u := &models.User{Email: models.NormalizeEmail(email)}
	s.repo.Save(u)
	return u
}
`,
		"internal/service/user_test.go": `package service

import "testing"

func TestFindByEmail(t *testing.T) {
	s := &UserService{}
	_ = s
}
`,
		"cmd/app/main.go": `package main

import (
	"example.com/usersvc/internal/repository"
	"example.com/usersvc/internal/service"
)

func main() {
	s := &service.UserService{}
	_ = s
	_ = &repository.Memory{}
}
`,
	}
	for rel, content := range files {
		testfiles.WriteFile(t, root, rel, []byte(content))
	}
	return root
}

// start runs a Repo on root with an index of the test's own.
func start(t *testing.T, root string, mod func(*resident.Options)) *resident.Repo {
	t.Helper()
	st, err := index.Open(index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	opts := resident.Options{Root: root, Configure: func() (engine.LoadOptions, error) {
		return engine.LoadOptions{Index: st, NoHistory: true}, nil
	}, Logf: t.Logf}
	if mod != nil {
		mod(&opts)
	}
	e, err := resident.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	testfiles.WriteFile(t, root, rel, []byte(content))
}

// symbols is the set of symbol names of the current snapshot.
func symbols(t *testing.T, e *resident.Repo) (map[string]bool, uint64) {
	t.Helper()
	snap, err := e.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range snap.Session.Facts.Symbols {
		out[s.QualName(snap.Session.Facts.Files[s.File].Lang)] = true
	}
	return out, snap.Gen
}

// TestEveryEditSeen: each edit, new file, new directory, deletion and
// rename is in the very next answer, with a new generation; files the
// loaders never read (ignored, hidden, build output) change nothing.
func TestEveryEditSeen(t *testing.T) {
	for _, mode := range []string{"watch", "poll"} {
		t.Run(mode, func(t *testing.T) {
			root := gosvc(t)
			e := start(t, root, func(o *resident.Options) { o.Poll = mode == "poll"; o.Settle = -1 })
			syms, gen := symbols(t, e)
			if !syms["UserService.FindByEmail"] || e.Status().Mode != mode {
				t.Fatalf("first load: mode %s, FindByEmail missing or %v", e.Status().Mode, len(syms))
			}
			steps := []struct {
				name       string
				do         func()
				has, hasNo string
				same       bool // the generation must not change
			}{
				{"edit", func() {
					p := filepath.Join(root, "internal/service/user.go")
					data, _ := os.ReadFile(p)
					os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "FindByEmail", "LookupByEmail")), 0o644)
				}, "UserService.LookupByEmail", "UserService.FindByEmail", false},
				{"new file", func() { write(t, root, "internal/service/extra.go", "package service\n\nfunc Extra() {}\n") }, "Extra", "", false},
				{"new directories", func() { write(t, root, "internal/deep/er/pkg.go", "package er\n\nfunc Deeper() {}\n") }, "Deeper", "", false},
				{"rename a directory", func() {
					os.Rename(filepath.Join(root, "internal/deep"), filepath.Join(root, "internal/moved"))
					write(t, root, "internal/moved/er/more.go", "package er\n\nfunc AfterMove() {}\n")
				}, "AfterMove", "", false},
				{"delete", func() { os.Remove(filepath.Join(root, "internal/service/extra.go")) }, "", "Extra", false},
				{"ignored and hidden directories", func() {
					for _, d := range []string{"node_modules", "target", ".cache", ".hidden"} {
						write(t, root, d+"/x.go", "package x\n\nfunc Hidden() {}\n")
					}
					write(t, root, "README.md", "not a source file\n")
				}, "", "Hidden", true},
			}
			for _, st := range steps {
				st.do()
				syms, g := symbols(t, e)
				if st.has != "" && !syms[st.has] {
					t.Errorf("%s: %s missing (generation %d)", st.name, st.has, g)
				}
				if st.hasNo != "" && syms[st.hasNo] {
					t.Errorf("%s: %s still there (generation %d)", st.name, st.hasNo, g)
				}
				if st.same != (g == gen) {
					t.Errorf("%s: generation %d after %d", st.name, g, gen)
				}
				gen = g
			}
		})
	}
}

// TestRulesChange: a new ignore rule takes effect at the next query.
func TestRulesChange(t *testing.T) {
	root := gosvc(t)
	e := start(t, root, func(o *resident.Options) {
		cfg := o.Configure
		o.Configure = func() (engine.LoadOptions, error) {
			load, err := cfg()
			m := ignoreMatcher(t, root)
			load.Ignore = m
			return load, err
		}
	})
	if syms, _ := symbols(t, e); !syms["UserService.Register"] {
		t.Fatalf("no UserService.Register before the rule")
	}
	write(t, root, ".gitignore", "internal/service/\n")
	syms, _ := symbols(t, e)
	if syms["UserService.Register"] {
		t.Errorf("internal/service is ignored now, but its symbols are still there")
	}
	write(t, root, "internal/service/new.go", "package service\n\nfunc New2() {}\n")
	if syms, _ := symbols(t, e); syms["New2"] {
		t.Errorf("a file under an ignored directory was loaded")
	}
}

// TestHeadMove: a commit, which changes no file of the tree, changes the
// bundle's commit at the next query.
func TestHeadMove(t *testing.T) {
	root := gosvc(t)
	git(t, root, "init", "-q", "-b", "main")
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "first")
	e := start(t, root, nil)
	commit := func() string {
		out, _, err := e.Query(context.Background(), engine.Request{Query: "fix UserService.find_by_email", Budget: 2000, Format: "json", Tokenizer: "estimate", NoNetwork: true})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Commit string }
		json.Unmarshal(out.Bundle, &doc)
		return doc.Commit
	}
	first := commit()
	git(t, root, "commit", "-q", "--allow-empty", "-m", "second")
	head := strings.TrimSpace(git(t, root, "rev-parse", "HEAD"))
	if got := commit(); got != head || got == first {
		t.Errorf("after a commit the bundle says %q; HEAD is %q (it was %q)", got, head, first)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestEditStormMatchesColdLoad: thousands of writes, files created and
// removed, a directory renamed and a git checkout of another branch end
// in the state a cold load of the final tree gives: the same bundle,
// byte for byte.
func TestEditStormMatchesColdLoad(t *testing.T) {
	root := gosvc(t)
	git(t, root, "init", "-q", "-b", "main")
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "first")
	// Another branch that renames a method, adds a package and deletes
	// a file.
	git(t, root, "checkout", "-q", "-b", "other")
	p := filepath.Join(root, "internal/service/user.go")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "FindByEmail", "FindByAddress")), 0o644)
	write(t, root, "internal/audit/audit.go", "package audit\n\n// Record notes who looked a user up by email.\nfunc Record(email string) {}\n")
	git(t, root, "rm", "-q", "internal/repository/sql.go")
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "other")
	git(t, root, "checkout", "-q", "main")

	e := start(t, root, func(o *resident.Options) {
		cfg := o.Configure
		o.Configure = func() (engine.LoadOptions, error) { l, err := cfg(); l.NoHistory = false; return l, err }
	})
	req := engine.Request{Query: "fix UserService.find_by_email for mixed-case addresses", Budget: 6000, Format: "json", Tokenizer: "estimate", NoNetwork: true}
	if _, _, err := e.Query(context.Background(), req); err != nil {
		t.Fatal(err)
	}

	ask := func() {
		t.Helper()
		if _, _, err := e.Query(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	// The storm: 3000 writes over 30 files, with files appearing and
	// disappearing and a directory moving while it goes on.
	var files []string
	for i := 0; i < 30; i++ {
		files = append(files, fmt.Sprintf("internal/storm/s%02d.go", i))
	}
	for i := 0; i < 3000; i++ {
		f := files[i%len(files)]
		write(t, root, f, fmt.Sprintf("package storm\n\n// F%d is write %d.\nfunc F%d() int { return %d }\n", i%len(files), i, i%len(files), i))
		switch i {
		case 1000:
			write(t, root, "internal/tmp/gone.go", "package tmp\n\nfunc Gone() {}\n")
		case 1500:
			os.RemoveAll(filepath.Join(root, "internal/tmp"))
		case 2000:
			write(t, root, "internal/a/b/c.go", "package b\n\nfunc Moved() {}\n")
			os.Rename(filepath.Join(root, "internal/a"), filepath.Join(root, "internal/z"))
		// Declarations added below packages that do not import them
		// directly (the loader keeps their checks while no declaration
		// they reach changed): top calls a method of base's T, which
		// base lacks until 2500, through mid; mid gains a function
		// nothing uses before that. A query after each makes a generation
		// of it.
		case 500:
			write(t, root, "internal/layer/base/base.go", "package base\n\ntype T struct{ X int }\n")
			write(t, root, "internal/layer/mid/mid.go", "package mid\n\nimport \"example.com/usersvc/internal/layer/base\"\n\nfunc Make() base.T { return base.T{} }\n")
			write(t, root, "internal/layer/top/top.go", "package top\n\nimport \"example.com/usersvc/internal/layer/mid\"\n\nfunc Use() int { return mid.Make().Get() }\n")
			ask()
		case 1200:
			write(t, root, "internal/layer/mid/extra.go", "package mid\n\nfunc Extra() int { return 1 }\n")
			ask()
		case 2500:
			write(t, root, "internal/layer/base/base.go", "package base\n\ntype T struct{ X int }\n\nfunc (t T) Get() int { return t.X }\n")
			ask()
		}
	}
	git(t, root, "checkout", "-q", "other")
	os.WriteFile(filepath.Join(root, "internal/storm/s07.go"), []byte("package storm\n\n// Last is the final write.\nfunc Last() {}\n"), 0o644)

	out, snap, err := e.Query(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	cold, err := engine.Open(context.Background(), root, engine.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := cold.Query(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Bundle) != string(want.Bundle) {
		t.Errorf("generation %d differs from a cold load of the final tree:\n--- resident\n%s\n--- cold\n%s", snap.Gen, out.Bundle, want.Bundle)
	}
	if got, w := snap.Session.Facts.Summary(), cold.Facts.Summary(); got != w {
		t.Errorf("facts: resident %s, cold %s", got, w)
	}
	if got, w := problemText(snap.Session.Facts), problemText(cold.Facts); got != w {
		t.Errorf("problems: resident\n%s\ncold\n%s", got, w)
	}
	if !strings.Contains(string(out.Bundle), "FindByAddress") {
		t.Errorf("the bundle does not show the other branch")
	}
}

// problemText lists the problems of facts, one per line, sorted.
func problemText(fs *analyze.Facts) string {
	var lines []string
	for _, p := range fs.Problems {
		lines = append(lines, p.String())
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestGenerationsConsistent: two clients query while a file is rewritten
// again and again, faster than the Repo reloads; every query is answered
// (a generation shows the text its load read, so a save during a load or
// a query fails nothing: no ErrBusy), every answer shows the file as the
// facts it was ranked with describe it (never new text under old
// symbols), and each client's generations never go back.
func TestGenerationsConsistent(t *testing.T) {
	root := gosvc(t)
	e := start(t, root, nil)
	marker := regexp.MustCompile(`func Marker(\d+)\(`)
	state := func(k int) string {
		return fmt.Sprintf("package service\n\n%s// Marker%d marks state %d of the marker file.\nfunc Marker%d() int { return %d }\n",
			strings.Repeat("\n", k%7), k, k, k, k)
	}
	write(t, root, "internal/service/marker.go", state(0))
	req := engine.Request{Query: "@internal/service/marker.go which marker state", Budget: 3000, Format: "json", Tokenizer: "estimate", NoNetwork: true}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(stop)
		for k := 1; k <= 40; k++ {
			tmp := filepath.Join(root, "internal/service/.marker.tmp")
			os.WriteFile(tmp, []byte(state(k)), 0o644)
			os.Rename(tmp, filepath.Join(root, "internal/service/marker.go"))
			time.Sleep(time.Millisecond)
		}
	})
	for c := 0; c < 2; c++ {
		wg.Go(func() {
			var last uint64
			answers := 0
			for done := false; !done; {
				select {
				case <-stop:
					done = true // one more query after the writer is done
				default:
				}
				out, snap, err := e.Query(context.Background(), req)
				if err != nil {
					t.Errorf("client %d: %v", c, err)
					return
				}
				answers++
				if snap.Gen < last {
					t.Errorf("client %d: generation %d after %d", c, snap.Gen, last)
				}
				last = snap.Gen
				var fromFacts []string
				for _, s := range snap.Session.Facts.Symbols {
					if strings.HasPrefix(s.Name, "Marker") && snap.Session.Facts.Files[s.File].Path == "internal/service/marker.go" {
						fromFacts = append(fromFacts, strings.TrimPrefix(s.Name, "Marker"))
					}
				}
				var doc struct {
					Files []struct{ Path, Content string }
				}
				if err := json.Unmarshal(out.Bundle, &doc); err != nil {
					t.Errorf("client %d: %v", c, err)
					return
				}
				for _, f := range doc.Files {
					if f.Path != "internal/service/marker.go" {
						continue
					}
					m := marker.FindStringSubmatch(f.Content)
					if m == nil || len(fromFacts) != 1 || m[1] != fromFacts[0] {
						t.Errorf("client %d, generation %d: the facts say Marker%v, the bundle shows %q", c, snap.Gen, fromFacts, m)
					}
				}
			}
			if answers == 0 {
				t.Errorf("client %d got no answer", c)
			}
		})
	}
	wg.Wait()
	syms, _ := symbols(t, e)
	if !syms["Marker40"] {
		t.Errorf("the last state is not loaded")
	}
}

// fakeOpen stands in for a load where only the Repo's own behaviour is
// under test.
func fakeOpen(_ context.Context, root string, _ engine.LoadOptions) (*engine.Session, error) {
	return &engine.Session{Root: root, Facts: &analyze.Facts{Root: root}}, nil
}

// TestRootRemoved: removing or renaming the root stops the Repo with
// ErrRootGone; queries then fail with it.
func TestRootRemoved(t *testing.T) {
	for _, how := range []string{"remove", "rename"} {
		t.Run(how, func(t *testing.T) {
			root := gosvc(t)
			e := start(t, root, func(o *resident.Options) { o.Open = fakeOpen })
			if _, err := e.Acquire(context.Background()); err != nil {
				t.Fatal(err)
			}
			if how == "remove" {
				os.RemoveAll(root)
			} else {
				os.Rename(root, root+".old")
			}
			select {
			case <-e.Done():
			case <-time.After(testenv.Watchdog):
				t.Fatal("the Repo did not stop")
			}
			if _, err := e.Acquire(context.Background()); err != resident.ErrRootGone {
				t.Errorf("a query after the root went: %v, want ErrRootGone", err)
			}
		})
	}
}
