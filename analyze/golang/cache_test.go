package golang

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
	"github.com/ctxexpand/ctxexpand/index"
)

// memCache is a Cache in memory that counts lookups.
// memCache is a Cache in memory that counts what a load asks of it. The
// export data blobs that export records name, and the slots and parts of
// partial extraction, are counted apart: hits, misses and puts are of
// results and export records only.
type memCache struct {
	mu           sync.Mutex
	m            map[index.Key][]byte
	hits, miss   int
	puts         int
	blobs, bputs int
	side         sideCounts
}

// sideCounts counts the records of partial extraction (partial.go).
type sideCounts struct{ hits, miss, puts int }

// sideKeys are the slot, part and uses keys loads computed; see
// partialKeySeen and usesKeySeen.
var sideKeys sync.Map

func init() {
	partialKeySeen = func(k index.Key) { sideKeys.Store(k, true) }
	usesKeySeen = partialKeySeen
	// Every load of the package's tests checks seenFrom against a walk
	// of the graph: a panic becomes a problem, which the cached loads'
	// comparisons with fresh ones catch.
	seenFromChecked = func(n *node, path string, got *node) {
		if want := n.findDep(path); want != got {
			panic(fmt.Sprintf("seenFrom(%s, %s) = %s, the walk finds %s", n.pkg.ID, path, idOf(got), idOf(want)))
		}
	}
}

func isSide(k index.Key) bool {
	_, ok := sideKeys.Load(k)
	return ok
}

// isBlob tells an export data blob by its key, which hashes its content.
func isBlob(k index.Key, d []byte) bool {
	_, ok := typecache.BlobData(k, d)
	return ok
}

func (c *memCache) Get(k index.Key) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[k]
	switch {
	case isSide(k) && ok:
		c.side.hits++
	case isSide(k):
		c.side.miss++
	case ok && isBlob(k, d):
		c.blobs++
	case ok:
		c.hits++
	default:
		c.miss++
	}
	return d, ok
}

func (c *memCache) Put(k index.Key, d []byte) {
	c.mu.Lock()
	c.m[k] = d
	switch {
	case isSide(k):
		c.side.puts++
	case isBlob(k, d):
		c.bputs++
	default:
		c.puts++
	}
	c.mu.Unlock()
}

func (c *memCache) reset() {
	c.mu.Lock()
	c.hits, c.miss, c.side = 0, 0, sideCounts{}
	c.mu.Unlock()
}

// TestResultCodecCoversEveryField fails when a field is added to the
// records the cache stores: encode it in cachecodec.go, bump
// resultCodecVersion, then update the counts here.
func TestResultCodecCoversEveryField(t *testing.T) {
	want := map[string]int{"Result": 11, "FileRec": 2, "ImportRec": 3, "SymRec": 7, "Key": 3,
		"EdgeRec": 5, "RawRef": 13, "MethodSet": 5, "TypeRef": 2, "Symbol": 12, "File": 10, "Problem": 4}
	for _, v := range []any{extract.Result{}, extract.FileRec{}, extract.ImportRec{}, extract.SymRec{}, extract.Key{}, extract.EdgeRec{}, extract.RawRef{}, extract.MethodSet{},
		extract.TypeRef{}, analyze.Symbol{}, analyze.File{}, analyze.Problem{}} {
		typ := reflect.TypeOf(v)
		if n := typ.NumField(); n != want[typ.Name()] {
			t.Errorf("%s has %d fields, the codec knows %d: update cachecodec.go and resultCodecVersion", typ.Name(), n, want[typ.Name()])
		}
	}
}

// shopModule writes testdata/cache/shop.txtar into a new root.
func shopModule(t *testing.T) string { return archiveModule(t, "shop") }

// archiveModule writes testdata/cache/NAME.txtar into a new directory.
func archiveModule(t *testing.T, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/cache/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeArchive(t, root, ar)
	return root
}

