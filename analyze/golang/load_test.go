package golang

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

var update = flag.Bool("update", false, "rewrite golden files")

const gosvc = "../../testdata/gosvc"

// gosvcFacts loads the sample service once per test binary.
var gosvcFacts = sync.OnceValues(func() (*analyze.Facts, error) {
	return Load(context.Background(), gosvc, Options{})
})

func loadGosvc(t *testing.T) *analyze.Facts {
	t.Helper()
	fs, err := gosvcFacts()
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestGosvcSymbols(t *testing.T) {
	fs := loadGosvc(t)
	type want struct {
		kind                 analyze.SymbolKind
		start, end, declLine int
		docPrefix, signature string
		exported, test       bool
		parent               string
	}
	tests := map[string]want{
		"internal/service/user.go:UserService.FindByEmail": {analyze.KindMethod, 34, 50, 37,
			"FindByEmail returns the user registered with email.",
			"func (s *UserService) FindByEmail(ctx context.Context, email string) (*models.User, error)", true, false,
			"internal/service/user.go:UserService"},
		"internal/repository/repository.go:UserRepository": {analyze.KindInterface, 21, 33, 23,
			"UserRepository loads and stores users.", "type UserRepository interface", true, false, ""},
		"internal/repository/repository.go:UserRepository.GetByEmail": {analyze.KindMethod, 24, 25, 25,
			"GetByEmail returns the user with the given email or ErrNotFound.",
			"GetByEmail(ctx context.Context, email string) (*models.User, error)", true, false,
			"internal/repository/repository.go:UserRepository"},
		"internal/repository/repository.go:ErrNotFound": {analyze.KindVar, 15, 16, 16,
			"ErrNotFound means no user matches the lookup key.", `var ErrNotFound = errors.New("user not found")`, true, false, ""},
		"internal/repository/memory.go:MemoryRepository.byEmail": {analyze.KindField, 17, 17, 17,
			"normalised email → user ID", "byEmail map[string]string", false, false,
			"internal/repository/memory.go:MemoryRepository"},
		"internal/models/session.go:Session.Expired": {analyze.KindMethod, 13, 17, 15,
			"Expired reports whether the session is no longer valid at now.",
			"func (s Session) Expired(now time.Time) bool", true, false, "internal/models/session.go:Session"},
		"internal/models/user.go:Role": {analyze.KindType, 13, 14, 14, "Role is what a user is allowed to do.",
			"type Role string", true, false, ""},
		"internal/models/user.go:RoleAdmin": {analyze.KindConst, 19, 19, 19, "may read and manage every account",
			`const RoleAdmin Role = "admin"`, true, false, ""},
		"internal/auth/token.go:TokenIssuer.Verify": {analyze.KindMethod, 73, 93, 76,
			"Verify checks the token's signature and expiry and returns its session.",
			"func (t *TokenIssuer) Verify(token string) (models.Session, error)", true, false,
			"internal/auth/token.go:TokenIssuer"},
		"internal/service/user_test.go:TestUserService_FindByEmail": {analyze.KindFunc, 19, 48, 19, "",
			"func TestUserService_FindByEmail(t *testing.T)", true, true, ""},
		"internal/service/user_test.go:newTestService": {analyze.KindFunc, 12, 17, 13,
			"newTestService returns a service over an empty in-memory repository.",
			"func newTestService(t *testing.T) (*UserService, *repository.MemoryRepository)", false, false, ""},
		"cmd/usersvc/main.go:main": {analyze.KindFunc, 23, 29, 23, "", "func main()", false, false, ""},
	}
	for ref, w := range tests {
		t.Run(ref, func(t *testing.T) {
			id := findSym(fs, ref, "")
			if id == analyze.NoSym {
				t.Fatal("symbol not found")
			}
			s := fs.Symbols[id]
			parent := ""
			if s.Parent != analyze.NoSym {
				p := fs.Symbols[s.Parent]
				parent = fs.Files[p.File].Path + ":" + p.QualName(analyze.LangGo)
			}
			got := want{s.Kind, s.Start, s.End, s.DeclLine, "", s.Signature, s.Exported, s.Test, parent}
			if strings.HasPrefix(s.Doc, w.docPrefix) {
				got.docPrefix = w.docPrefix
			} else {
				got.docPrefix = s.Doc
			}
			if diff := cmp.Diff(w, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestGosvcEdges(t *testing.T) {
	fs := loadGosvc(t)
	tests := []struct {
		from, kind, to string
		exact          bool
	}{
		// The golden ranking follows these.
		{"internal/service/user.go:UserService.FindByEmail", "calls", "internal/repository/repository.go:UserRepository.GetByEmail", true},
		{"internal/service/user.go:UserService.FindByEmail", "calls", "internal/models/user.go:NormalizeEmail", true},
		{"internal/service/user.go:UserService.FindByEmail", "references", "internal/repository/repository.go:ErrNotFound", true},
		{"internal/service/user.go:UserService.FindByEmail", "references", "internal/service/user.go:UserService.repo", true},
		{"internal/service/user.go:UserService.FindByEmail", "method_of", "internal/service/user.go:UserService", true},
		{"internal/repository/memory.go:MemoryRepository", "implements", "internal/repository/repository.go:UserRepository", true},
		{"internal/repository/sql.go:SQLRepository", "implements", "internal/repository/repository.go:UserRepository", true},
		{"internal/auth/token.go:TokenIssuer", "implements", "internal/auth/token.go:TokenVerifier", true},
		{"internal/httpapi/handlers.go:Handlers.Login", "calls", "internal/service/user.go:UserService.FindByEmail", true},
		{"internal/httpapi/handlers.go:Handlers.Login", "calls", "internal/auth/token.go:TokenIssuer.Issue", true},
		{"internal/httpapi/handlers.go:Handlers.Login", "calls", "internal/auth/password.go:VerifyPassword", true},
		{"internal/httpapi/server.go:routes", "references", "internal/httpapi/handlers.go:Handlers.Login", true},
		{"internal/httpapi/server.go:routes", "calls", "internal/auth/middleware.go:Middleware", true},
		{"internal/auth/middleware.go:Middleware", "calls", "internal/auth/token.go:TokenVerifier.Verify", true},
		{"cmd/usersvc/main.go:run", "calls", "internal/httpapi/server.go:NewServer", true},
		{"cmd/usersvc/main.go:run", "calls", "internal/httpapi/server.go:Server.Start", true},
		{"cmd/usersvc/main.go:run", "calls", "internal/config/config.go:Load", true},
		{"cmd/usersvc/main.go:main", "calls", "cmd/usersvc/main.go:run", true},
		{"internal/httpapi/handlers.go:Handlers", "field", "internal/httpapi/handlers.go:Handlers.users", true},
		{"internal/httpapi/handlers.go:Handlers", "references", "internal/service/user.go:UserService", true},
		{"internal/httpapi/handlers.go:Handlers.users", "references", "internal/service/user.go:UserService", true},
		{"internal/repository/repository.go:UserRepository.GetByEmail", "method_of", "internal/repository/repository.go:UserRepository", true},
		{"internal/auth/token.go:TokenIssuer.Verify", "calls", "internal/models/session.go:Session.Expired", true},
		{"internal/auth/token.go:TokenIssuer.Issue", "references", "internal/models/session.go:Session.ExpiresAt", true},
		// Tests: what the test calls, and what its name designates.
		{"internal/service/user_test.go:TestUserService_FindByEmail", "tests", "internal/service/user.go:UserService.FindByEmail", true},
		{"internal/service/user_test.go:TestUserService_FindByEmail", "tests", "internal/repository/memory.go:MemoryRepository.Save", true},
		{"internal/service/user_test.go:TestUserService_Register", "tests", "internal/service/user.go:UserService.Register", true},
		{"internal/auth/token_test.go:TestTokenIssuer_Verify", "tests", "internal/auth/token.go:TokenIssuer.Verify", true},
		{"internal/auth/token_test.go:TestVerifyPassword", "tests", "internal/auth/password.go:VerifyPassword", true},
		{"internal/httpapi/handlers_test.go:TestHandlers_Login", "tests", "internal/httpapi/handlers.go:Handlers.Login", false},
		{"internal/httpapi/handlers_test.go:TestHandlers_GetUser", "tests", "internal/httpapi/handlers.go:Handlers.GetUser", false},
	}
	for _, tt := range tests {
		t.Run(tt.from+" "+tt.kind+" "+tt.to, func(t *testing.T) {
			c := []string{"edge", tt.from, tt.kind, tt.to, "inexact"}
			if tt.exact {
				c[4] = "exact"
			}
			if msg := checkFacts(fs, c); msg != "" {
				t.Error(msg)
			}
		})
	}
	// Nothing outside the repository, and no edge to the standard library.
	for _, f := range fs.Files {
		if !analyze.CleanRel(f.Path) || f.Degraded || f.Lang != analyze.LangGo || len(f.Hash) != 64 {
			t.Errorf("bad file record %+v", f)
		}
	}
	for _, p := range fs.Problems {
		t.Errorf("unexpected problem: %v", p)
	}
}

func TestGosvcImports(t *testing.T) {
	fs := loadGosvc(t)
	id, ok := fs.FileByPath("internal/service/user.go")
	if !ok {
		t.Fatal("internal/service/user.go missing")
	}
	var got []string
	for _, im := range fs.Imports {
		if im.File == id {
			got = append(got, im.Path)
		}
	}
	want := []string{"context", "crypto/rand", "encoding/hex", "errors", "fmt",
		"github.com/acme/usersvc/internal/auth", "github.com/acme/usersvc/internal/models",
		"github.com/acme/usersvc/internal/repository", "time"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
	if f := fs.Files[id]; f.Package != "github.com/acme/usersvc/internal/service" || f.PkgName != "service" || f.Category != analyze.CatSource {
		t.Errorf("file record %+v", f)
	}
}

// TestGosvcGolden compares the whole dump of the sample service, typed and
// syntax-only, with golden files; run with -update after intended changes.
func TestGosvcGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
	}{{"typed", Options{}}, {"syntax", Options{SyntaxOnly: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			var fs *analyze.Facts
			var err error
			if tc.name == "typed" {
				fs, err = gosvcFacts()
			} else {
				fs, err = Load(context.Background(), gosvc, tc.opt)
			}
			if err != nil {
				t.Fatal(err)
			}
			got := dumpFacts(fs)
			golden := filepath.Join("testdata", "gosvc."+tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s differs (-want +got); run go test -update if intended:\n%s", golden, diff)
			}
		})
	}
}

// TestDeterminism loads the same tree under different parallelism and
// expects identical facts.
func TestDeterminism(t *testing.T) {
	for _, opt := range []Options{{}, {SyntaxOnly: true}} {
		var dumps []string
		for _, procs := range []int{1, 4} {
			if procs == 4 && !opt.SyntaxOnly {
				// The shared load ran at the test's GOMAXPROCS; use it
				// rather than type-checking the tree once more.
				dumps = append(dumps, dumpFacts(loadGosvc(t)))
				continue
			}
			prev := runtime.GOMAXPROCS(procs)
			fs, err := Load(context.Background(), gosvc, opt)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			dumps = append(dumps, dumpFacts(fs))
		}
		if diff := cmp.Diff(dumps[0], dumps[1]); diff != "" {
			t.Errorf("SyntaxOnly=%v: GOMAXPROCS=1 vs more (-1 +more):\n%s", opt.SyntaxOnly, diff)
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fs, err := Load(ctx, gosvc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !fs.Partial {
		t.Error("Partial = false after cancellation")
	}
	found := false
	for _, p := range fs.Problems {
		found = found || p.Kind == analyze.ProblemLimit
	}
	if !found {
		t.Errorf("no ProblemLimit in %v", fs.Problems)
	}
}

func TestLoadBadRoot(t *testing.T) {
	if _, err := Load(context.Background(), filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Error("missing root: no error")
	}
	f := filepath.Join(t.TempDir(), "file.go")
	if err := os.WriteFile(f, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(context.Background(), f, Options{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file as root: err = %v", err)
	}
}

// TestSymlinkedRoot loads the sample service through a symbolic link to
// its directory and expects the same facts as loading it directly.
func TestSymlinkedRoot(t *testing.T) {
	abs, err := filepath.Abs(gosvc)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "svc")
	if err := os.Symlink(abs, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	viaLink, err := Load(context.Background(), link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	direct := loadGosvc(t)
	if diff := cmp.Diff(dumpFacts(direct), dumpFacts(viaLink)); diff != "" {
		t.Errorf("facts through a symlink differ (-direct +link):\n%s", diff)
	}
}
