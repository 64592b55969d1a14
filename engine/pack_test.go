package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/index"
)

// buildPack indexes root through a new index and writes its pack.
func buildPack(t *testing.T, root string) []byte {
	t.Helper()
	st := openIndex(t, t.TempDir(), nil)
	if o := runQuery(t, root, st, "fix UserService.FindByEmail"); o.snapshot != snapshotMiss {
		t.Fatalf("first load: snapshot %q", o.snapshot)
	}
	var b bytes.Buffer
	info, err := WritePack(context.Background(), root, LoadOptions{Index: st}, &b)
	if err != nil {
		t.Fatal(err)
	}
	if info.Program != st.ExecutableID() || len(info.Inputs) < 10 || info.Settings == "" {
		t.Fatalf("pack description: program %q, %d inputs, settings %q", info.Program, len(info.Inputs), info.Settings)
	}
	return b.Bytes()
}

// seed reads a pack and seeds a new index at root with it.
func seed(t *testing.T, root string, pack []byte, opt LoadOptions) (*index.Store, SeedResult, error) {
	t.Helper()
	st := openIndex(t, t.TempDir(), nil)
	opt.Index = st
	a, info, err := ReadPack(bytes.NewReader(pack), 0)
	if err != nil {
		return st, SeedResult{}, err
	}
	res, err := SeedFromPack(context.Background(), root, opt, a, info)
	return st, res, err
}

// TestPackOnAnotherCheckout builds a pack of one checkout and seeds the
// index of another (another path, another index directory): the first
// query there analyses nothing and answers as a query without any index.
func TestPackOnAnotherCheckout(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "gosvc")
	one, two := copyTree(t, src), copyTree(t, src)
	pack := buildPack(t, one)
	st, res, err := seed(t, two, pack, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Snapshot || res.Records == 0 {
		t.Fatalf("seed: %+v", res)
	}
	want := runQuery(t, two, nil, "fix UserService.FindByEmail")
	got := runQuery(t, two, st, "fix UserService.FindByEmail")
	if got.snapshot != snapshotHit {
		t.Errorf("the first query after seeding: snapshot %q, want a hit", got.snapshot)
	}
	if diff := cmp.Diff(want.text, got.text); diff != "" {
		t.Errorf("the query through the seeded index differs (-fresh +seeded):\n%s", diff)
	}
	for _, s := range st.RunStats() {
		if s.Kind == "lexical" && s.Hits == 0 {
			t.Error("the lexical index was built again; the pack's was not used")
		}
	}
}

// TestPackOfAnotherTree: after an edit, the pack's snapshot is not used
// (it says which file differs), its records are, and only the edited
// package is analysed again; the answer is a fresh load's.
func TestPackOfAnotherTree(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "gosvc")
	one, two := copyTree(t, src), copyTree(t, src)
	pack := buildPack(t, one)
	editFile(t, two, "internal/service/user.go", func(s string) string { return s + "\n// edited\n" })
	st, res, err := seed(t, two, pack, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Snapshot || !strings.Contains(res.Reason, "internal/service/user.go") || res.Records == 0 {
		t.Fatalf("seed of an edited tree: %+v", res)
	}
	want := runQuery(t, two, nil, "fix UserService.FindByEmail")
	got := runQuery(t, two, st, "fix UserService.FindByEmail")
	if got.snapshot != snapshotMiss {
		t.Errorf("snapshot %q, want a miss", got.snapshot)
	}
	if diff := cmp.Diff(want.text, got.text); diff != "" {
		t.Errorf("the query through the seeded index differs (-fresh +seeded):\n%s", diff)
	}
	var goStats index.KindStats
	for _, s := range st.RunStats() {
		if s.Kind == "go-pkg" {
			goStats = s.KindStats
		}
	}
	if goStats.Hits == 0 || goStats.Misses > goStats.Hits/4 {
		t.Errorf("go-pkg records: %d hits, %d misses; the pack's records were not used", goStats.Hits, goStats.Misses)
	}
}

