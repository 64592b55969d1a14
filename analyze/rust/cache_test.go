package rust

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
	"github.com/ctxexpand/ctxexpand/index"
)

// memCache is a Cache in memory that counts lookups.
type memCache struct {
	mu         sync.Mutex
	m          map[index.Key][]byte
	hits, miss int
}

func (c *memCache) Get(k index.Key) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[k]
	if ok {
		c.hits++
	} else {
		c.miss++
	}
	return d, ok
}

func (c *memCache) Put(k index.Key, d []byte) {
	c.mu.Lock()
	c.m[k] = d
	c.mu.Unlock()
}

// TestCodecCoversEveryField fails when a field is added to the records
// the cache stores: encode it in cache.go and bump syntaxCodecVersion,
// then update the counts here.
func TestCodecCoversEveryField(t *testing.T) {
	want := map[string]int{"FileSyntax": 7, "Item": 25, "UseDecl": 7, "Ref": 4, "Local": 6, "Generic": 2}
	for _, v := range []any{resolve.FileSyntax{}, resolve.Item{}, resolve.UseDecl{}, resolve.Ref{}, resolve.Local{}, resolve.Generic{}} {
		typ := reflect.TypeOf(v)
		if n := typ.NumField(); n != want[typ.Name()] {
			t.Errorf("%s has %d fields, the codec knows %d: update cache.go and syntaxCodecVersion", typ.Name(), n, want[typ.Name()])
		}
	}
}

// TestRecordRoundTrip encodes the extraction of every sample file and
// compares the decoded record with the original.
func TestRecordRoundTrip(t *testing.T) {
	var paths []string
	for _, dir := range []string{"../../testdata/rustsvc", "../../testdata/rustws"} {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && filepath.Ext(p) == ".rs" {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) < 5 {
		t.Fatalf("only %d sample files", len(paths))
	}
	tp := newTSParser()
	defer tp.close()
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		syn := extract(tp, src, false)
		f := analyze.File{Category: analyze.CatTest, Size: int64(len(src))}
		gotF, gotSyn, err := decodeRecord(encodeRecord(f, syn))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if diff := cmp.Diff(syn, gotSyn, cmp.AllowUnexported(resolve.FileSyntax{}, resolve.Item{}, resolve.UseDecl{}, resolve.Ref{}, resolve.Local{}, resolve.Generic{})); diff != "" {
			t.Errorf("%s: syntax changed in the cache (-want +got):\n%s", p, diff)
		}
		if gotF.Category != f.Category || gotF.Size != f.Size {
			t.Errorf("%s: file facts %+v", p, gotF)
		}
	}
}

// TestCachedLoad loads a crate twice through a cache: the second load
// parses nothing and gives the same facts; after an edit only the edited
// file misses.
func TestCachedLoad(t *testing.T) {
	root := t.TempDir()
	src := "../../testdata/rustsvc"
	filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		data, _ := os.ReadFile(p)
		return os.WriteFile(filepath.Join(root, rel), data, 0o644)
	})
	want := loadDir(t, root, Options{})
	c := &memCache{m: map[index.Key][]byte{}}
	opt := Options{Cache: c, CacheSalt: "test"}
	cmpFacts := func(step string, got *analyze.Facts) {
		t.Helper()
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
			t.Errorf("%s (-fresh +cached):\n%s", step, diff)
		}
	}
	cmpFacts("first load", loadDir(t, root, opt))
	n := len(want.Files)
	if c.miss != n || c.hits != 0 {
		t.Fatalf("first load: %d hits, %d misses; want 0, %d", c.hits, c.miss, n)
	}
	c.hits, c.miss = 0, 0
	cmpFacts("second load", loadDir(t, root, opt))
	if c.hits != n || c.miss != 0 {
		t.Errorf("second load: %d hits, %d misses; want %d, 0", c.hits, c.miss, n)
	}

	// Known hashes: files are not read. A wrong hash proves it: the
	// record of the other content is used.
	hashes := map[string]string{}
	for _, f := range want.Files {
		hashes[f.Path] = f.Hash
	}
	opt.FileHash = func(rel string) (string, bool) { h, ok := hashes[rel]; return h, ok }
	cmpFacts("with known hashes", loadDir(t, root, opt))
	hashes["src/util.rs"] = hashes["src/models.rs"]
	if got := loadDir(t, root, opt); cmp.Equal(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})) {
		t.Error("a known hash did not replace reading the file")
	}
	opt.FileHash = nil

	p := filepath.Join(root, "src", "util.rs")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, append(data, []byte("\npub fn added_later() -> u32 { 7 }\n")...), 0o644)
	want = loadDir(t, root, Options{})
	c.hits, c.miss = 0, 0
	cmpFacts("after an edit", loadDir(t, root, Options{Cache: c, CacheSalt: "test"}))
	if c.miss != 1 || c.hits != n-1 {
		t.Errorf("after an edit: %d hits, %d misses; want %d, 1", c.hits, c.miss, n-1)
	}
}

// FuzzDecodeRecord checks that a damaged record never panics the decoder
// or gives items that point outside their file.
func FuzzDecodeRecord(f *testing.F) {
	tp := newTSParser()
	syn := extract(tp, []byte("mod a { pub fn f(x: &T) -> Result<U, E> { g(); x.h() } }\nuse a::f as g;\n"), false)
	tp.close()
	f.Add(encodeRecord(analyze.File{}, syn))
	f.Add([]byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, syn, err := decodeRecord(data)
		if err != nil {
			return
		}
		for _, it := range syn.Items {
			if int(it.Parent) >= len(syn.Items) || int(it.Mod) >= len(syn.Items) {
				t.Fatal("item links outside the file")
			}
		}
	})
}
