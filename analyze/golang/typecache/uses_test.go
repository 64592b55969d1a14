package typecache

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ctxexpand/ctxexpand/index"
)

// checkSources type-checks one package made of the given files (name →
// source), which import nothing.
func checkSources(t *testing.T, files map[string]string) (*types.Package, *token.FileSet) {
	t.Helper()
	fset := token.NewFileSet()
	var asts []*ast.File
	for _, name := range []string{"a.go", "b.go"} {
		src, ok := files[name]
		if !ok {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		asts = append(asts, f)
	}
	pkg, err := (&types.Config{}).Check("example.com/p", fset, asts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg, fset
}

func sumsOf(t *testing.T, files map[string]string) map[string][16]byte {
	t.Helper()
	pkg, fset := checkSources(t, files)
	exp, err := Encode(pkg, fset, func(s string) string { return s }, true)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][16]byte{}
	for _, o := range exp.Objects {
		out[o.Name] = o.Sum
	}
	return out
}

// TestObjectSums: an object's sum follows its own declaration (with its
// methods, for a type) and the file it is in, and nothing else: lines
// moved and objects added leave the others' sums as they were.
func TestObjectSums(t *testing.T) {
	base := map[string]string{
		"a.go": "package p\n\ntype T struct{ X int }\n\nfunc (T) M() int { return 0 }\n\nfunc F() T { return T{} }\n\nconst C = 1\n",
	}
	want := sumsOf(t, base)
	if len(want) != 3 {
		t.Fatalf("sums of %d objects, want 3 (T, F, C): %v", len(want), want)
	}
	cases := []struct {
		name    string
		files   map[string]string
		changed []string // the objects whose sums must change
	}{
		{"lines moved, a function added", map[string]string{
			"a.go": "package p\n\n// A comment that moves everything.\n\nfunc A() {}\n\ntype T struct{ X int }\n\nfunc (T) M() int { return 1 + 1 }\n\nfunc F() T { return T{} }\n\nconst C = 1\n",
		}, nil},
		{"a method added to T", map[string]string{
			"a.go": "package p\n\ntype T struct{ X int }\n\nfunc (T) M() int { return 0 }\n\nfunc (T) N() {}\n\nfunc F() T { return T{} }\n\nconst C = 1\n",
		}, []string{"T"}},
		{"a constant's value", map[string]string{
			"a.go": "package p\n\ntype T struct{ X int }\n\nfunc (T) M() int { return 0 }\n\nfunc F() T { return T{} }\n\nconst C = 2\n",
		}, []string{"C"}},
		{"a function moved to another file", map[string]string{
			"a.go": "package p\n\ntype T struct{ X int }\n\nfunc (T) M() int { return 0 }\n\nconst C = 1\n",
			"b.go": "package p\n\nfunc F() T { return T{} }\n",
		}, []string{"F"}},
		{"a signature", map[string]string{
			"a.go": "package p\n\ntype T struct{ X int }\n\nfunc (T) M() int { return 0 }\n\nfunc F() *T { return nil }\n\nconst C = 1\n",
		}, []string{"F"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := sumsOf(t, c.files)
			changed := map[string]bool{}
			for _, n := range c.changed {
				changed[n] = true
			}
			for name, sum := range want {
				if (got[name] != sum) != changed[name] {
					t.Errorf("%s: sum changed=%v, want %v", name, got[name] != sum, changed[name])
				}
			}
		})
	}
}

// TestExportRecordRoundTrip: what Records stores, LookupExport reads back
// whole, refs and object sums included; a damaged record is refused.
func TestExportRecordRoundTrip(t *testing.T) {
	m := loadKinds(t)
	exp, err := Encode(m.pkgs[kindsPath+"use"], m.fset, m.relName, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(exp.Refs) == 0 || len(exp.Objects) == 0 {
		t.Fatalf("use has %d refs and %d object sums; the test needs both", len(exp.Refs), len(exp.Objects))
	}
	c := mapCache{}
	key := index.NewHasher("t").String("use").Sum()
	for _, r := range exp.Records(key) {
		c.Put(r.Key, r.Data)
	}
	got, ok := LookupExport(c, key)
	if !ok {
		t.Fatal("the record stored is not found")
	}
	if diff := cmp.Diff(exp, got, cmpopts.IgnoreFields(Export{}, "Objects"), cmpopts.IgnoreUnexported(Export{})); diff != "" {
		t.Errorf("read back (-stored +read):\n%s", diff)
	}
	if !got.HasObjects() {
		t.Error("the record read back has no object sums")
	}
	if diff := cmp.Diff(exp.ObjectSums(), got.ObjectSums()); diff != "" {
		t.Errorf("object sums read back (-stored +read):\n%s", diff)
	}
	rec := c[key]
	for _, cut := range []int{1, 17} {
		c[key] = rec[:len(rec)-cut]
		if _, ok := LookupExport(c, key); ok {
			t.Errorf("a record cut by %d bytes was read", cut)
		}
	}
	c[key] = append(append([]byte(nil), rec...), 0)
	if _, ok := LookupExport(c, key); ok {
		t.Error("a record with a byte to spare was read")
	}
}

// TestObjectsKey: the key of the objects a package uses changes with
// their sums and their presence, and not with the other objects'.
func TestObjectsKey(t *testing.T) {
	sum := func(b byte) [16]byte { return [16]byte{b} }
	e := Export{Shape: []byte("s"), Objects: []ObjectSum{{"A", sum(1)}, {"B", sum(2)}, {"C", sum(3)}}}
	base := ObjectsKey("p", e, []string{"A", "C"})
	other := e
	other.Objects = []ObjectSum{{"A", sum(1)}, {"B", sum(9)}, {"C", sum(3)}, {"D", sum(4)}}
	if ObjectsKey("p", other, []string{"A", "C"}) != base {
		t.Error("an object not used changed the key")
	}
	other.Objects = []ObjectSum{{"A", sum(1)}, {"B", sum(2)}, {"C", sum(5)}}
	if ObjectsKey("p", other, []string{"A", "C"}) == base {
		t.Error("a used object's sum left the key as it was")
	}
	other.Objects = []ObjectSum{{"A", sum(1)}, {"B", sum(2)}}
	if ObjectsKey("p", other, []string{"A", "C"}) == base {
		t.Error("a used object gone left the key as it was")
	}
	if ObjectsKey("q", e, []string{"A", "C"}) == base {
		t.Error("the package's name left the key as it was")
	}
	// A name used that the package lacks counts once it has it.
	lacking := ObjectsKey("p", e, []string{"A", "Z"})
	other.Objects = append(append([]ObjectSum(nil), e.Objects...), ObjectSum{"Z", sum(7)})
	if ObjectsKey("p", other, []string{"A", "Z"}) == lacking {
		t.Error("a name used that appeared left the key as it was")
	}
}

// TestUsesRecord: uses survive their record.
func TestUsesRecord(t *testing.T) {
	u := Uses{Names: map[string][]string{"example.com/a": {"T", "f"}, "example.com/b": {"X"}}, All: map[string]bool{"fmt": true, "example.com/b": true},
		Files: map[string]string{"a/a.go": "h1", "a/b.go": "h2"}, Imports: index.Key{4}, Result: index.Key{1, 2}, Export: index.Key{3}}
	got, err := DecodeUses(EncodeUses(u))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(u, got); diff != "" {
		t.Errorf("read back (-stored +read):\n%s", diff)
	}
	for _, cut := range []int{5, 70} {
		if _, err := DecodeUses(EncodeUses(u)[:cut]); err == nil {
			t.Errorf("a record cut to %d bytes decoded", cut)
		}
	}
	if rk, ek, ok := UsesRecordKeys(EncodeUses(u)); !ok || rk != u.Result || ek != u.Export {
		t.Errorf("UsesRecordKeys = %x, %x, %v", rk[:2], ek[:2], ok)
	}
}

// FuzzDecodeUses: a damaged uses record (the index can hold anything)
// gives an error, never a panic, and what decodes encodes back the same.
func FuzzDecodeUses(f *testing.F) {
	f.Add(EncodeUses(Uses{Names: map[string][]string{"example.com/a": {"T"}}, All: map[string]bool{"fmt": true}, Files: map[string]string{"a.go": "h"}}))
	f.Add([]byte{})
	f.Add(append(make([]byte, 64), 1, 0, 0, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		u, err := DecodeUses(data)
		if err != nil {
			return
		}
		again, err := DecodeUses(EncodeUses(u))
		if err != nil || !cmp.Equal(u, again) {
			t.Errorf("a decoded record does not survive encoding again: %v", err)
		}
	})
}
