package golang

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index"
)

// stock is a module whose store package has an internal and an external
// test, the external one importing cart, which imports store: go list
// reports cart once more as "cart [store.test]", compiled against store's
// test variant.
const stock = `
-- go.mod --
module example.com/stock

go 1.22
-- store/store.go --
package store

// Item is something in stock.
type Item struct {
	SKU   string
	Count int
}

// Store holds items by SKU.
type Store struct{ items map[string]Item }

// New returns an empty store.
func New() *Store { return &Store{items: map[string]Item{}} }

// Find returns the item with the given SKU.
func (s *Store) Find(sku string) (Item, bool) {
	it, ok := s.items[sku]
	return it, ok
}
-- store/export_test.go --
package store

// Len is for tests.
func (s *Store) Len() int { return len(s.items) }
-- store/store_test.go --
package store_test

import (
	"example.com/stock/cart"
	"example.com/stock/store"
)

func use() int {
	c := cart.Cart{St: store.New()}
	return c.Total() + c.St.Len()
}
-- cart/cart.go --
package cart

import "example.com/stock/store"

// Cart counts the items a customer picked.
type Cart struct {
	St   *store.Store
	SKUs []string
}

// Total counts the cart's items in stock.
func (c *Cart) Total() int {
	n := 0
	for _, sku := range c.SKUs {
		if it, ok := c.St.Find(sku); ok {
			n += it.Count
		}
	}
	return n
}
`

// loadLog loads root and returns the facts and what the loader logged.
func loadLog(t *testing.T, root string, opt Options) (*analyze.Facts, string) {
	t.Helper()
	var log strings.Builder
	opt.Logf = func(format string, args ...any) { fmt.Fprintf(&log, format+"\n", args...) }
	facts, err := Load(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	return facts, log.String()
}

// loadLikeFresh loads root with opt, fails the test unless the facts are
// those of a load without any cache, and returns what the load logged.
func loadLikeFresh(t *testing.T, root string, opt Options, step string) string {
	t.Helper()
	want, _ := loadLog(t, root, Options{})
	got, log := loadLog(t, root, opt)
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
		t.Fatalf("%s: cached load differs (-fresh +cached):\n%s", step, diff)
	}
	return log
}

var (
	checkedRe = regexp.MustCompile(`(\d+) checked,`)
	partialRe = regexp.MustCompile(`(\d+) extracted only in their changed files`)
)

// logCount reads a count a load logged: of packages type-checked
// (checkedRe) or extracted only in their changed files (partialRe).
func logCount(t *testing.T, log string, re *regexp.Regexp) int {
	t.Helper()
	m := re.FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no %q in the log:\n%s", re, log)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// editor returns a change replacing old by new in a file under root.
func editor(t *testing.T, root string) func(rel, old, new string) func() {
	return func(rel, old, new string) func() {
		return func() {
			data, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), old) {
				t.Fatalf("%s does not hold %q", rel, old)
			}
			writeFile(t, root, rel, []byte(strings.Replace(string(data), old, new, 1)))
		}
	}
}

// TestListingReuse edits the module step by step: go list's answer is
// reused exactly while no file's header changes, and every load gives the
// facts of a load without any cache.
func TestListingReuse(t *testing.T) {
	root, opt, edit := editModule(t, stock, "fingerprint")
	steps := []editStep{
		{"cold", nil, 0},
		{"nothing changed", nil, 1},
		{"a function body", edit("cart/cart.go", "n += it.Count", "n += it.Count + 0"), 1},
		{"a line inserted in a body", edit("cart/cart.go", "\tn := 0\n", "\tn := 0\n\t// counted below\n"), 1},
		{"a comment below the imports", edit("cart/cart.go", "// Cart counts", "// Cart (edited) counts"), 1},
		{"a declaration", edit("store/store.go", "Count int", "Count int\n\tName  string"), 1},
		{"an import added", edit("cart/cart.go", `import "example.com/stock/store"`, "import (\n\t\"strings\"\n\n\t\"example.com/stock/store\"\n)\n\nvar _ = strings.ToUpper"), 0},
		{"a new file", func() { writeFile(t, root, "cart/more.go", []byte("package cart\n\nvar Empty = Cart{}\n")) }, 0},
		{"a build constraint", edit("cart/more.go", "package cart", "//go:build ignore\n\npackage cart"), 0},
		{"the package clause", edit("cart/more.go", "package cart", "package other"), 0},
		{"a file removed", func() {
			if err := os.Remove(filepath.Join(root, "cart/more.go")); err != nil {
				t.Fatal(err)
			}
		}, 0},
		{"a body again", edit("store/store.go", "return it, ok", "return it, ok && it.Count >= 0"), 1},
	}
	runSteps(t, root, opt, steps, reusedList)
}

