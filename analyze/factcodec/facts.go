package factcodec

import (
	"fmt"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// The facts codec: a whole analyze.Facts as one record (the snapshot a
// warm run loads instead of analysing anything). Strings go through a
// table, so the names, containers and package paths repeated across
// thousands of symbols are stored and allocated once. BenchmarkFactsCodec
// compares it with encoding/gob.

// Version changes with the encoding; a record of another version is
// refused.
const Version = 1

// strTable numbers strings in order of first use.
type strTable struct {
	ids  map[string]uint64
	list []string
}

func (t *strTable) id(s string) uint64 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := uint64(len(t.list))
	t.ids[s] = id
	t.list = append(t.list, s)
	return id
}

// Encode encodes facts for Decode. The facts' Root is not stored: a
// snapshot belongs to a root and gets it back on decoding, so a record
// made under one checkout decodes under another.
func Encode(fs *analyze.Facts) []byte {
	t := &strTable{ids: map[string]uint64{"": 0}, list: []string{""}}
	body := wire.NewWriter(64*len(fs.Symbols) + 16*len(fs.Edges))
	body.Uint(uint64(len(fs.Files)))
	for _, f := range fs.Files {
		body.Uint(t.id(f.Path))
		body.Byte(byte(f.Lang))
		body.Uint(t.id(f.Package))
		body.Uint(t.id(f.PkgName))
		body.Byte(byte(f.Category))
		body.Int(f.Size)
		body.Int(int64(f.Lines))
		body.String(f.Hash)
		body.Bool(f.Degraded)
		body.Int(int64(f.Errors))
	}
	body.Uint(uint64(len(fs.Symbols)))
	for _, s := range fs.Symbols {
		body.Uint(t.id(s.Name))
		body.Uint(t.id(s.Container))
		body.Byte(byte(s.Kind))
		body.Int(int64(s.File))
		body.Int(int64(s.Start))
		body.Int(int64(s.End - s.Start))
		body.Int(int64(s.DeclLine - s.Start))
		body.Uint(t.id(s.Doc))
		body.Uint(t.id(s.Signature))
		var flags byte
		if s.Exported {
			flags |= 1
		}
		if s.Test {
			flags |= 2
		}
		body.Byte(flags)
		body.Int(int64(s.Parent))
	}
	body.Uint(uint64(len(fs.Edges)))
	var prevFrom int64
	for _, e := range fs.Edges {
		// Normalised edges are sorted by From: store its delta.
		body.Int(int64(e.From) - prevFrom)
		prevFrom = int64(e.From)
		body.Int(int64(e.To))
		b := byte(e.Kind)<<1 | byte(e.Origin)<<5 // kinds fit in four bits, origins in three
		if e.Exact {
			b |= 1
		}
		body.Byte(b)
		body.Int(int64(e.Line))
	}
	body.Uint(uint64(len(fs.Imports)))
	for _, im := range fs.Imports {
		body.Int(int64(im.File))
		body.Uint(t.id(im.Path))
		body.Int(int64(im.Line))
	}
	body.Uint(uint64(len(fs.Problems)))
	for _, p := range fs.Problems {
		body.Byte(byte(p.Kind))
		body.Uint(t.id(p.Path))
		body.Int(int64(p.Line))
		body.Uint(t.id(p.Msg))
	}
	body.Bool(fs.Partial)

	out := wire.NewWriter(body.Len() + 32*len(t.list) + 8)
	out.Uint(Version)
	out.Strings(t.list)
	out.Blob(body.Bytes())
	return out.Bytes()
}

// Decode decodes what Encode wrote, checking every index, and sets Root.
// Malformed input, or a record of another Version, gives an error
// wrapping wire.ErrCorrupt.
func Decode(data []byte, root string) (*analyze.Facts, error) {
	outer := wire.NewReader(data)
	if v := outer.Uint(); v != Version {
		if err := outer.Err(); err != nil {
			return nil, fmt.Errorf("%w: facts: %v", wire.ErrCorrupt, err)
		}
		return nil, fmt.Errorf("%w: facts of codec version %d, want %d", wire.ErrCorrupt, v, Version)
	}
	strs := outer.Strings()
	bodyBytes := outer.Blob()
	if err := outer.Done(); err != nil {
		return nil, fmt.Errorf("%w: facts: %v", wire.ErrCorrupt, err)
	}
	r := wire.NewReader(bodyBytes)
	bad := false
	str := func() string {
		id := r.Uint()
		if id >= uint64(len(strs)) {
			bad = true
			return ""
		}
		return strs[id]
	}
	fs := &analyze.Facts{Root: root}
	nf := r.Len(10)
	fs.Files = makeOrNil[analyze.File](nf)
	for i := range fs.Files {
		f := &fs.Files[i]
		f.Path = str()
		f.Lang = analyze.Lang(r.Byte())
		f.Package = str()
		f.PkgName = str()
		f.Category = analyze.Category(r.Byte())
		f.Size = r.Int()
		f.Lines = int(r.Int())
		f.Hash = r.String()
		f.Degraded = r.Bool()
		f.Errors = int(r.Int())
	}
	ns := r.Len(11)
	fs.Symbols = makeOrNil[analyze.Symbol](ns)
	for i := range fs.Symbols {
		s := &fs.Symbols[i]
		s.Name = str()
		s.Container = str()
		s.Kind = analyze.SymbolKind(r.Byte())
		s.File = analyze.FileID(r.Int())
		s.Start = int(r.Int())
		s.End = s.Start + int(r.Int())
		s.DeclLine = s.Start + int(r.Int())
		s.Doc = str()
		s.Signature = str()
		flags := r.Byte()
		s.Exported, s.Test = flags&1 != 0, flags&2 != 0
		s.Parent = analyze.SymID(r.Int())
		if s.File < 0 || int(s.File) >= nf || s.Parent < analyze.NoSym || int(s.Parent) >= ns {
			bad = true
		}
	}
	ne := r.Len(4)
	fs.Edges = makeOrNil[analyze.Edge](ne)
	var from int64
	for i := range fs.Edges {
		e := &fs.Edges[i]
		from += r.Int()
		e.From = analyze.SymID(from)
		e.To = analyze.SymID(r.Int())
		b := r.Byte()
		e.Kind, e.Exact, e.Origin = analyze.EdgeKind(b>>1&0xf), b&1 != 0, analyze.EdgeOrigin(b>>5)
		e.Line = int(r.Int())
		if e.From < 0 || int(e.From) >= ns || e.To < 0 || int(e.To) >= ns {
			bad = true
		}
	}
	ni := r.Len(3)
	fs.Imports = makeOrNil[analyze.Import](ni)
	for i := range fs.Imports {
		im := &fs.Imports[i]
		im.File = analyze.FileID(r.Int())
		im.Path = str()
		im.Line = int(r.Int())
		if im.File < 0 || int(im.File) >= nf {
			bad = true
		}
	}
	np := r.Len(4)
	fs.Problems = makeOrNil[analyze.Problem](np)
	for i := range fs.Problems {
		p := &fs.Problems[i]
		p.Kind = analyze.ProblemKind(r.Byte())
		p.Path = str()
		p.Line = int(r.Int())
		p.Msg = str()
	}
	fs.Partial = r.Bool()
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("%w: facts: %v", wire.ErrCorrupt, err)
	}
	if bad {
		return nil, fmt.Errorf("%w: facts: an index is out of range", wire.ErrCorrupt)
	}
	return fs, nil
}

// makeOrNil keeps empty tables nil, as loaders leave them.
func makeOrNil[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, n)
}
