package factcodec

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// synthFacts builds normalised facts of a realistic shape: files with
// symbols, edges between them, imports and problems.
func synthFacts(files, symsPerFile, edgesPerSym int) *analyze.Facts {
	rng := rand.New(rand.NewPCG(1, 2))
	fs := &analyze.Facts{Root: "/repo"}
	for f := 0; f < files; f++ {
		pkg := fmt.Sprintf("example.com/m/pkg%d", f/10)
		fid := fs.AddFile(analyze.File{Path: fmt.Sprintf("pkg%d/file%d.go", f/10, f), Lang: analyze.LangGo,
			Package: pkg, PkgName: fmt.Sprintf("pkg%d", f/10), Size: 4000, Lines: 200,
			Hash: fmt.Sprintf("%064x", f), Degraded: f%17 == 0, Errors: f % 3})
		parent := analyze.NoSym
		for s := 0; s < symsPerFile; s++ {
			sym := analyze.Symbol{Name: fmt.Sprintf("Name%d", rng.IntN(500)), Kind: analyze.SymbolKind(1 + s%8),
				File: fid, Start: 1 + 10*s, End: 8 + 10*s, DeclLine: 2 + 10*s,
				Doc: "Doc comment of the symbol.", Signature: fmt.Sprintf("func Name%d(x int) error", s),
				Exported: s%2 == 0, Test: s%11 == 0, Parent: parent}
			if s%4 == 0 {
				sym.Container = "Service"
			}
			id := fs.AddSymbol(sym)
			if s%5 == 0 {
				parent = id
			}
		}
		fs.Imports = append(fs.Imports, analyze.Import{File: fid, Path: "fmt", Line: 3})
		if f%7 == 0 {
			fs.Problemf(analyze.ProblemType, fs.Files[fid].Path, 9, "undefined: x%d", f)
		}
	}
	n := len(fs.Symbols)
	for s := 0; s < n; s++ {
		for e := 0; e < edgesPerSym; e++ {
			fs.AddEdge(analyze.Edge{From: analyze.SymID(s), To: analyze.SymID(rng.IntN(n)),
				Kind: analyze.EdgeKind(1 + rng.IntN(analyze.NumEdgeKinds-1)), Exact: rng.IntN(2) == 0,
				Origin: analyze.EdgeOrigin(rng.IntN(analyze.NumOrigins)), Line: rng.IntN(300)})
		}
	}
	fs.Partial = true
	fs.Normalize()
	return fs
}

var factsCmp = cmp.Options{cmpopts.IgnoreUnexported(analyze.Facts{})}

func TestFactsRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		facts *analyze.Facts
	}{
		{"empty", &analyze.Facts{Root: "/repo"}},
		{"small", synthFacts(3, 4, 2)},
		{"larger", synthFacts(40, 30, 5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := Encode(tt.facts)
			got, err := Decode(data, "/repo")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.facts, got, factsCmp); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			if !bytes.Equal(Encode(got), data) {
				t.Error("encoding is not deterministic")
			}
		})
	}
}

// corruptions are ways a record can be damaged; a flipped bit may decode
// to other valid facts, which the index's entry checksum catches.
var corruptions = []struct {
	name string
	edit func([]byte) []byte
}{
	{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
	{"empty", func([]byte) []byte { return nil }},
	{"garbage", func([]byte) []byte { return []byte("not an entry at all, just text") }},
	{"another version", func(b []byte) []byte { return append([]byte{Version + 1}, b[1:]...) }},
}

func TestFactsCorrupt(t *testing.T) {
	data := Encode(synthFacts(5, 5, 3))
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Decode(c.edit(data), "/repo"); !errors.Is(err, wire.ErrCorrupt) {
				t.Errorf("err = %v, want wire.ErrCorrupt", err)
			}
		})
	}
}

// FuzzDecodeFacts checks that no entry, however damaged, panics the
// decoder or yields facts with dangling IDs.
func FuzzDecodeFacts(f *testing.F) {
	f.Add(Encode(synthFacts(2, 3, 2)))
	f.Add(Encode(&analyze.Facts{}))
	f.Add([]byte{1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, err := Decode(data, "/r")
		if err != nil {
			return
		}
		for _, s := range fs.Symbols {
			if int(s.File) >= len(fs.Files) {
				t.Fatal("dangling file ID")
			}
		}
		for _, e := range fs.Edges {
			if int(e.From) >= len(fs.Symbols) || int(e.To) >= len(fs.Symbols) {
				t.Fatal("dangling symbol ID")
			}
		}
	})
}

// BenchmarkFactsCodec compares the facts codec with encoding/gob on facts
// the size of a large repository's (about 20k symbols, 100k edges), the
// measurement behind storing snapshots with package wire.
func BenchmarkFactsCodec(b *testing.B) {
	fs := synthFacts(1000, 20, 5)
	b.Run("wire/encode", func(b *testing.B) {
		for b.Loop() {
			b.SetBytes(int64(len(Encode(fs))))
		}
	})
	data := Encode(fs)
	b.Run("wire/decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := Decode(data, "/repo"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gob/encode", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(fs); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(buf.Len()))
		}
	})
	var buf bytes.Buffer
	gob.NewEncoder(&buf).Encode(fs)
	gobData := buf.Bytes()
	b.Run("gob/decode", func(b *testing.B) {
		b.SetBytes(int64(len(gobData)))
		for b.Loop() {
			var out analyze.Facts
			if err := gob.NewDecoder(bytes.NewReader(gobData)).Decode(&out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