// TestListingNeedsSalt: without ListSalt, which says what besides the
// files go list's answer depends on, nothing is reused.
func TestListingNeedsSalt(t *testing.T) {
	root := t.TempDir()
	writeArchive(t, root, txtar.Parse([]byte(stock)))
	c := &memCache{m: map[index.Key][]byte{}}
	for i := 0; i < 2; i++ {
		if _, log := loadLog(t, root, Options{Cache: c, CacheSalt: "test"}); strings.Contains(log, "go list of ") {
			t.Fatalf("load %d reused a listing without a ListSalt:\n%s", i, log)
		}
	}
}

// TestVariantBorrowsExportData: after a change to cart's function bodies,
// only cart is checked again (and extracted); its copy compiled for
// store's tests takes cart's export data instead of a check, and the facts
// are those of a load without the cache.
func TestVariantBorrowsExportData(t *testing.T) {
	root := t.TempDir()
	writeArchive(t, root, txtar.Parse([]byte(stock)))
	c := &memCache{m: map[index.Key][]byte{}}
	opt := Options{Cache: c, CacheSalt: "test"}
	_, log := loadLog(t, root, opt)
	cold := logCount(t, log, checkedRe)
	writeFile(t, root, "cart/cart.go", []byte(strings.Replace(stockFile(t, "cart/cart.go"), "n += it.Count", "n += it.Count * 1", 1)))
	want, _ := loadLog(t, root, Options{})
	got, log := loadLog(t, root, opt)
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(analyze.Facts{})); diff != "" {
		t.Fatalf("load after the edit differs (-fresh +cached):\n%s", diff)
	}
	if n := logCount(t, log, checkedRe); n != 1 {
		t.Errorf("%d packages checked after a body edit of cart, want 1 (cart; its copy for store's tests borrows)\n%s", n, log)
	}
	// Without the cache the copy is checked like any package: the cold
	// load checked more packages than there are distinct ones.
	roots, err := packages.Load(&packages.Config{Mode: listMode, Dir: root, Tests: true, Env: opt.goEnv()}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	variant := false
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.ID == "example.com/stock/cart [example.com/stock/store.test]" {
			variant = true
		}
	})
	if !variant {
		t.Fatalf("go list reports no test copy of cart; the module does not test what it should (cold load checked %d)", cold)
	}
}

func stockFile(t *testing.T, rel string) string {
	t.Helper()
	for _, f := range txtar.Parse([]byte(stock)).Files {
		if f.Name == rel {
			return string(f.Data)
		}
	}
	t.Fatalf("no %s in the stock module", rel)
	return ""
}

// editModule writes a module into a new root and returns the root, load
// options over an empty cache (with listSalt as Options.ListSalt) and an
// editor of its files.
func editModule(t *testing.T, archive, listSalt string) (string, Options, func(rel, old, new string) func()) {
	root := t.TempDir()
	writeArchive(t, root, txtar.Parse([]byte(archive)))
	opt := Options{Cache: &memCache{m: map[index.Key][]byte{}}, CacheSalt: "test", ListSalt: listSalt}
	return root, opt, editor(t, root)
}

