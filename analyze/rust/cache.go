package rust

import (
	"fmt"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Reusing per-file extraction across loads.
//
// Files are parsed independently and resolved globally, so what one file
// says on its own (resolve.FileSyntax) is a function of its content and of
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
func (opt *Options) cached(rel, hash string) (resolve.Parsed, bool) {
	if opt.Cache == nil || hash == "" {
		return resolve.Parsed{}, false
	}
	data, ok := opt.Cache.Get(opt.fileKey(hash))
	if !ok {
		return resolve.Parsed{}, false
	}
	f, syn, err := decodeRecord(data)
	if err != nil {
		return resolve.Parsed{}, false
	}
	f.Path, f.Hash, f.Lang = rel, hash, analyze.LangRust
	return finishParsed(f, syn), true
}

// store keeps a freshly extracted file's record.
func (opt *Options) store(res resolve.Parsed) {
	if opt.Cache == nil || res.Syn == nil {
		return
	}
	opt.Cache.Put(opt.fileKey(res.File.Hash), encodeRecord(res.File, res.Syn))
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

func encodeRecord(f analyze.File, syn *resolve.FileSyntax) []byte {
	w := wire.NewWriter(1024 + 128*len(syn.Items))
	w.Byte(byte(f.Category))
	w.Int(f.Size)
	w.Int(int64(syn.Lines))
	w.Int(int64(syn.Errors))
	w.Int(int64(syn.ErrLine))
	w.String(syn.InnerDoc)
	nilStrs(w, syn.Problems)
	encodeUses(w, syn.Uses)
	w.Uint(uint64(len(syn.Items)))
	for i := range syn.Items {
		it := &syn.Items[i]
		w.Byte(byte(it.Kind))
		w.String(it.Name)
		w.String(it.Container)
		w.Int(int64(it.Start))
		w.Int(int64(it.End))
		w.Int(int64(it.Decl))
		w.String(it.Doc)
		w.String(it.Sig)
		var flags uint64
		for bit, v := range []bool{it.Exported, it.Test, it.CfgTest, it.SelfParam, it.External, it.MacroExport} {
			if v {
				flags |= 1 << bit
			}
		}
		w.Uint(flags)
		w.Int(int64(it.Parent))
		w.Int(int64(it.Mod))
		nilStrs(w, it.ImplType)
		nilStrs(w, it.ImplTrait)
		nilStrs(w, it.Paths)
		w.Uint(uint64(len(it.Generics)))
		for _, g := range it.Generics {
			w.String(g.Name)
			w.Uint(uint64(len(g.Bounds)))
			for _, b := range g.Bounds {
				nilStrs(w, b)
			}
		}
		w.Uint(uint64(len(it.Locals)))
		for _, l := range it.Locals {
			w.String(l.Name)
			nilStrs(w, l.Typ)
			w.Bool(l.Typed)
			nilStrs(w, l.Init)
			nilStrs(w, l.InitRecv)
			w.String(l.InitMethod)
		}
		encodeUses(w, it.Uses)
		w.Uint(uint64(len(it.Refs)))
		for _, rf := range it.Refs {
			w.Byte(byte(rf.Kind))
			w.Int(int64(rf.Line))
			nilStrs(w, rf.Path)
			nilStrs(w, rf.Recv)
		}
		nilStrs(w, it.Typ)
		nilStrs(w, it.Ret)
	}
	return w.Bytes()
}

func encodeUses(w *wire.Writer, uses []resolve.UseDecl) {
	w.Uint(uint64(len(uses)))
	for _, u := range uses {
		nilStrs(w, u.Path)
		w.String(u.Alias)
		w.Bool(u.Glob)
		w.Bool(u.Pub)
		w.Int(int64(u.Line))
		w.Int(int64(u.Mod))
		w.Bool(u.Extern)
	}
}

func decodeUses(r *wire.Reader, in wire.Interner) []resolve.UseDecl {
	n := r.Len(7)
	if n == 0 {
		return nil
	}
	out := make([]resolve.UseDecl, n)
	for i := range out {
		u := &out[i]
		u.Path = readNilStrs(r, in)
		u.Alias = in.String(r)
		u.Glob = r.Bool()
		u.Pub = r.Bool()
		u.Line = int32(r.Int())
		u.Mod = int32(r.Int())
		u.Extern = r.Bool()
	}
	return out
}

func decodeRecord(data []byte) (analyze.File, *resolve.FileSyntax, error) {
	r := wire.NewReader(data)
	in := wire.Interner{}
	var f analyze.File
	f.Category = analyze.Category(r.Byte())
	f.Size = r.Int()
	syn := &resolve.FileSyntax{}
	syn.Lines = int(r.Int())
	syn.Errors = int(r.Int())
	syn.ErrLine = int(r.Int())
	syn.InnerDoc = r.String()
	syn.Problems = readNilStrs(r, in)
	syn.Uses = decodeUses(r, in)
	n := r.Len(16)
	if n > 0 {
		syn.Items = make([]resolve.Item, n)
	}
	for i := 0; i < n && r.Err() == nil; i++ {
		it := &syn.Items[i]
		it.Kind = analyze.SymbolKind(r.Byte())
		it.Name = in.String(r)
		it.Container = in.String(r)
		it.Start = int(r.Int())
		it.End = int(r.Int())
		it.Decl = int(r.Int())
		it.Doc = r.String()
		it.Sig = r.String()
		flags := r.Uint()
		it.Exported, it.Test, it.CfgTest = flags&1 != 0, flags&2 != 0, flags&4 != 0
		it.SelfParam, it.External, it.MacroExport = flags&8 != 0, flags&16 != 0, flags&32 != 0
		it.Parent = int32(r.Int())
		it.Mod = int32(r.Int())
		if int(it.Parent) >= n || int(it.Mod) >= n || it.Parent < -1 || it.Mod < -1 {
			return f, nil, fmt.Errorf("rust record: item %d links outside the file", i)
		}
		it.ImplType = readNilStrs(r, in)
		it.ImplTrait = readNilStrs(r, in)
		it.Paths = readNilStrs(r, in)
		if ng := r.Len(2); ng > 0 {
			it.Generics = make([]resolve.Generic, ng)
			for j := range it.Generics {
				g := &it.Generics[j]
				g.Name = in.String(r)
				if nb := r.Len(1); nb > 0 {
					g.Bounds = make([][]string, nb)
					for k := range g.Bounds {
						g.Bounds[k] = readNilStrs(r, in)
					}
				}
			}
		}
		if nl := r.Len(6); nl > 0 {
			it.Locals = make([]resolve.Local, nl)
			for j := range it.Locals {
				l := &it.Locals[j]
				l.Name = in.String(r)
				l.Typ = readNilStrs(r, in)
				l.Typed = r.Bool()
				l.Init = readNilStrs(r, in)
				l.InitRecv = readNilStrs(r, in)
				l.InitMethod = in.String(r)
			}
		}
		it.Uses = decodeUses(r, in)
		if nr := r.Len(4); nr > 0 {
			it.Refs = make([]resolve.Ref, nr)
			for j := range it.Refs {
				rf := &it.Refs[j]
				rf.Kind = resolve.RefKind(r.Byte())
				rf.Line = int32(r.Int())
				rf.Path = readNilStrs(r, in)
				rf.Recv = readNilStrs(r, in)
			}
		}
		it.Typ = readNilStrs(r, in)
		it.Ret = readNilStrs(r, in)
	}
	if err := r.Done(); err != nil {
		return f, nil, err
	}
	for _, u := range syn.Uses {
		if int(u.Mod) >= n || u.Mod < -1 {
			return f, nil, fmt.Errorf("rust record: a use links outside the file")
		}
	}
	return f, syn, nil
}
