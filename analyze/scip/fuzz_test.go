package scip

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	pb "github.com/sourcegraph/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"
)

// fuzzSources are the files of the repository a fuzzed index describes.
var fuzzSources = map[string]string{
	"a.ts":       "export class A {\n  run(x: number): number {\n    return helper(x) + 1;\n  }\n}\nexport function helper(y: number): number { return y; }\n",
	"b.py":       "def f():\n    return g()\n\n\ndef g():\n    return 1\n",
	"src/lib.rs": "pub struct S;\nimpl S {\n    pub fn go(&self) -> u8 { helper() }\n}\nfn helper() -> u8 { 1 }\n",
}

// fuzzSeed is a small, valid index over fuzzSources.
func fuzzSeed() *pb.Index {
	ts := "scip-typescript npm fz 1.0.0 "
	return &pb.Index{
		Metadata: &pb.Metadata{ToolInfo: &pb.ToolInfo{Name: "seed", Version: "1"}, ProjectRoot: "file:///fz"},
		Documents: []*pb.Document{
			{RelativePath: "a.ts", Language: "typescript", Occurrences: []*pb.Occurrence{
				{Range: []int32{0, 0, 0}, Symbol: ts + "`a.ts`/", SymbolRoles: 1, EnclosingRange: []int32{0, 0, 6, 0}},
				{Range: []int32{0, 13, 14}, Symbol: ts + "`a.ts`/A#", SymbolRoles: 1, EnclosingRange: []int32{0, 0, 4, 1}},
				{Range: []int32{1, 2, 5}, Symbol: ts + "`a.ts`/A#run().", SymbolRoles: 1, EnclosingRange: []int32{1, 2, 3, 3}},
				{Range: []int32{2, 11, 17}, Symbol: ts + "`a.ts`/helper()."},
				{Range: []int32{5, 16, 22}, Symbol: ts + "`a.ts`/helper().", SymbolRoles: 1, EnclosingRange: []int32{5, 0, 56}},
				{Range: []int32{2, 18, 19}, Symbol: "local 1"},
			}, Symbols: []*pb.SymbolInformation{
				{Symbol: ts + "`a.ts`/A#", Documentation: []string{"```ts\nclass A\n```", "An A."},
					Relationships: []*pb.Relationship{{Symbol: ts + "`a.ts`/helper().", IsImplementation: true}}},
			}},
			{RelativePath: "b.py", Occurrences: []*pb.Occurrence{
				{Range: []int32{0, 4, 5}, Symbol: "scip-python python fz 1 `b`/f().", SymbolRoles: 1, EnclosingRange: []int32{0, 0, 1, 14}},
				{Range: []int32{1, 11, 12}, Symbol: "scip-python python fz 1 `b`/g()."},
				{Range: []int32{4, 4, 5}, Symbol: "scip-python python fz 1 `b`/g().", SymbolRoles: 1, EnclosingRange: []int32{4, 0, 5, 12}},
			}},
			{RelativePath: "src/lib.rs", Language: "rust", PositionEncoding: pb.PositionEncoding_UTF8CodeUnitOffsetFromLineStart, Occurrences: []*pb.Occurrence{
				{Range: []int32{0, 11, 12}, Symbol: "rust-analyzer cargo fz 0.1.0 S#", SymbolRoles: 1, EnclosingRange: []int32{0, 0, 13}},
				{Range: []int32{2, 11, 13}, Symbol: "rust-analyzer cargo fz 0.1.0 impl#[S]go().", SymbolRoles: 1, EnclosingRange: []int32{2, 4, 39}},
				{Range: []int32{2, 29, 35}, Symbol: "rust-analyzer cargo fz 0.1.0 helper()."},
				{Range: []int32{4, 3, 9}, Symbol: "rust-analyzer cargo fz 0.1.0 helper().", SymbolRoles: 1, EnclosingRange: []int32{4, 0, 23}},
			}},
		},
	}
}

// FuzzLoad decodes arbitrary bytes as an index and converts it over a
// small repository: it must never panic, and whatever it returns must be
// well-formed facts (every index in range, spans ordered, every edge exact
// and from SCIP).
func FuzzLoad(f *testing.F) {
	seed, err := proto.Marshal(fuzzSeed())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte{})
	f.Add([]byte{0x12, 0x03, 0x0a, 0x01, 'x'})
	if data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "pysvc", "index.scip")); err == nil {
		f.Add(data)
	}
	root := f.TempDir()
	for rel, text := range fuzzSources {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, err := Parse(data)
		if err != nil {
			return
		}
		res, err := convert(context.Background(), root, []parsedIndex{{path: "fuzz.scip", idx: idx}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		fs := res.Facts
		fs.Normalize()
		checkFacts(t, fs)
		base := &analyze.Facts{}
		Merge(base, res)
		base.Normalize()
		checkFacts(t, base)
	})
}

// checkFacts fails t when facts are not well formed.
func checkFacts(t *testing.T, fs *analyze.Facts) {
	t.Helper()
	for i, s := range fs.Symbols {
		if int(s.File) < 0 || int(s.File) >= len(fs.Files) {
			t.Fatalf("symbol %d: file %d out of range", i, s.File)
		}
		if s.Start < 1 || s.End < s.Start || s.DeclLine < s.Start || s.DeclLine > s.End || s.End > max(fs.Files[s.File].Lines, 1) {
			t.Fatalf("symbol %d %s: span %d-%d, name on %d, file of %d lines", i, s.Name, s.Start, s.End, s.DeclLine, fs.Files[s.File].Lines)
		}
		if s.Parent != analyze.NoSym && (s.Parent < 0 || int(s.Parent) >= len(fs.Symbols)) {
			t.Fatalf("symbol %d: parent %d out of range", i, s.Parent)
		}
	}
	for _, e := range fs.Edges {
		if e.From < 0 || int(e.From) >= len(fs.Symbols) || e.To < 0 || int(e.To) >= len(fs.Symbols) || e.From == e.To {
			t.Fatalf("edge %+v out of range", e)
		}
		if !e.Exact || e.Origin != analyze.OriginSCIP {
			t.Fatalf("edge %+v: want exact, from SCIP", e)
		}
	}
	for _, im := range fs.Imports {
		if int(im.File) < 0 || int(im.File) >= len(fs.Files) {
			t.Fatalf("import %+v out of range", im)
		}
	}
}

// TestFuzzSeed: the hand-made seed converts to what it says.
func TestFuzzSeed(t *testing.T) {
	root := t.TempDir()
	for rel, text := range fuzzSources {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	res, err := convert(context.Background(), root, []parsedIndex{{path: "seed.scip", idx: fuzzSeed()}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res.Facts.Normalize()
	checkFacts(t, res.Facts)
	edges := edgeSet(res.Facts)
	for _, want := range []string{"A.run -calls-> helper", "f -calls-> g", "S::go -calls-> helper", "S::go -method_of-> S", "A -implements-> helper"} {
		if _, ok := edges[want]; !ok {
			t.Errorf("no edge %s in %v", want, edges)
		}
	}
	if len(res.Fresh) != 3 {
		t.Errorf("fresh %v, stale %v, problems %v", res.Fresh, res.Stale, res.Facts.Problems)
	}
}

// TestMalformedSymbols: symbols the bindings' parser panics on are
// skipped, not fatal.
func TestMalformedSymbols(t *testing.T) {
	for _, s := range []string{"\u0275", strings.Repeat("a", maxSymbolLen+1)} {
		if _, ok := describe(s, nil); ok {
			t.Errorf("describe(%q) accepted it", s)
		}
	}
}
