package golang

import (
	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// The encoding of a pkgResult for the cache (cache.go). Every field of
// every record is written; TestResultCodecCoversEveryField fails when a
// field is added without being encoded here.

type resultWriter struct {
	*wire.Writer
}

func (w resultWriter) key(k key) {
	w.String(k.path)
	w.Int(int64(k.line))
	w.Int(int64(k.col))
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

func encodeResult(r *pkgResult) []byte {
	w := resultWriter{wire.NewWriter(1024 + 96*len(r.syms) + 48*len(r.edges) + 64*len(r.raws))}
	w.String(r.scope)
	w.String(r.importPath)
	w.String(r.pkgName)
	w.String(r.dir)
	w.Uint(uint64(len(r.files)))
	for i := range r.files {
		fr := &r.files[i]
		w.file(&fr.file)
		w.Uint(uint64(len(fr.imports)))
		for _, im := range fr.imports {
			w.String(im.name)
			w.String(im.path)
			w.Int(int64(im.line))
		}
	}
	w.Uint(uint64(len(r.syms)))
	for i := range r.syms {
		s := &r.syms[i]
		w.key(s.key)
		w.symbol(&s.sym)
		w.String(s.scope)
		w.key(s.parent)
		w.String(s.arity)
		w.String(s.ftype.qual)
		w.String(s.ftype.name)
		w.String(s.file)
	}
	w.Uint(uint64(len(r.edges)))
	for _, e := range r.edges {
		w.key(e.from)
		w.key(e.to)
		w.Byte(byte(e.kind))
		w.Bool(e.exact)
		w.Int(int64(e.line))
	}
	w.Uint(uint64(len(r.raws)))
	for i := range r.raws {
		rr := &r.raws[i]
		w.key(rr.from)
		w.Byte(byte(rr.kind))
		w.Int(int64(rr.line))
		w.String(rr.file)
		w.String(rr.scope)
		w.String(rr.qual)
		w.String(rr.qualPath)
		w.String(rr.name)
		w.String(rr.recvQual)
		w.String(rr.recvType)
		w.String(rr.field)
		w.Bool(rr.member)
		w.Bool(rr.exactScope)
	}
	w.Uint(uint64(len(r.msets)))
	for i := range r.msets {
		ms := &r.msets[i]
		w.key(ms.key)
		w.String(ms.scope)
		w.Bool(ms.iface)
		w.strs(ms.exact)
		w.strs(ms.arity)
	}
	w.Uint(uint64(len(r.problems)))
	for _, p := range r.problems {
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

func (r resultReader) key() key {
	return key{path: r.str(), line: int32(r.Int()), col: int32(r.Int())}
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
func decodeResult(data []byte) (*pkgResult, error) {
	r := resultReader{wire.NewReader(data), wire.Interner{}}
	res := &pkgResult{scope: r.str(), importPath: r.str(), pkgName: r.str(), dir: r.str()}
	if n := r.Len(12); n > 0 {
		res.files = make([]fileRec, n)
		for i := range res.files {
			fr := &res.files[i]
			fr.file = r.file()
			if ni := r.Len(3); ni > 0 {
				fr.imports = make([]importRec, ni)
				for j := range fr.imports {
					fr.imports[j] = importRec{name: r.str(), path: r.str(), line: int(r.Int())}
				}
			}
		}
	}
	if n := r.Len(20); n > 0 {
		res.syms = make([]symRec, n)
		for i := range res.syms {
			s := &res.syms[i]
			s.key = r.key()
			s.sym = r.symbol()
			s.scope = r.str()
			s.parent = r.key()
			s.arity = r.str()
			s.ftype = typeRef{qual: r.str(), name: r.str()}
			s.file = r.str()
		}
	}
	if n := r.Len(9); n > 0 {
		res.edges = make([]edgeRec, n)
		for i := range res.edges {
			e := &res.edges[i]
			e.from = r.key()
			e.to = r.key()
			e.kind = analyze.EdgeKind(r.Byte())
			e.exact = r.Bool()
			e.line = int(r.Int())
		}
	}
	if n := r.Len(16); n > 0 {
		res.raws = make([]rawRef, n)
		for i := range res.raws {
			rr := &res.raws[i]
			rr.from = r.key()
			rr.kind = analyze.EdgeKind(r.Byte())
			rr.line = int(r.Int())
			rr.file = r.str()
			rr.scope = r.str()
			rr.qual = r.str()
			rr.qualPath = r.str()
			rr.name = r.str()
			rr.recvQual = r.str()
			rr.recvType = r.str()
			rr.field = r.str()
			rr.member = r.Bool()
			rr.exactScope = r.Bool()
		}
	}
	if n := r.Len(7); n > 0 {
		res.msets = make([]methodSet, n)
		for i := range res.msets {
			ms := &res.msets[i]
			ms.key = r.key()
			ms.scope = r.str()
			ms.iface = r.Bool()
			ms.exact = r.strs()
			ms.arity = r.strs()
		}
	}
	if n := r.Len(4); n > 0 {
		res.problems = make([]analyze.Problem, n)
		for i := range res.problems {
			p := &res.problems[i]
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
