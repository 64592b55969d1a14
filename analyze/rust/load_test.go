package rust

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func loadDir(t testing.TB, dir string, opt Options) *analyze.Facts {
	t.Helper()
	f, err := Load(context.Background(), dir, opt)
	if err != nil {
		t.Fatalf("Load(%s): %v", dir, err)
	}
	return f
}

// checkGolden compares got with testdata/golden/name, or rewrites it.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got), run go test -update if the change is intended:\n%s", file, diff)
	}
}

// TestUserService checks the facts a ranking for "fix
// UserService::find_by_email" needs, then the whole graph against a golden
// file so that every change shows in review.
func TestUserService(t *testing.T) {
	f := loadDir(t, "../../testdata/rustsvc", Options{})
	checkWants(t, f, `
file src/service.rs package=user_svc::service crate=user_svc category=source
file src/store/memory.rs package=user_svc::store::memory
file src/store/mod.rs package=user_svc::store
file src/main.rs package=bin:user_svc crate=user_svc
file tests/service_test.rs package=test:service_test crate=service_test category=test
sym struct UserService 48-53 decl=50 exported
sym method UserService::find_by_email 61-72 decl=63 exported parent=UserService
sig UserService::find_by_email pub fn find_by_email(&self, email: &str) -> Result<User, ServiceError>
doc UserService::find_by_email Finds the user with this e-mail address
sym trait Store exported
sym method Store::find_user_by_email parent=Store
sym impl Store+for+MemoryStore
sym method MemoryStore::find_user_by_email parent=Store+for+MemoryStore
sym func normalize_email exported
sym macro invalid
doc store Persistence: the [`+"`Store`"+`] trait
# the service depends on the Store trait
edge! UserService references Store
edge! UserService::find_by_email calls Store::find_user_by_email
edge! UserService::find_by_email calls normalize_email
edge! UserService::find_by_email calls is_valid_email
edge! UserService::find_by_email references User
edge! UserService::find_by_email references ServiceError
edge! UserService::find_by_email macro ensure
edge! UserService::find_by_email method_of UserService
edge! ensure macro invalid
edge! invalid references ServiceError::Invalid
# MemoryStore implements Store
edge! MemoryStore implements Store
edge! MemoryStore::find_user_by_email implements Store::find_user_by_email
edge! MemoryStore::find_user_by_email method_of MemoryStore
# callers and tests
edge! UserService::login calls UserService::find_by_email
edge! App::execute calls UserService::find_by_email
edge! find_by_email_returns_user tests UserService::find_by_email
edge! find_by_email_returns_user calls UserService::find_by_email
edge! find_by_email_unknown_user_is_not_found tests UserService::find_by_email
edge! register_then_find_by_email tests normalize_email
edge! normalize_email_trims_and_lowercases tests normalize_email
sym func find_by_email_returns_user test
# imports
import src/service.rs user_svc::store
import src/service.rs user_svc::util
import src/store/mod.rs user_svc::store::memory
import tests/service_test.rs user_svc::service
import src/main.rs user_svc::store::memory
noproblem syntax
noproblem load
noproblem degraded
`)
	checkGolden(t, "rustsvc.txt", dumpFacts(f))
}

// TestWorkspace checks resolution across the crates of a workspace: a
// dependency through [workspace.dependencies], a pub use re-export chain, a
// renamed re-export and a glob import.
func TestWorkspace(t *testing.T) {
	f := loadDir(t, "../../testdata/rustws", Options{})
	checkWants(t, f, `
file crates/core/src/lib.rs package=ws_core crate=ws_core
file crates/core/src/shapes.rs package=ws_core::shapes crate=ws_core
file crates/api/src/lib.rs package=ws_api crate=ws_api
file crates/api/src/report.rs package=ws_api::report crate=ws_api
# a glob import of another crate's module
edge! area_report calls to_square_feet
edge! area_report calls round2
# a use of a re-export at the other crate's root
edge! area_report calls total_area
edge! area_report references Shape
# a renamed re-export (Circle as Round) and a full path
edge! parse_shape references Circle
edge! parse_shape references Rect
edge! parse_shape calls Rect::square
# a method called on an untyped closure parameter: by name, the trait method
edge~ total_area calls Shape::area
edge! Circle implements Shape
edge! area_report_lists_each_shape_and_total tests area_report
import crates/api/src/report.rs ws_core::units
import crates/api/src/report.rs ws_core::shapes
import crates/api/src/lib.rs ws_core::shapes
noproblem load
`)
	checkGolden(t, "rustws.txt", dumpFacts(f))
}

// TestDeterministic loads the sample crate with different worker counts
// and checks that the facts are identical.
func TestDeterministic(t *testing.T) {
	want := dumpFacts(loadDir(t, "../../testdata/rustsvc", Options{Workers: 1}))
	for _, w := range []int{2, 4, 16} {
		got := dumpFacts(loadDir(t, "../../testdata/rustsvc", Options{Workers: w}))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Workers=%d differs from Workers=1 (-want +got):\n%s", w, diff)
		}
	}
}

func TestSkipTests(t *testing.T) {
	f := loadDir(t, "../../testdata/rustsvc", Options{SkipTests: true})
	for _, s := range f.Symbols {
		if s.Test {
			t.Errorf("test symbol %s kept with SkipTests", s.QualName(analyze.LangRust))
		}
	}
	for _, fl := range f.Files {
		if fl.Category == analyze.CatTest {
			t.Errorf("test file %s kept with SkipTests", fl.Path)
		}
	}
	for _, e := range f.Edges {
		if e.Kind == analyze.EdgeTests {
			t.Errorf("tests edge kept with SkipTests")
			break
		}
	}
	if len(symsNamed(f, "UserService::find_by_email")) != 1 {
		t.Error("SkipTests dropped source code")
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(context.Background(), filepath.Join(t.TempDir(), "absent"), Options{}); err == nil {
		t.Error("Load of a missing root succeeded")
	}
	file := filepath.Join(t.TempDir(), "lib.rs")
	if err := os.WriteFile(file, []byte("fn main() {}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(context.Background(), file, Options{})
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Load of a file: %v, want a not-a-directory error", err)
	}
}