// cachedStep loads root without a cache and through c, and fails the
// test when the two differ or c did not count the given hits and misses
// (records of other kinds aside, see memCache). It returns the cached
// load.
func cachedStep(t *testing.T, root string, c *memCache, step string, hits, miss int) *analyze.Facts {
	t.Helper()
	want, err := Load(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.reset()
	got, err := Load(context.Background(), root, Options{Cache: c, CacheSalt: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
		t.Fatalf("%s: cached load differs (-fresh +cached):\n%s", step, diff)
	}
	if c.hits != hits || c.miss != miss {
		t.Errorf("%s: %d hits, %d misses; want %d, %d", step, c.hits, c.miss, hits, miss)
	}
	return got
}

// TestCachedLoad loads a module through a cache step by step and compares
// every load with one without the cache.
func TestCachedLoad(t *testing.T) {
	root := shopModule(t)
	c := &memCache{m: map[index.Key][]byte{}}
	// Each step edits the module, then the cached load must equal a fresh
	// one, with the given number of package results reused and computed.
	edit := func(rel, old, new string) func() {
		return func() { replaceOnce(t, root, rel, old, new) }
	}
	// A load looks up the result of each extracted package (store
	// [store.test], cart, report, cmd/shop) and the export record of each
	// package (those and store), in dependency order, under keys that
	// hash its imports' surfaces, which change with their declarations.
	// When one misses for a package that imports another of the module
	// (cart, cmd/shop), it is looked up again under the objects the
	// package uses of others (uses.go): a second lookup, and a third when
	// that finds an alias to the record.
	steps := []struct {
		name       string
		change     func()
		hits, miss int
	}{
		{"cold", nil, 0, 4 + 5},
		{"warm", nil, 4 + 5, 0},
		// Only report's own records: the edit moved Line, which leaves
		// report's shape, and so cmd/shop's keys, as they were; cmd/shop's
		// stored result is moved to where Line is now.
		{"edit a package one other imports", edit("report/report.go", "// Line formats", "// Line formats (edited)\n//"), 3 + 4, 1 + 1},
		// Only store's: Add moved, everything above it is reused.
		{"edit the bottom of the chain", edit("store/store.go", "\tit, ok := s.items[sku]", "\t// Look it up.\n\tit, ok := s.items[sku]"), 3 + 3, 1 + 2},
		{"rename across packages", replaceAll(t, root, "FindBySKU", "LookupSKU"), 1 + 1, 3 + 4 + 4},
		{"back to a state seen before", replaceAll(t, root, "LookupSKU", "FindBySKU"), 4 + 5, 0},
		// Only store's own records: its surface is what it was, so cart
		// and cmd/shop are reused and store is imported from export data.
		{"comment appended at the bottom of the chain", edit("store/store.go", "s.items[it.SKU] = it }", "s.items[it.SKU] = it }\n\n// x"), 3 + 3, 1 + 2},
		{"function body changed in place", edit("store/store.go", "\treturn it, ok", "\treturn it, ok && it.Price >= 0"), 3 + 3, 1 + 2},
		{"declaration changed in place", edit("store/store.go", "func (s *Store) Add(it Item)", "func (s *Store) Add(it Item, _ ...int)"), 1 + 1, 3 + 4 + 4},
		// cart's declarations now use a package go list cannot find: cart
		// changes, and its export data holds invalid types; cmd/shop uses
		// none of what cart added, and is reused under its uses.
		{"a dependency goes missing", edit("cart/cart.go", "import \"example.com/shop/store\"",
			"import (\n\t\"example.com/nowhere/lib\"\n\t\"example.com/shop/store\"\n)\n\nvar Client lib.Client\n\nfunc Open() (*lib.Conn, error) { return lib.Dial() }\n\ntype Wrapped struct{ lib.Client }"), 5 + 3, 2 + 4},
		// store changes, cart is reused; cmd/shop imports cart's export
		// data, and finds its result through the alias the last load
		// left under the key of its imports' surfaces.
		{"comment appended below the broken package", edit("store/store.go", "// x", "// x\n// y"), 3 + 4, 1 + 2},
		{"the broken package is used", edit("cmd/shop/main.go", "func main() {", "var _, _ = cart.Open()\nvar _ = cart.Client.Name\nvar _ = cart.Wrapped{}.Client\n\nfunc main() {"), 3 + 4, 4},
	}
	for _, s := range steps {
		if s.change != nil {
			s.change()
		}
		cachedStep(t, root, c, s.name, s.hits, s.miss)
	}
}

// TestSurfaceFollowsRefs adds declarations to the package at the bottom
// of testdata/cache/layers.txtar and counts the records reused. A
// package's records follow what it uses of other packages, and a
// package's surface the packages its declarations name: a function added
// to base checks base again and nothing above it, not even plain and
// typed, which import it (under the old keys, all five packages were
// checked again). top sees base's T through typed's Make without
// importing base: a method added to T must reach it (its Half stops
// failing), and so must the cached load, which every step compares with
// a fresh one. above calls plain.Later before plain declares it, and
// must see it once plain does.
func TestSurfaceFollowsRefs(t *testing.T) {
	root := archiveModule(t, "layers")
	c := &memCache{m: map[index.Key][]byte{}}
	// Each of the five packages has a result and an export record,
	// looked up under its imports' surfaces and, when that misses for a
	// package that imports another (all but base), under the objects it
	// uses of others, where an alias sends the lookup to the record
	// (uses.go). A package reused that way costs 2 misses and 3 hits; one
	// checked again, 4 misses.
	steps := []struct {
		name, file, old, new string
		hits, miss           int
	}{
		{"cold", "", "", "", 0, 10},
		{"warm", "", "", "", 10, 0},
		// Only base is checked: plain, typed and top are reused under
		// their uses, above under its imports' surfaces (plain's did not
		// change).
		{"a function added to base", "base/base.go", "func Count() int { return 1 }", "func Count() int { return 1 }\n\n// Extra is new.\nfunc Extra() int { return 3 }", 3*3 + 2, 2 + 3*2},
		// typed and top use T and are checked again; plain is reused under
		// its uses, above as it was.
		{"a method added to base's T", "base/base.go", "// Count is", "// Half halves it.\nfunc (t T) Half() int { return t.X / 2 }\n\n// Count is", 3 + 2, 2 + 2 + 4 + 4},
		// plain follows the alias the last load left (3 lookups).
		{"a body changed in base", "base/base.go", "return 2 * t.X", "return t.X + t.X", 3 + 2 + 2 + 2, 2},
		// above named plain.Later before plain had it: it is checked
		// again, top is reused under its uses.
		{"a function added to plain", "plain/plain.go", "func Total()", "func Later() int { return 2 }\n\nfunc Total()", 2 + 2 + 3, 4 + 4 + 2},
	}
	for _, s := range steps {
		if s.old != "" {
			replaceOnce(t, root, s.file, s.old, s.new)
		}
		got := cachedStep(t, root, c, s.name, s.hits, s.miss)
		if s.name == "cold" && (!hasProblem(got, "Half") || !hasProblem(got, "Later")) {
			t.Fatalf("the calls of Half and Later are not problems; the fixture no longer tests what it should:\n%v", got.Problems)
		}
	}
	// Nothing changed: every record is found at once, top's through the
	// alias the last load left (3 lookups).
	if fs := cachedStep(t, root, c, "again", 4*2+3, 0); hasProblem(fs, "Half") || hasProblem(fs, "Later") {
		t.Errorf("the cached load still reports what base and plain gained missing: %v", fs.Problems)
	}
}

// hasProblem reports whether a problem's message mentions s.
func hasProblem(fs *analyze.Facts, s string) bool {
	for _, p := range fs.Problems {
		if strings.Contains(p.Msg, s) {
			return true
		}
	}
	return false
}

// replaceAll returns a change replacing old by new in every Go file of
// store and cart.
func replaceAll(t *testing.T, root, old, new string) func() {
	return func() {
		for _, f := range []string{"store/store.go", "store/store_test.go", "cart/cart.go"} {
			p := filepath.Join(root, f)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p, []byte(strings.ReplaceAll(string(data), old, new)), 0o644)
		}
	}
}

// FuzzDecodeResult checks that a damaged record never panics the decoder,
// and that what decodes encodes back to the same bytes.
func FuzzDecodeResult(f *testing.F) {
	res := &extract.Result{Scope: "store:store", ImportPath: "example.com/shop/store", PkgName: "store", Dir: "store",
		Files:      []extract.FileRec{{File: analyze.File{Path: "store/store.go", Lang: analyze.LangGo}, Imports: []extract.ImportRec{{Path: "strings", Line: 3}}}},
		Syms:       []extract.SymRec{{Key: extract.Key{Path: "store/store.go", Line: 5, Col: 6}, Sym: analyze.Symbol{Name: "Item", Kind: analyze.KindStruct, Parent: analyze.NoSym}, File: "store/store.go"}},
		Edges:      []extract.EdgeRec{{From: extract.Key{Path: "store/store.go", Line: 5, Col: 6}, To: extract.Key{Path: "store/store.go", Line: 9, Col: 6}, Kind: analyze.EdgeReferences, Exact: true}},
		Raws:       []extract.RawRef{{From: extract.Key{Path: "store/store.go", Line: 5, Col: 6}, Kind: analyze.EdgeCalls, Name: "Get", Member: true}},
		MethodSets: []extract.MethodSet{{Key: extract.Key{Path: "store/store.go", Line: 5, Col: 6}, Arity: []string{"Get/1/1"}}},
	}
	f.Add(encodeResult(res))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeResult(data)
		if err != nil {
			return
		}
		if again, err := decodeResult(encodeResult(r)); err != nil || !cmp.Equal(r, again, cmp.AllowUnexported(extract.Result{}, extract.FileRec{}, extract.ImportRec{}, extract.SymRec{}, extract.Key{}, extract.EdgeRec{}, extract.RawRef{}, extract.MethodSet{}, extract.TypeRef{})) {
			t.Errorf("a decoded record does not survive encoding again: %v", err)
		}
	})
}