// TestPackRefused: packs that cannot be used are refused with a reason
// and leave the index as it was; settings that differ keep the snapshot
// out but not the records.
func TestPackRefused(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "gosvc")
	one := copyTree(t, src)
	pack := buildPack(t, one)

	t.Run("another version", func(t *testing.T) {
		a, info, err := ReadPack(bytes.NewReader(pack), 0)
		if err != nil {
			t.Fatal(err)
		}
		info.Program = "vcs:0123456789 go1.0"
		st := openIndex(t, t.TempDir(), nil)
		_, err = SeedFromPack(context.Background(), one, LoadOptions{Index: st}, a, info)
		if !errors.Is(err, ErrPackRefused) || !strings.Contains(err.Error(), "another version of ctxexpand") {
			t.Fatalf("err = %v", err)
		}
		if recs, _ := st.PackRecords(one, "go-pkg"); len(recs) != 0 {
			t.Errorf("a refused pack left %d records", len(recs))
		}
	})
	t.Run("another repository", func(t *testing.T) {
		rust := copyTree(t, filepath.Join(repoRoot(t), "testdata", "rustsvc"))
		st, _, err := seed(t, rust, pack, LoadOptions{})
		if !errors.Is(err, ErrPackRefused) || !strings.Contains(err.Error(), "another tree") {
			t.Fatalf("err = %v", err)
		}
		if recs, _ := st.PackRecords(rust, "go-pkg"); len(recs) != 0 {
			t.Errorf("a refused pack left %d records", len(recs))
		}
	})
	t.Run("other settings", func(t *testing.T) {
		_, res, err := seed(t, one, pack, LoadOptions{SkipTests: true})
		if err != nil || res.Snapshot || !strings.Contains(res.Reason, "skip-tests") || res.Records == 0 {
			t.Fatalf("seed with other settings: %+v, %v", res, err)
		}
	})
	damages := map[string]func([]byte) []byte{
		"truncated":  func(b []byte) []byte { return b[:len(b)/2] },
		"flipped":    func(b []byte) []byte { b = append([]byte(nil), b...); b[len(b)/2] ^= 0x08; return b },
		"empty":      func([]byte) []byte { return nil },
		"not a pack": func([]byte) []byte { return []byte("PK\x03\x04") },
		"trailing":   func(b []byte) []byte { return append(append([]byte(nil), b...), "junk"...) },
	}
	for name, damage := range damages {
		t.Run(name, func(t *testing.T) {
			_, _, err := ReadPack(bytes.NewReader(damage(pack)), 0)
			if !errors.Is(err, ErrPackRefused) {
				t.Fatalf("err = %v, want ErrPackRefused", err)
			}
		})
	}
}

// TestPackNeedsACompleteAnalysis: with nothing stored for the tree as it
// is, WritePack says what to do instead of writing an empty pack.
func TestPackNeedsACompleteAnalysis(t *testing.T) {
	root := copyTree(t, filepath.Join(repoRoot(t), "testdata", "gosvc"))
	st := openIndex(t, t.TempDir(), nil)
	var b bytes.Buffer
	if _, err := WritePack(context.Background(), root, LoadOptions{Index: st}, &b); err == nil || !strings.Contains(err.Error(), "run ctxexpand index") {
		t.Fatalf("err = %v", err)
	}
	if b.Len() != 0 {
		t.Errorf("%d bytes written", b.Len())
	}
}

// TestPortableSettings: the description of a root's settings leaves out
// where the root, the Go installation and the module cache are, and
// keeps everything else.
func TestPortableSettings(t *testing.T) {
	fp := func(root, goroot string) string {
		return "options skip-tests=false\nenv GOROOT=" + goroot + "\nenv GOMODCACHE=/home/x/go/pkg/mod\nenv GOOS=linux\nenv GOWORK=" + root + "/go.work\nfile go.mod 1234\n"
	}
	a := portableSettings("/ci/work/repo", LoadOptions{}, fp("/ci/work/repo", "/opt/go"))
	b := portableSettings("/home/dev/src/repo", LoadOptions{}, fp("/home/dev/src/repo", "/usr/local/go"))
	if a != b {
		t.Errorf("the same settings at other paths differ:\n%s\n%s", a, b)
	}
	c := portableSettings("/ci/work/repo", LoadOptions{}, strings.Replace(fp("/ci/work/repo", "/opt/go"), "GOOS=linux", "GOOS=darwin", 1))
	if a == c || !strings.Contains(firstDifference(a, c), "GOOS") {
		t.Errorf("another GOOS: %s", firstDifference(a, c))
	}
	if d := portableSettings("/ci/work/repo", LoadOptions{Backend: BackendBuiltin}, fp("/ci/work/repo", "/opt/go")); d != a {
		t.Error("the default backend, named or not, describes differently")
	}
	// A SCIP index at the root counts by content, wherever the root is
	// and whatever its file's time.
	withSCIP := func(content string) (string, string) {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, DefaultSCIPIndex), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return root, portableSettings(root, LoadOptions{}, "")
	}
	_, s1 := withSCIP("index one")
	_, s2 := withSCIP("index one")
	_, s3 := withSCIP("index two")
	if s1 != s2 || s1 == s3 || !strings.Contains(s1, "scip index.scip ") {
		t.Errorf("SCIP indexes: same content alike %v, other content apart %v:\n%s", s1 == s2, s1 != s3, s1)
	}
}