// editStep is a change, and what the load after it should count: 1 or 0
// for whether go list's answer was reused (reusedList), or the packages
// extracted only in their changed files (partialCount).
type editStep struct {
	name   string
	change func()
	want   int
}

func reusedList(t *testing.T, log string) int {
	if strings.Contains(log, "go list of ") {
		return 1
	}
	return 0
}

func partialCount(t *testing.T, log string) int { return logCount(t, log, partialRe) }

// runSteps applies each step and loads: the facts equal a load without
// the cache, and count gives what the step wants.
func runSteps(t *testing.T, root string, opt Options, steps []editStep, count func(*testing.T, string) int) {
	t.Helper()
	for _, s := range steps {
		if s.change != nil {
			s.change()
		}
		log := loadLikeFresh(t, root, opt, s.name)
		if got := count(t, log); got != s.want {
			t.Errorf("%s: counted %d, want %d; log:\n%s", s.name, got, s.want, log)
		}
	}
}

// TestPartialExtraction edits store, whose test variant (store.go and
// export_test.go) is extracted: an edit of function bodies re-extracts
// only the edited file; a changed declaration, a new type error or a new
// file needs the whole package. Every load gives the facts of a load
// without the cache.
func TestPartialExtraction(t *testing.T) {
	root, opt, edit := editModule(t, stock, "")
	steps := []editStep{
		{"cold", nil, 0},
		{"a body, lines moved", edit("store/store.go", "\tit, ok := s.items[sku]", "\t// Look it up.\n\tit, ok := s.items[sku]"), 1},
		{"a body in place", edit("store/store.go", "return it, ok", "return it, ok && it.Count > 0"), 1},
		{"the other file's body", edit("store/export_test.go", "return len(s.items)", "return len(s.items) + 0"), 1},
		{"a declaration", edit("store/store.go", "func New() *Store", "func New(_ ...int) *Store"), 0},
		{"a type error in a body", edit("store/store.go", "return it, ok && it.Count > 0", "return it, ok && it.Count > \"0\""), 0},
		// The last slot is from before the error: against it, the fix is
		// an edit of a body.
		{"the error fixed", edit("store/store.go", "it.Count > \"0\"", "it.Count > 1"), 1},
		{"a body after the fix", edit("store/store.go", "it.Count > 1", "it.Count > 2"), 1},
		{"a new file", func() { writeFile(t, root, "store/more.go", []byte("package store\n\nfunc more() int { return 1 }\n")) }, 0},
		{"a body after the new file", edit("store/more.go", "return 1", "return 2"), 1},
	}
	runSteps(t, root, opt, steps, partialCount)
}

