package pack_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/pack"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// buildPack indexes root through a new index and writes its pack.
func buildPack(t *testing.T, root string) []byte {
	t.Helper()
	st := openIndex(t, t.TempDir())
	if o := runQuery(t, root, st, "fix UserService.FindByEmail"); o.snapshot != snapshotMiss {
		t.Fatalf("first load: snapshot %q", o.snapshot)
	}
	var b bytes.Buffer
	info, err := pack.Write(context.Background(), root, engine.LoadOptions{Index: st}, &b)
	if err != nil {
		t.Fatal(err)
	}
	if info.Program != st.ExecutableID() || len(info.Inputs) < 10 || info.Settings == "" {
		t.Fatalf("pack description: program %q, %d inputs, settings %q", info.Program, len(info.Inputs), info.Settings)
	}
	return b.Bytes()
}

// seed reads a pack and seeds a new index at root with it.
func seed(t *testing.T, root string, data []byte, opt engine.LoadOptions) (*index.Store, pack.SeedResult, error) {
	t.Helper()
	st := openIndex(t, t.TempDir())
	opt.Index = st
	a, info, err := pack.Read(bytes.NewReader(data), 0)
	if err != nil {
		return st, pack.SeedResult{}, err
	}
	res, err := pack.Seed(context.Background(), root, opt, a, info)
	return st, res, err
}

// TestPackOnAnotherCheckout builds a pack of one checkout and seeds the
// index of another (another path, another index directory): the first
// query there analyses nothing and answers as a query without any index.
func TestPackOnAnotherCheckout(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "gosvc")
	one, two := copyTree(t, src), copyTree(t, src)
	data := buildPack(t, one)
	st, res, err := seed(t, two, data, engine.LoadOptions{})
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
	data := buildPack(t, one)
	testfiles.EditFile(t, two, "internal/service/user.go", func(s string) string { return s + "\n// edited\n" })
	st, res, err := seed(t, two, data, engine.LoadOptions{})
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
	data := buildPack(t, one)

	t.Run("another version", func(t *testing.T) {
		a, info, err := pack.Read(bytes.NewReader(data), 0)
		if err != nil {
			t.Fatal(err)
		}
		info.Program = "vcs:0123456789 go1.0"
		st := openIndex(t, t.TempDir())
		_, err = pack.Seed(context.Background(), one, engine.LoadOptions{Index: st}, a, info)
		if !errors.Is(err, pack.ErrRefused) || !strings.Contains(err.Error(), "another version of ctxexpand") {
			t.Fatalf("err = %v", err)
		}
		if recs, _ := st.PackRecords(one, "go-pkg"); len(recs) != 0 {
			t.Errorf("a refused pack left %d records", len(recs))
		}
	})
	t.Run("another repository", func(t *testing.T) {
		rust := copyTree(t, filepath.Join(repoRoot(t), "testdata", "rustsvc"))
		st, _, err := seed(t, rust, data, engine.LoadOptions{})
		if !errors.Is(err, pack.ErrRefused) || !strings.Contains(err.Error(), "another tree") {
			t.Fatalf("err = %v", err)
		}
		if recs, _ := st.PackRecords(rust, "go-pkg"); len(recs) != 0 {
			t.Errorf("a refused pack left %d records", len(recs))
		}
	})
	t.Run("other settings", func(t *testing.T) {
		_, res, err := seed(t, one, data, engine.LoadOptions{SkipTests: true})
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
			_, _, err := pack.Read(bytes.NewReader(damage(data)), 0)
			if !errors.Is(err, pack.ErrRefused) {
				t.Fatalf("err = %v, want ErrRefused", err)
			}
		})
	}
}

// TestPackNeedsACompleteAnalysis: with nothing stored for the tree as it
// is, Write says what to do instead of writing an empty pack.
func TestPackNeedsACompleteAnalysis(t *testing.T) {
	root := copyTree(t, filepath.Join(repoRoot(t), "testdata", "gosvc"))
	st := openIndex(t, t.TempDir())
	var b bytes.Buffer
	if _, err := pack.Write(context.Background(), root, engine.LoadOptions{Index: st}, &b); err == nil || !strings.Contains(err.Error(), "run ctxexpand index") {
		t.Fatalf("err = %v", err)
	}
	if b.Len() != 0 {
		t.Errorf("%d bytes written", b.Len())
	}
}
