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
	want := map[string]int{"pkgResult": 11, "fileRec": 2, "importRec": 3, "symRec": 7, "key": 3,
		"edgeRec": 5, "rawRef": 13, "methodSet": 5, "typeRef": 2, "Symbol": 12, "File": 10, "Problem": 4}
	for _, v := range []any{pkgResult{}, fileRec{}, importRec{}, symRec{}, key{}, edgeRec{}, rawRef{}, methodSet{},
		typeRef{}, analyze.Symbol{}, analyze.File{}, analyze.Problem{}} {
		typ := reflect.TypeOf(v)
		if n := typ.NumField(); n != want[typ.Name()] {
			t.Errorf("%s has %d fields, the codec knows %d: update cachecodec.go and resultCodecVersion", typ.Name(), n, want[typ.Name()])
		}
	}
}

// shopModule writes testdata/cache/shop.txtar into a new root.
func shopModule(t *testing.T) string {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/cache/shop.txtar")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeArchive(t, root, ar)
	return root
}

// TestCachedLoad loads a module through a cache step by step and compares
// every load with one without the cache.
func TestCachedLoad(t *testing.T) {
	root := shopModule(t)
	c := &memCache{m: map[index.Key][]byte{}}
	ctx := context.Background()
	load := func(opt Options) *analyze.Facts {
		t.Helper()
		fs, err := Load(ctx, root, opt)
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	// Each step edits the module, then the cached load must equal a fresh
	// one, with the given number of package results reused and computed.
	edit := func(rel, old, new string) func() {
		return func() { replaceOnce(t, root, rel, old, new) }
	}
	// A load looks up the result of each extracted package (store
	// [store.test], cart, report, cmd/shop) and the export record of each
	// package (those and store), in dependency order: a package's keys
	// hash what it uses of other packages (uses.go), which changes with
	// their declarations. When that misses, the result is looked up once
	// more under its imports' whole surfaces (a third lookup for cart or
	// cmd/shop checked again).
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
		{"rename across packages", replaceAll(t, root, "FindBySKU", "LookupSKU"), 1 + 1, 3 + 4 + 2},
		{"back to a state seen before", replaceAll(t, root, "LookupSKU", "FindBySKU"), 4 + 5, 0},
		// Only store's own records: its surface is what it was, so cart
		// and cmd/shop are reused and store is imported from export data.
		{"comment appended at the bottom of the chain", edit("store/store.go", "s.items[it.SKU] = it }", "s.items[it.SKU] = it }\n\n// x"), 3 + 3, 1 + 2},
		{"function body changed in place", edit("store/store.go", "\treturn it, ok", "\treturn it, ok && it.Price >= 0"), 3 + 3, 1 + 2},
		{"declaration changed in place", edit("store/store.go", "func (s *Store) Add(it Item)", "func (s *Store) Add(it Item, _ ...int)"), 1 + 1, 3 + 4 + 2},
		// cart's declarations now use a package go list cannot find: cart
		// changes, and its export data holds invalid types; cmd/shop uses
		// none of what cart added, and is reused.
		{"a dependency goes missing", edit("cart/cart.go", "import \"example.com/shop/store\"",
			"import (\n\t\"example.com/nowhere/lib\"\n\t\"example.com/shop/store\"\n)\n\nvar Client lib.Client\n\nfunc Open() (*lib.Conn, error) { return lib.Dial() }\n\ntype Wrapped struct{ lib.Client }"), 3 + 4, 1 + 2},
		// store changes, cart is reused; cmd/shop imports cart's export data.
		{"comment appended below the broken package", edit("store/store.go", "// x", "// x\n// y"), 3 + 3, 1 + 2},
		{"the broken package is used", edit("cmd/shop/main.go", "func main() {", "var _, _ = cart.Open()\nvar _ = cart.Client.Name\nvar _ = cart.Wrapped{}.Client\n\nfunc main() {"), 3 + 4, 1 + 2},
	}
	for _, s := range steps {
		if s.change != nil {
			s.change()
		}
		want := load(Options{})
		c.reset()
		got := load(Options{Cache: c, CacheSalt: "test"})
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
			t.Fatalf("%s: cached load differs (-fresh +cached):\n%s", s.name, diff)
		}
		if c.hits != s.hits || c.miss != s.miss {
			t.Errorf("%s: %d hits, %d misses; want %d, %d", s.name, c.hits, c.miss, s.hits, s.miss)
		}
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
	ar, err := txtar.ParseFile("testdata/cache/layers.txtar")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeArchive(t, root, ar)
	c := &memCache{m: map[index.Key][]byte{}}
	ctx := context.Background()
	load := func(opt Options) *analyze.Facts {
		t.Helper()
		fs, err := Load(ctx, root, opt)
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	// Each of the five packages has a result and an export record; a
	// package checked again whose uses are known looks its result up
	// twice (uses.go).
	steps := []struct {
		name, file, old, new string
		hits, miss           int
	}{
		{"cold", "", "", "", 0, 10},
		{"warm", "", "", "", 10, 0},
		{"a function added to base", "base/base.go", "func Count() int { return 1 }", "func Count() int { return 1 }\n\n// Extra is new.\nfunc Extra() int { return 3 }", 8, 2},
		// typed and top use T; plain and above are reused.
		{"a method added to base's T", "base/base.go", "// Count is", "// Half halves it.\nfunc (t T) Half() int { return t.X / 2 }\n\n// Count is", 4, 2 + 3 + 3},
		{"a body changed in base", "base/base.go", "return 2 * t.X", "return t.X + t.X", 8, 2},
		// above named plain.Later before plain had it: it is checked
		// again, top is not.
		{"a function added to plain", "plain/plain.go", "func Total()", "func Later() int { return 2 }\n\nfunc Total()", 6, 3 + 3},
	}
	for _, s := range steps {
		if s.old != "" {
			replaceOnce(t, root, s.file, s.old, s.new)
		}
		want := load(Options{})
		c.reset()
		got := load(Options{Cache: c, CacheSalt: "test"})
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
			t.Fatalf("%s: cached load differs (-fresh +cached):\n%s", s.name, diff)
		}
		if c.hits != s.hits || c.miss != s.miss {
			t.Errorf("%s: %d hits, %d misses; want %d, %d", s.name, c.hits, c.miss, s.hits, s.miss)
		}
		if s.name == "cold" && (!hasProblem(got, "Half") || !hasProblem(got, "Later")) {
			t.Fatalf("the calls of Half and Later are not problems; the fixture no longer tests what it should:\n%v", got.Problems)
		}
	}
	if fs := load(Options{Cache: c, CacheSalt: "test"}); hasProblem(fs, "Half") || hasProblem(fs, "Later") {
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
	res := &pkgResult{scope: "store:store", importPath: "example.com/shop/store", pkgName: "store", dir: "store",
		files: []fileRec{{file: analyze.File{Path: "store/store.go", Lang: analyze.LangGo}, imports: []importRec{{path: "strings", line: 3}}}},
		syms:  []symRec{{key: key{"store/store.go", 5, 6}, sym: analyze.Symbol{Name: "Item", Kind: analyze.KindStruct, Parent: analyze.NoSym}, file: "store/store.go"}},
		edges: []edgeRec{{from: key{"store/store.go", 5, 6}, to: key{"store/store.go", 9, 6}, kind: analyze.EdgeReferences, exact: true}},
		raws:  []rawRef{{from: key{"store/store.go", 5, 6}, kind: analyze.EdgeCalls, name: "Get", member: true}},
		msets: []methodSet{{key: key{"store/store.go", 5, 6}, arity: []string{"Get/1/1"}}},
	}
	f.Add(encodeResult(res))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeResult(data)
		if err != nil {
			return
		}
		if again, err := decodeResult(encodeResult(r)); err != nil || !cmp.Equal(r, again, cmp.AllowUnexported(pkgResult{}, fileRec{}, importRec{}, symRec{}, key{}, edgeRec{}, rawRef{}, methodSet{}, typeRef{})) {
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
	if c.puts != 3+4 {
		t.Errorf("%d records stored, want 7 (the results and export data of all packages but report)", c.puts)
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