// TestCacheSkipsFilesReadDifferently stores no result for a package whose
// file was read with another content than its key says (a file saved
// while the load ran, simulated by a stale hash from the caller).
func TestCacheSkipsFilesReadDifferently(t *testing.T) {
	root := shopModule(t)
	c := &memCache{m: map[index.Key][]byte{}}
	stale := func(rel string) (string, bool) {
		if rel == "report/report.go" {
			return "a hash of what the file held before", true
		}
		return "", false
	}
	if _, err := Load(context.Background(), root, Options{Cache: c, CacheSalt: "test", FileHash: stale}); err != nil {
		t.Fatal(err)
	}
	// The results and export data of all packages but report, and for
	// cart and cmd/shop, whose uses are known, an alias of the result and
	// the export record again, under the key of those uses.
	if c.puts != 3+4+2*2 {
		t.Errorf("%d records stored, want 11 (the results and export data of all packages but report, and what cart's and cmd/shop's uses key)", c.puts)
	}
}

// resum edits export data and gives it the CRC-32C it ends with again
// (see typecache.Encode), so that the edit gets past the checksum.
func resum(data []byte, edit func(body []byte) []byte) []byte {
	body := edit(data[:len(data)-4])
	return binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
}

// TestCacheIgnoresDamagedExportData damages the export records a load
// needs: the load checks from source instead, gives the facts of a load
// without the cache, and stores sound records again.
func TestCacheIgnoresDamagedExportData(t *testing.T) {
	damage := map[string]func(data []byte) []byte{
		"checksum": func(data []byte) []byte {
			data[len(data)/2] ^= 0x55
			return data
		},
		"version": func(data []byte) []byte {
			return resum(data, func(body []byte) []byte {
				body[0]++ // the version, a one-byte varint
				return body
			})
		},
		"truncated": func(data []byte) []byte { return data[:len(data)/3] },
		// Well formed, with a valid checksum, but not the data the
		// record's hash describes.
		"renamed": func(data []byte) []byte {
			return resum(data, func(body []byte) []byte {
				return []byte(strings.ReplaceAll(string(body), "Item", "Itex"))
			})
		},
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			root := shopModule(t)
			c := &memCache{m: map[index.Key][]byte{}}
			ctx := context.Background()
			if _, err := Load(ctx, root, Options{Cache: c, CacheSalt: "test"}); err != nil {
				t.Fatal(err)
			}
			damaged := 0
			for k, rec := range c.m {
				if data, ok := typecache.BlobData(k, rec); ok {
					tag := rec[: len(rec)-len(data) : len(rec)-len(data)]
					c.m[k] = append(tag, f(append([]byte(nil), data...))...)
					damaged++
				}
			}
			if damaged != 5 {
				t.Fatalf("%d export records damaged, want 5", damaged)
			}
			// cart must be checked, importing store.
			writeFile(t, root, "cart/more.go", []byte("package cart\n\nvar Empty = Cart{}\n"))
			want, err := Load(ctx, root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Load(ctx, root, Options{Cache: c, CacheSalt: "test"})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
				t.Fatalf("load with damaged export data differs (-fresh +cached):\n%s", diff)
			}
			// The records stored again are sound: the next load after an
			// edit imports store from them.
			writeFile(t, root, "cart/more.go", []byte("package cart\n\nvar Empty = Cart{SKUs: nil}\n"))
			var log strings.Builder
			logf := func(format string, args ...any) { fmt.Fprintf(&log, format+"\n", args...) }
			got, err = Load(ctx, root, Options{Cache: c, CacheSalt: "test", Logf: logf})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(log.String(), "unusable") || !strings.Contains(log.String(), "1 imported from export data") {
				t.Errorf("the export data stored again was not used:\n%s", log.String())
			}
			if want, err = Load(ctx, root, Options{}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
				t.Fatalf("load after the repair differs (-fresh +cached):\n%s", diff)
			}
		})
	}
}

