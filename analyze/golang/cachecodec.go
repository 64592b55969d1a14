package golang

import (
	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// The encoding of a extract.Result for the cache (cache.go). Every field of
// every record is written; TestResultCodecCoversEveryField fails when a
// field is added without being encoded here.

type resultWriter struct {
	*wire.Writer
}

func (w resultWriter) key(k extract.Key) {
	w.String(k.Path)
	w.Int(int64(k.Line))
	w.Int(int64(k.Col))
}

// strs writes a list keeping nil apart from empty (a method set's exact
// signatures are nil when known from syntax only).
func (w resultWriter) strs(ss []string) {
	if ss == nil {
		w.Uint(0)
		return
	}
	w.Uint(uint64(len(ss)) + 1)
	for _, s := range ss {
		w.String(s)
	}
}

func (w resultWriter) symbol(s *analyze.Symbol) {
	w.String(s.Name)
	w.String(s.Container)
	w.Byte(byte(s.Kind))
	w.Int(int64(s.File))
	w.Int(int64(s.Start))
	w.Int(int64(s.End))
	w.Int(int64(s.DeclLine))
	w.String(s.Doc)
	w.String(s.Signature)
	w.Bool(s.Exported)
	w.Bool(s.Test)
	w.Int(int64(s.Parent))
}

func (w resultWriter) file(f *analyze.File) {
	w.String(f.Path)
	w.Byte(byte(f.Lang))
	w.String(f.Package)
	w.String(f.PkgName)
	w.Byte(byte(f.Category))
	w.Int(f.Size)
	w.Int(int64(f.Lines))
	w.String(f.Hash)
	w.Bool(f.Degraded)
	w.Int(int64(f.Errors))
}

func encodeResult(r *extract.Result) []byte {
	w := resultWriter{wire.NewWriter(1024 + 96*len(r.Syms) + 48*len(r.Edges) + 64*len(r.Raws))}
	w.String(r.Scope)
	w.String(r.ImportPath)
	w.String(r.PkgName)
	w.String(r.Dir)
	w.Uint(uint64(len(r.Files)))
	for i := range r.Files {
		fr := &r.Files[i]
		w.file(&fr.File)
		w.Uint(uint64(len(fr.Imports)))
		for _, im := range fr.Imports {
			w.String(im.Name)
			w.String(im.Path)
			w.Int(int64(im.Line))
		}
	}
	w.Uint(uint64(len(r.Syms)))
	for i := range r.Syms {
		s := &r.Syms[i]
		w.key(s.Key)
		w.symbol(&s.Sym)
		w.String(s.Scope)
		w.key(s.Parent)
		w.String(s.Arity)
		w.String(s.FieldType.Qual)
		w.String(s.FieldType.Name)
		w.String(s.File)
	}
	w.Uint(uint64(len(r.Edges)))
	for _, e := range r.Edges {
		w.key(e.From)
		w.key(e.To)
		w.Byte(byte(e.Kind))
		w.Bool(e.Exact)
		w.Int(int64(e.Line))
	}
	w.Uint(uint64(len(r.Raws)))
	for i := range r.Raws {
		rr := &r.Raws[i]
		w.key(rr.From)
		w.Byte(byte(rr.Kind))
		w.Int(int64(rr.Line))
		w.String(rr.File)
		w.String(rr.Scope)
		w.String(rr.Qual)
		w.String(rr.QualPath)
		w.String(rr.Name)
		w.String(rr.RecvQual)
		w.String(rr.RecvType)
		w.String(rr.Field)
		w.Bool(rr.Member)
		w.Bool(rr.ExactScope)
	}
	w.Uint(uint64(len(r.MethodSets)))
	for i := range r.MethodSets {
		ms := &r.MethodSets[i]
		w.key(ms.Key)
		w.String(ms.Scope)
		w.Bool(ms.Iface)
		w.strs(ms.Exact)
		w.strs(ms.Arity)
	}
	w.Uint(uint64(len(r.Problems)))
	for _, p := range r.Problems {
		w.Byte(byte(p.Kind))
		w.String(p.Path)
		w.Int(int64(p.Line))
		w.String(p.Msg)
	}
	return w.Bytes()
}

type resultReader struct {
	*wire.Reader
	in wire.Interner
}

func (r resultReader) str() string { return r.in.String(r.Reader) }

func (r resultReader) key() extract.Key {
	return extract.Key{Path: r.str(), Line: int32(r.Int()), Col: int32(r.Int())}
}

func (r resultReader) strs() []string {
	n := r.Len(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n-1)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r resultReader) symbol() analyze.Symbol {
	var s analyze.Symbol
	s.Name = r.str()
	s.Container = r.str()
	s.Kind = analyze.SymbolKind(r.Byte())
	s.File = analyze.FileID(r.Int())
	s.Start = int(r.Int())
	s.End = int(r.Int())
	s.DeclLine = int(r.Int())
	s.Doc = r.String()
	s.Signature = r.String()
	s.Exported = r.Bool()
	s.Test = r.Bool()
	s.Parent = analyze.SymID(r.Int())
	return s
}

func (r resultReader) file() analyze.File {
	var f analyze.File
	f.Path = r.str()
	f.Lang = analyze.Lang(r.Byte())
	f.Package = r.str()
	f.PkgName = r.str()
	f.Category = analyze.Category(r.Byte())
	f.Size = r.Int()
	f.Lines = int(r.Int())
	f.Hash = r.String()
	f.Degraded = r.Bool()
	f.Errors = int(r.Int())
	return f
}

// decodeResult reads what encodeResult wrote.
func decodeResult(data []byte) (*extract.Result, error) {
	r := resultReader{wire.NewReader(data), wire.Interner{}}
	res := &extract.Result{Scope: r.str(), ImportPath: r.str(), PkgName: r.str(), Dir: r.str()}
	if n := r.Len(12); n > 0 {
		res.Files = make([]extract.FileRec, n)
		for i := range res.Files {
			fr := &res.Files[i]
			fr.File = r.file()
			if ni := r.Len(3); ni > 0 {
				fr.Imports = make([]extract.ImportRec, ni)
				for j := range fr.Imports {
					fr.Imports[j] = extract.ImportRec{Name: r.str(), Path: r.str(), Line: int(r.Int())}
				}
			}
		}
	}
	if n := r.Len(20); n > 0 {
		res.Syms = make([]extract.SymRec, n)
		for i := range res.Syms {
			s := &res.Syms[i]
			s.Key = r.key()
			s.Sym = r.symbol()
			s.Scope = r.str()
			s.Parent = r.key()
			s.Arity = r.str()
			s.FieldType = extract.TypeRef{Qual: r.str(), Name: r.str()}
			s.File = r.str()
		}
	}
	if n := r.Len(9); n > 0 {
		res.Edges = make([]extract.EdgeRec, n)
		for i := range res.Edges {
			e := &res.Edges[i]
			e.From = r.key()
			e.To = r.key()
			e.Kind = analyze.EdgeKind(r.Byte())
			e.Exact = r.Bool()
			e.Line = int(r.Int())
		}
	}
	if n := r.Len(16); n > 0 {
		res.Raws = make([]extract.RawRef, n)
		for i := range res.Raws {
			rr := &res.Raws[i]
			rr.From = r.key()
			rr.Kind = analyze.EdgeKind(r.Byte())
			rr.Line = int(r.Int())
			rr.File = r.str()
			rr.Scope = r.str()
			rr.Qual = r.str()
			rr.QualPath = r.str()
			rr.Name = r.str()
			rr.RecvQual = r.str()
			rr.RecvType = r.str()
			rr.Field = r.str()
			rr.Member = r.Bool()
			rr.ExactScope = r.Bool()
		}
	}
	if n := r.Len(7); n > 0 {
		res.MethodSets = make([]extract.MethodSet, n)
		for i := range res.MethodSets {
			ms := &res.MethodSets[i]
			ms.Key = r.key()
			ms.Scope = r.str()
			ms.Iface = r.Bool()
			ms.Exact = r.strs()
			ms.Arity = r.strs()
		}
	}
	if n := r.Len(4); n > 0 {
		res.Problems = make([]analyze.Problem, n)
		for i := range res.Problems {
			p := &res.Problems[i]
			p.Kind = analyze.ProblemKind(r.Byte())
			p.Path = r.str()
			p.Line = int(r.Int())
			p.Msg = r.String()
		}
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	return res, nil
}
