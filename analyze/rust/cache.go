package rust

import (
	"fmt"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Reusing per-file extraction across loads.
//
// Files are parsed independently and resolved globally, so what one file
// says on its own (fileSyntax) is a function of its content and of
// SkipTests alone. With Options.Cache set, each file's syntax is stored
// under the hash of its content; a later load reuses it and redoes only
// resolution, which is cheap. With Options.FileHash as well, an unchanged
// file is not even read.

// Cache keeps records between loads; index.Pack implements it.
type Cache interface {
	Get(key index.Key) ([]byte, bool)
	Put(key index.Key, data []byte)
}

// syntaxCodecVersion changes with the extractor's output or the encoding
// below; records of another version are never read.
const syntaxCodecVersion = 1

func (opt *Options) fileKey(hash string) index.Key {
	return index.NewHasher("rust-file").Uint(syntaxCodecVersion).String(opt.CacheSalt).
		Bool(opt.SkipTests).String(hash).Sum()
}

// cached returns the record of a file whose content hash is known, or
// false.
func (opt *Options) cached(rel, hash string) (parsed, bool) {
	if opt.Cache == nil || hash == "" {
		return parsed{}, false
	}
	data, ok := opt.Cache.Get(opt.fileKey(hash))
	if !ok {
		return parsed{}, false
	}
	f, syn, err := decodeRecord(data)
	if err != nil {
		return parsed{}, false
	}
	f.Path, f.Hash, f.Lang = rel, hash, analyze.LangRust
	return finishParsed(f, syn), true
}

// store keeps a freshly extracted file's record.
func (opt *Options) store(res parsed) {
	if opt.Cache == nil || res.syn == nil {
		return
	}
	opt.Cache.Put(opt.fileKey(res.file.Hash), encodeRecord(res.file, res.syn))
}

// nilStrs writes a string list keeping nil apart from empty: the resolver
// tells an inherent impl (nil trait) from others by it.
func nilStrs(w *wire.Writer, ss []string) {
	if ss == nil {
		w.Uint(0)
		return
	}
	w.Uint(uint64(len(ss)) + 1)
	for _, s := range ss {
		w.String(s)
	}
}

func readNilStrs(r *wire.Reader, in wire.Interner) []string {
	n := r.Len(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n-1)
	for i := range out {
		out[i] = in.String(r)
	}
	return out
}

func encodeRecord(f analyze.File, syn *fileSyntax) []byte {
	w := wire.NewWriter(1024 + 128*len(syn.items))
	w.Byte(byte(f.Category))
	w.Int(f.Size)
	w.Int(int64(syn.lines))
	w.Int(int64(syn.errors))
	w.Int(int64(syn.errLine))
	w.String(syn.innerDoc)
	nilStrs(w, syn.problems)
	encodeUses(w, syn.uses)
	w.Uint(uint64(len(syn.items)))
	for i := range syn.items {
		it := &syn.items[i]
		w.Byte(byte(it.kind))
		w.String(it.name)
		w.String(it.container)
		w.Int(int64(it.start))
		w.Int(int64(it.end))
		w.Int(int64(it.decl))
		w.String(it.doc)
		w.String(it.sig)
		var flags uint64
		for bit, v := range []bool{it.exported, it.test, it.cfgTest, it.selfParam, it.external, it.macroExport} {
			if v {
				flags |= 1 << bit
			}
		}
		w.Uint(flags)
		w.Int(int64(it.parent))
		w.Int(int64(it.mod))
		nilStrs(w, it.implType)
		nilStrs(w, it.implTrait)
		nilStrs(w, it.paths)
		w.Uint(uint64(len(it.generics)))
		for _, g := range it.generics {
			w.String(g.name)
			w.Uint(uint64(len(g.bounds)))
			for _, b := range g.bounds {
				nilStrs(w, b)
			}
		}
		w.Uint(uint64(len(it.locals)))
		for _, l := range it.locals {
			w.String(l.name)
			nilStrs(w, l.typ)
			w.Bool(l.typed)
			nilStrs(w, l.init)
			nilStrs(w, l.initRecv)
			w.String(l.initMethod)
		}
		encodeUses(w, it.uses)
		w.Uint(uint64(len(it.refs)))
		for _, rf := range it.refs {
			w.Byte(byte(rf.kind))
			w.Int(int64(rf.line))
			nilStrs(w, rf.path)
			nilStrs(w, rf.recv)
		}
		nilStrs(w, it.typ)
		nilStrs(w, it.ret)
	}
	return w.Bytes()
}

func encodeUses(w *wire.Writer, uses []useDecl) {
	w.Uint(uint64(len(uses)))
	for _, u := range uses {
		nilStrs(w, u.path)
		w.String(u.alias)
		w.Bool(u.glob)
		w.Bool(u.pub)
		w.Int(int64(u.line))
		w.Int(int64(u.mod))
		w.Bool(u.extern)
	}
}

func decodeUses(r *wire.Reader, in wire.Interner) []useDecl {
	n := r.Len(7)
	if n == 0 {
		return nil
	}
	out := make([]useDecl, n)
	for i := range out {
		u := &out[i]
		u.path = readNilStrs(r, in)
		u.alias = in.String(r)
		u.glob = r.Bool()
		u.pub = r.Bool()
		u.line = int32(r.Int())
		u.mod = int32(r.Int())
		u.extern = r.Bool()
	}
	return out
}

func decodeRecord(data []byte) (analyze.File, *fileSyntax, error) {
	r := wire.NewReader(data)
	in := wire.Interner{}
	var f analyze.File
	f.Category = analyze.Category(r.Byte())
	f.Size = r.Int()
	syn := &fileSyntax{}
	syn.lines = int(r.Int())
	syn.errors = int(r.Int())
	syn.errLine = int(r.Int())
	syn.innerDoc = r.String()
	syn.problems = readNilStrs(r, in)
	syn.uses = decodeUses(r, in)
	n := r.Len(16)
	if n > 0 {
		syn.items = make([]item, n)
	}
	for i := 0; i < n && r.Err() == nil; i++ {
		it := &syn.items[i]
		it.kind = analyze.SymbolKind(r.Byte())
		it.name = in.String(r)
		it.container = in.String(r)
		it.start = int(r.Int())
		it.end = int(r.Int())
		it.decl = int(r.Int())
		it.doc = r.String()
		it.sig = r.String()
		flags := r.Uint()
		it.exported, it.test, it.cfgTest = flags&1 != 0, flags&2 != 0, flags&4 != 0
		it.selfParam, it.external, it.macroExport = flags&8 != 0, flags&16 != 0, flags&32 != 0
		it.parent = int32(r.Int())
		it.mod = int32(r.Int())
		if int(it.parent) >= n || int(it.mod) >= n || it.parent < -1 || it.mod < -1 {
			return f, nil, fmt.Errorf("rust record: item %d links outside the file", i)
		}
		it.implType = readNilStrs(r, in)
		it.implTrait = readNilStrs(r, in)
		it.paths = readNilStrs(r, in)
		if ng := r.Len(2); ng > 0 {
			it.generics = make([]generic, ng)
			for j := range it.generics {
				g := &it.generics[j]
				g.name = in.String(r)
				if nb := r.Len(1); nb > 0 {
					g.bounds = make([][]string, nb)
					for k := range g.bounds {
						g.bounds[k] = readNilStrs(r, in)
					}
				}
			}
		}
		if nl := r.Len(6); nl > 0 {
			it.locals = make([]local, nl)
			for j := range it.locals {
				l := &it.locals[j]
				l.name = in.String(r)
				l.typ = readNilStrs(r, in)
				l.typed = r.Bool()
				l.init = readNilStrs(r, in)
				l.initRecv = readNilStrs(r, in)
				l.initMethod = in.String(r)
			}
		}
		it.uses = decodeUses(r, in)
		if nr := r.Len(4); nr > 0 {
			it.refs = make([]ref, nr)
			for j := range it.refs {
				rf := &it.refs[j]
				rf.kind = refKind(r.Byte())
				rf.line = int32(r.Int())
				rf.path = readNilStrs(r, in)
				rf.recv = readNilStrs(r, in)
			}
		}
		it.typ = readNilStrs(r, in)
		it.ret = readNilStrs(r, in)
	}
	if err := r.Done(); err != nil {
		return f, nil, err
	}
	for _, u := range syn.uses {
		if int(u.mod) >= n || u.mod < -1 {
			return f, nil, fmt.Errorf("rust record: a use links outside the file")
		}
	}
	return f, syn, nil
}