// TestColdLoadChecksAgainstExportData: with a cache, even a cold load
// checks each package against its imports as their export data decodes
// them (stored a moment earlier), not against their full checks, which
// are then dropped (exportcache.go, "Memory that drops as it goes"); the
// facts are those of a load without a cache.
func TestColdLoadChecksAgainstExportData(t *testing.T) {
	root := shopModule(t)
	ctx := context.Background()
	var log strings.Builder
	logf := func(format string, args ...any) { fmt.Fprintf(&log, format+"\n", args...) }
	got, err := Load(ctx, root, Options{Cache: &memCache{m: map[index.Key][]byte{}}, CacheSalt: "test", Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(\d+) checked, \d+ extracted only in their changed files, (\d+) imported from export data`).FindStringSubmatch(log.String())
	if m == nil {
		t.Fatalf("no unit summary in the log:\n%s", log.String())
	}
	// store, cart and report are imported by packages of the module (and
	// the test variants borrow their bases' data): each is decoded once.
	if m[2] == "0" {
		t.Errorf("a cold load with a cache checked against full checks (%s checked, %s imported):\n%s", m[1], m[2], log.String())
	}
	sameAsUncached(t, root, got, "cold load with a cache")
}

// TestResultMemo: loads sharing a ResultMemo reuse the results decoded by
// the one before instead of decoding their records again, and each load
// still gives what a load without a cache gives, also when it remaps a
// reused result's edges to symbols that moved (remapForeign changes a
// load's copy, never the kept result).
func TestResultMemo(t *testing.T) {
	root := shopModule(t)
	ctx := context.Background()
	c := &memCache{m: map[index.Key][]byte{}}
	rm := NewResultMemo()
	edit := func(rel, old, new string) { replaceOnce(t, root, rel, old, new) }
	steps := []struct {
		name    string
		change  func()
		reused  bool // some result comes from the memo
		decoded int  // results kept after the load
	}{
		{"cold", nil, false, 0},
		{"warm: every result decoded once", nil, false, 4},
		{"warm again: every result reused", nil, true, 4},
		// Line moves: cmd/shop's result is reused and its edge to Line
		// remapped; twice, so that a remap written into the kept result
		// would show in the second.
		{"Line moves down", func() { edit("report/report.go", "// Line formats", "// Line formats\n//\n//") }, true, 4},
		{"Line moves down again", func() { edit("report/report.go", "// Line formats", "// Line formats\n//") }, true, 4},
		{"store's body changes", func() { edit("store/store.go", "\treturn it, ok", "\treturn it, ok && it.Price > 0") }, true, 3},
	}
	for _, s := range steps {
		if s.change != nil {
			s.change()
		}
		before := rm.hits
		got, err := Load(ctx, root, Options{Cache: c, CacheSalt: "test", Results: rm})
		if err != nil {
			t.Fatal(err)
		}
		sameAsUncached(t, root, got, s.name+": load with the memo")
		if reused := rm.hits > before; reused != s.reused {
			t.Errorf("%s: results reused = %v, want %v", s.name, reused, s.reused)
		}
		if len(rm.m) < s.decoded {
			t.Errorf("%s: %d results kept, want at least %d", s.name, len(rm.m), s.decoded)
		}
	}
}

// replaceOnce replaces the first old in the file rel under root with new;
// the file must hold old.
func replaceOnce(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s lacks %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameAsUncached fails unless got is what a load of root without a cache
// gives.
func sameAsUncached(t *testing.T, root string, got *analyze.Facts, what string) {
	t.Helper()
	want, err := Load(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
		t.Fatalf("%s differs (-without cache +with):\n%s", what, diff)
	}
}

// TestSkeletonReuse: loads sharing a ResultMemo, with go list's answer
// reused, rebuild each unit's graph from the skeleton kept for that
// answer, and give what a load without a cache gives; when go list runs
// again (an import added), the graph is that of the new answer.
func TestSkeletonReuse(t *testing.T) {
	root := t.TempDir()
	writeArchive(t, root, txtar.Parse([]byte(`-- go.mod --
module example.com/m

go 1.22
-- a/a.go --
package a

// Name cleans a name.
func Name(s string) string { return s }
-- b/b.go --
package b

// Twice doubles a name.
func Twice(s string) string { return s + s }
-- user/user.go --
package user

import "example.com/m/a"

// Use calls a.
func Use() string { return a.Name("x") }
`)))
	c := &memCache{m: map[index.Key][]byte{}}
	rm := NewResultMemo()
	load := func(what string, wantReuse bool) {
		t.Helper()
		hits := rm.skelHits
		got, err := Load(context.Background(), root, Options{Cache: c, CacheSalt: "test", ListSalt: "fixed", Results: rm})
		if err != nil {
			t.Fatal(err)
		}
		sameAsUncached(t, root, got, what)
		if reused := rm.skelHits > hits; reused != wantReuse {
			t.Errorf("%s: skeleton reused = %v, want %v", what, reused, wantReuse)
		}
	}
	load("cold", false)
	load("go list's answer decoded", false)
	load("the answer shared", true)
	replaceOnce(t, root, "user/user.go", "func Use() string { return a.Name(\"x\") }", "func Use() string { return a.Name(\"x\") + \"!\" }")
	load("a body changed", true)
	replaceOnce(t, root, "user/user.go", "import \"example.com/m/a\"", "import (\n\t\"example.com/m/a\"\n\t\"example.com/m/b\"\n)")
	replaceOnce(t, root, "user/user.go", "a.Name(\"x\") + \"!\"", "b.Twice(a.Name(\"x\"))")
	load("an import added: go list runs again", false)
	load("its answer decoded", false)
	load("and shared", true)
}

// TestSeenFromMatchesTheGraph: seenFrom, which finds the package a path
// means for another by IDs, gives what a walk of the other's
// dependencies finds, in a module whose external test recompiles
// packages against the test variant of the package under test: d [a.test]
// declares a variable of a's T, reached through b [a.test] without
// importing a, and must find a [a.test], not a.
func TestSeenFromMatchesTheGraph(t *testing.T) {
	root := t.TempDir()
	for rel, src := range map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\n// T is what b wraps.\ntype T struct{ X int }\n",
		"a/a_test.go": "package a\n\nfunc helper() T { return T{} }\n",
		"a/x_test.go": "package a_test\n\nimport (\n\t\"example.com/m/a\"\n\t\"example.com/m/b\"\n\t\"example.com/m/d\"\n)\n\nvar _ a.T = b.Wrap().T\n\nvar _ = d.Get()\n",
		"d/d.go":      "package d\n\nimport \"example.com/m/b\"\n\n// V is a's T, reached through b without importing a.\nvar V = b.Wrap().T\n\n// Get reads it.\nfunc Get() int { return V.X }\n",
		"b/b.go":      "package b\n\nimport \"example.com/m/a\"\n\n// W wraps a's T.\ntype W struct{ T a.T }\n\n// Wrap wraps.\nfunc Wrap() W { return W{} }\n",
		"c/c.go":      "package c\n\nimport \"example.com/m/b\"\n\n// Use uses b.\nfunc Use() int { return b.Wrap().T.X }\n",
		"c/c_test.go": "package c\n\nfunc helperC() int { return Use() }\n",
	} {
		writeFile(t, root, rel, []byte(src))
	}
	var mu sync.Mutex
	var asked, wrong []string
	seenFromChecked = func(n *node, path string, got *node) {
		want := n.findDep(path)
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, n.pkg.ID+" → "+path)
		if want != got {
			wrong = append(wrong, fmt.Sprintf("%s → %s: %v, the walk finds %v", n.pkg.ID, path, idOf(got), idOf(want)))
		}
	}
	defer func(was func(*node, string, *node)) { seenFromChecked = was }(seenFromChecked)
	c := &memCache{m: map[index.Key][]byte{}}
	for i := 0; i < 2; i++ { // cold, then with the uses known
		if _, err := Load(context.Background(), root, Options{Cache: c, CacheSalt: "test"}); err != nil {
			t.Fatal(err)
		}
		replaceOnce(t, root, "a/a.go", "type T struct{ X int }", "type T struct{ X int }\n\n// U is new.\ntype U int")
	}
	if len(wrong) > 0 {
		t.Errorf("seenFrom differs from the graph:\n%s", strings.Join(wrong, "\n"))
	}
	var variant bool
	for _, a := range asked {
		variant = variant || a == "example.com/m/d [example.com/m/a.test] → example.com/m/a"
	}
	if !variant {
		t.Errorf("d [a.test] never asked for a; the module no longer tests the variants:\n%s", strings.Join(asked, "\n"))
	}
}

func idOf(n *node) string {
	if n == nil {
		return "nothing"
	}
	return n.pkg.ID
}

// TestUsesSurvivePacks: loads that find every record under the imports'
// surfaces never read the records keyed by uses, and an index pack keeps
// only what its last load read; the loader retains them (retainUses), so
// that a function added to base after two such loads still checks base
// alone, through packs flushed and read back between loads.
func TestUsesSurvivePacks(t *testing.T) {
	root := archiveModule(t, "layers")
	st, err := index.Open(index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	checked := regexp.MustCompile(`, (\d+) checked,`)
	load := func() string {
		t.Helper()
		p := st.Pack(root, "go-pkg")
		var n string
		logf := func(format string, args ...any) {
			if m := checked.FindStringSubmatch(fmt.Sprintf(format, args...)); m != nil {
				n = m[1]
			}
		}
		if _, err := Load(context.Background(), root, Options{Cache: p, CacheSalt: "test", Logf: logf}); err != nil {
			t.Fatal(err)
		}
		p.Flush()
		return n
	}
	if n := load(); n != "5" {
		t.Fatalf("the cold load checked %s packages, want 5", n)
	}
	for i := 0; i < 2; i++ {
		if n := load(); n != "0" {
			t.Fatalf("warm load %d checked %s packages, want 0", i+1, n)
		}
	}
	replaceOnce(t, root, "base/base.go", "func Count() int { return 1 }", "func Count() int { return 1 }\n\n// Extra is new.\nfunc Extra() int { return 3 }")
	if n := load(); n != "1" {
		t.Errorf("after a function was added to base, %s packages were checked, want 1 (base)", n)
	}
}

// TestUsesAfterPartialExtraction: a comment edit in one of plain's two
// files extracts that file alone, its body checked, the other's left
// out. What plain uses is still known (the uses of the file left out come
// from the record, which covered it as it is), so a function added to
// base then checks base alone, as it would have before the comment.
func TestUsesAfterPartialExtraction(t *testing.T) {
	root := archiveModule(t, "layers")
	c := &memCache{m: map[index.Key][]byte{}}
	stats := regexp.MustCompile(`, (\d+) checked, (\d+) extracted only in their changed files`)
	load := func(step string) (checked, partial string) {
		t.Helper()
		logf := func(format string, args ...any) {
			if m := stats.FindStringSubmatch(fmt.Sprintf(format, args...)); m != nil {
				checked, partial = m[1], m[2]
			}
		}
		want, err := Load(context.Background(), root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load(context.Background(), root, Options{Cache: c, CacheSalt: "test", Logf: logf})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
			t.Fatalf("%s: cached load differs (-fresh +cached):\n%s", step, diff)
		}
		return checked, partial
	}
	load("cold")
	replaceOnce(t, root, "plain/plain.go", "func Total() int { return base.Count() + 1 }", "func Total() int { return base.Count() + 1 }\n\n// A comment.")
	if checked, partial := load("a comment in plain"); checked != "1" || partial != "1" {
		t.Fatalf("a comment in plain: %s packages checked, %s extracted in part; want 1 and 1 (the fixture no longer takes the partial path)", checked, partial)
	}
	replaceOnce(t, root, "base/base.go", "func Count() int { return 1 }", "func Count() int { return 1 }\n\n// Extra is new.\nfunc Extra() int { return 3 }")
	if checked, _ := load("a function added to base"); checked != "1" {
		t.Errorf("after a function was added to base, %s packages were checked, want 1 (base): plain lost its uses in the partial extraction", checked)
	}
	// plain's other file is edited too: its body was left out of the
	// last check, but the record covers it as it was, not as it is now.
	replaceOnce(t, root, "plain/more.go", "return 2 * base.Count()", "return 3 * base.Count()")
	load("plain's other file")
	replaceOnce(t, root, "base/base.go", "// Extra is new.", "// Extra is new.\nfunc Extra2() int { return 4 }\n")
	if checked, _ := load("another function added to base"); checked != "1" {
		t.Errorf("after another function was added to base, %s packages were checked, want 1 (base)", checked)
	}
}

// TestCoverFiles: a partial check's uses are completed by the record's
// names only when the record covered every file the check left out as it
// is now; the uses then cover every file of the package.
func TestCoverFiles(t *testing.T) {
	l := &loader{}
	node := func(bHash string, old *typecache.Uses) *node {
		return &node{
			assigned: map[string]string{"/r/p/a.go": "p/a.go", "/r/p/b.go": "p/b.go"},
			kfiles:   []typecache.File{{Name: "p/a.go", Under: true, Hash: "a2"}, {Name: "p/b.go", Under: true, Hash: bHash}},
			partial:  &partialPlan{only: map[string]bool{"/r/p/a.go": true}}, // a.go changed, b.go's body left out
			uses:     old,
		}
	}
	imports := l.surfacesKey(node("b1", nil)) // no imports: the same for every node here
	record := &typecache.Uses{Names: map[string][]string{"x": {"Old"}, "y": {"Y"}}, All: map[string]bool{"fmt": true},
		Files: map[string]string{"p/a.go": "a1", "p/b.go": "b1"}, Imports: imports}
	found := func() typecache.Uses {
		return typecache.Uses{Names: map[string][]string{"x": {"New"}}, All: map[string]bool{}}
	}

	u := found()
	if !l.coverFiles(node("b1", record), &u) {
		t.Fatal("b.go is as the record covered it, yet the uses are unknown")
	}
	want := typecache.Uses{Names: map[string][]string{"x": {"New", "Old"}, "y": {"Y"}}, All: map[string]bool{"fmt": true},
		Files: map[string]string{"p/a.go": "a2", "p/b.go": "b1"}, Imports: imports}
	if diff := cmp.Diff(want, u); diff != "" {
		t.Errorf("completed uses (-want +got):\n%s", diff)
	}
	u = found()
	if l.coverFiles(node("b2", record), &u) {
		t.Error("b.go changed since the record, yet its uses were taken from it")
	}
	u = found()
	if l.coverFiles(node("b1", nil), &u) {
		t.Error("a partial check without a record gave uses")
	}
	other := *record
	other.Imports = index.Key{9}
	u = found()
	if l.coverFiles(node("b1", &other), &u) {
		t.Error("a record made among other imports' surfaces completed the uses")
	}
	full := node("b2", nil)
	full.partial = nil
	u = found()
	if !l.coverFiles(full, &u) || u.Files["p/b.go"] != "b2" || len(u.Names["x"]) != 1 {
		t.Errorf("a full check's uses: %v", u)
	}
}