// TestPartialSurvivesPackReuse loads through a real pack, which keeps
// only the records a load used: a package whose result is reused from
// its parts keeps them and its slot, so that an edit of it a few loads
// later is still extracted in part.
func TestPartialSurvivesPackReuse(t *testing.T) {
	root := t.TempDir()
	writeArchive(t, root, txtar.Parse([]byte(stock)))
	st, err := index.Open(index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	load := func() string {
		pack := st.Pack(root, "go-pkg")
		_, log := loadLog(t, root, Options{Cache: pack, CacheSalt: "test"})
		pack.Flush()
		return log
	}
	change := editor(t, root)
	edit := func(rel, old, new string) { change(rel, old, new)() }
	load()
	edit("store/store.go", "return it, ok", "return it, ok && it.Count > 0")
	if n := logCount(t, load(), partialRe); n != 1 {
		t.Fatalf("a body edit of store: %d partial extractions, want 1", n)
	}
	// Two loads that reuse store's result without touching store.
	edit("cart/cart.go", "n += it.Count", "n += it.Count * 1")
	load()
	edit("cart/cart.go", "n += it.Count * 1", "n += it.Count * 2")
	load()
	edit("store/store.go", "it.Count > 0", "it.Count > 1")
	if n := logCount(t, load(), partialRe); n != 1 {
		t.Errorf("store edited again after loads that reused it: %d partial extractions, want 1 (its slot or parts were dropped)", n)
	}
}

// vendored is a module whose one dependency is vendored: go list reports
// the vendored files, which the loader does not analyse.
const vendored = `
-- go.mod --
module example.com/app

go 1.22

require example.com/dep v1.0.0
-- vendor/modules.txt --
# example.com/dep v1.0.0
## explicit; go 1.22
example.com/dep
-- vendor/example.com/dep/dep.go --
package dep

// Answer is what dep answers.
func Answer() int { return 42 }
-- app.go --
package app

import "example.com/dep"

// Ask asks dep.
func Ask() int { return dep.Answer() }
`

// TestListingReuseVendored: vendored files count in go list's answer,
// known by size and modification time; a change to their imports makes
// go list run again.
func TestListingReuseVendored(t *testing.T) {
	root, opt, edit := editModule(t, vendored, "fingerprint")
	steps := []editStep{
		{"cold", nil, 0},
		{"nothing changed", nil, 1},
		{"a vendored body", edit("vendor/example.com/dep/dep.go", "return 42", "return 43"), 1},
		// The edit's time is set an hour ahead: the record this load makes
		// must hold it as too recent to trust however long the load takes
		// (a time merely within the racy window of the edit depends on the
		// machine being quick).
		{"a vendored import", func() {
			edit("vendor/example.com/dep/dep.go", "package dep\n", "package dep\n\nimport \"strings\"\n\nvar _ = strings.ToUpper\n")()
			ahead := time.Now().Add(time.Hour)
			if err := os.Chtimes(filepath.Join(root, "vendor/example.com/dep/dep.go"), ahead, ahead); err != nil {
				t.Fatal(err)
			}
		}, 0},
		// The same size, and the time put back: only a time recorded as
		// too recent to trust makes the loader read the file again.
		{"another vendored import, same size and time", func() {
			abs := filepath.Join(root, "vendor/example.com/dep/dep.go")
			st, err := os.Stat(abs)
			if err != nil {
				t.Fatal(err)
			}
			edit("vendor/example.com/dep/dep.go", "strings", "unicode")()
			edit("vendor/example.com/dep/dep.go", "strings", "unicode")()
			if err := os.Chtimes(abs, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, 0},
		{"nothing changed since", nil, 1},
		{"the vendored file removed", func() {
			if err := os.Remove(filepath.Join(root, "vendor/example.com/dep/dep.go")); err != nil {
				t.Fatal(err)
			}
		}, 0},
	}
	runSteps(t, root, opt, steps, reusedList)
}

// TestPartialExtractionDegraded: a package importing a module that is not
// available (offline) has type errors, all consequences of the missing
// import; its edits are still extracted in part, and every load equals a
// load without the cache, the problem naming the missing import included.
func TestPartialExtractionDegraded(t *testing.T) {
	root, opt, edit := editModule(t, stock, "")
	writeFile(t, root, "cart/remote.go", []byte("package cart\n\nimport \"example.com/nowhere/lib\"\n\n// Sync sends the cart away.\nfunc (c *Cart) Sync() error { return lib.Send(c.SKUs) }\n"))
	steps := []editStep{
		{"cold", nil, 0},
		{"a body of the other file", edit("cart/cart.go", "n += it.Count", "n += it.Count * 1"), 1},
		{"a body using the missing import", edit("cart/remote.go", "return lib.Send(c.SKUs)", "return lib.Send(c.SKUs[:0])"), 1},
		// A real error in an edited file needs the whole package.
		{"a real type error", edit("cart/cart.go", "n += it.Count * 1", "n += it.Count * \"1\""), 0},
		{"the error fixed", edit("cart/cart.go", "n += it.Count * \"1\"", "n += it.Count * 2"), 1},
		// store changes; cart is reused whole, its problem with it.
		{"another package", edit("store/store.go", "return it, ok", "return it, ok && true"), 1},
	}
	runSteps(t, root, opt, steps, partialCount)
}
