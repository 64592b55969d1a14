package typecache

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"hash/crc32"
	"math/big"
	"sort"

	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Export data: the declarations of a type-checked package, kept between
// loads so that a load that must type-check a package imports its
// dependencies from them instead of checking them from source
// (import.go decodes them).
//
// Checking a package needs the types of everything it imports, and
// checking those from their declarations costs most of a load: on hugo,
// editing one low-level file used to cost seconds of checking the ~1,500
// packages below the edited ones. golang.org/x/tools/go/gcexportdata
// writes "deep" data (each package with everything its API reaches), 90
// MB and 16 s of CPU for hugo's graph, which is worse than checking. The
// encoding here is shallow: a package's own package-level objects, with
// objects of other packages referred to by import path and name, and it
// is decoded lazily, one object at a time, as importers reach them.
//
// An object keeps its exact position (file, line and column, unadjusted
// by //line directives): extraction keys edges by the position of the
// declaring identifier, and the type checker prints positions of imported
// type parameters in some messages. The decoder gives each file a token.File
// whose lines are just long enough for the columns used, so that the
// positions read back are the ones written.
//
// Layout: exportVersion, path, name, the strings (names and paths, by
// index), the files (name; then each line holding a position, as a line
// delta and its width), the index (each object's name and offset in the
// object section), the object section, and a checksum.

// exportVersion changes with the encoding.
const exportVersion = 2

// errNotExportable says a package's declarations cannot be encoded (a
// local type reached through its API, a //line directive in a file); its
// importers check it from source instead.
var errNotExportable = errors.New("package cannot be exported")

// Object tags.
const (
	objConst byte = iota + 1
	objVar
	objFunc
	objNamed
	objAlias
)

// Type tags.
const (
	typBasic    byte = iota + 1
	typObj           // a named type or alias by package path and name
	typInstance      // an instance of a generic named type or alias
	typParam         // a type parameter of the enclosing declaration, by index
	typPointer
	typSlice
	typArray
	typMap
	typChan
	typStruct
	typSignature
	typInterface
	typUnion
)

// Constant value tags.
const (
	valUnknown byte = iota
	valBool
	valString
	valInt64
	valBigInt
	valRat
	valFloat
	valComplex
)

type exportWriter struct {
	fset  *token.FileSet
	name  func(filename string) string // how a file is named in the data
	w     *wire.Writer                 // the object section
	strs  map[string]int
	list  []string
	files map[string]*exportedFile
	order []*exportedFile
	scope []*types.TypeParam // type parameters in scope, innermost last
	lines [][2]int           // where lines and columns are in the object section, see shape
	own   string             // the package's path
	refs  map[string]bool    // the other packages named
	// literal writes strings out and positions as their file alone: an
	// object's encoding then does not depend on the others' (objectSums).
	literal bool
	err     error
}

type exportedFile struct {
	idx   int
	name  string
	width map[int]int // line → the largest column used on it
}

// Encode writes the export data of a type-checked package and returns
// it as an Export: the data, its hash, the package's shape (a SHA-256 of
// the data without the line and column of any position; the file of each
// stays), the other packages the data names and, with objects, the sum of
// each of its objects (objectSums). name maps a file name to the name
// stored (the loader stores files under the root relative to it, so that
// data stays valid when the repository moves).
//
// Importers depend on a package only through its shape and the shapes
// of the packages it names, recursively (SurfaceKey): their export data
// names its objects by path and name, and the Go loader's stored results
// refer to its declarations by identity. An edit that moves
// declarations, such as a line added to a function body, leaves the
// shape as it was. A package whose declarations cannot be encoded (a
// local type reached through its API, a //line directive) gives an error
// wrapping errNotExportable; its importers must check it from source.
func Encode(pkg *types.Package, fset *token.FileSet, name func(string) string, objects bool) (exp Export, err error) {
	defer func() {
		if r := recover(); r != nil {
			exp, err = Export{}, fmt.Errorf("%w: %v", errNotExportable, r)
		}
	}()
	e := &exportWriter{fset: fset, name: name, w: wire.NewWriter(4096), strs: map[string]int{}, files: map[string]*exportedFile{},
		own: pkg.Path(), refs: map[string]bool{}}
	scope := pkg.Scope()
	names := scope.Names()
	offsets := make([]int, len(names))
	for i, n := range names {
		offsets[i] = e.w.Len()
		e.object(scope.Lookup(n))
		if e.err != nil {
			return Export{}, e.err
		}
	}
	out := wire.NewWriter(e.w.Len() + 64*len(names) + 1024)
	out.Uint(exportVersion)
	out.String(pkg.Path())
	out.String(pkg.Name())
	// Every name is in the string table before it is written out.
	for _, n := range names {
		e.str(n)
	}
	for _, f := range e.order {
		e.str(f.name)
	}
	out.Uint(uint64(len(e.list)))
	for _, s := range e.list {
		out.String(s)
	}
	out.Uint(uint64(len(e.order)))
	for _, f := range e.order {
		out.Uint(uint64(e.strs[f.name]))
		lines := make([]int, 0, len(f.width))
		for l := range f.width {
			lines = append(lines, l)
		}
		sort.Ints(lines)
		out.Uint(uint64(len(lines)))
		prev := 0
		for _, l := range lines {
			out.Uint(uint64(l - prev))
			out.Uint(uint64(f.width[l]))
			prev = l
		}
	}
	out.Uint(uint64(len(names)))
	for i, n := range names {
		out.Uint(uint64(e.strs[n]))
		out.Uint(uint64(offsets[i]))
	}
	out.Blob(e.w.Bytes())
	var refs []string // nil when none, as LookupExport reads it back
	for p := range e.refs {
		refs = append(refs, p)
	}
	sort.Strings(refs)
	exp = NewExport(appendChecksum(out.Bytes()), e.shape(pkg, names), refs)
	if objects {
		exp.Objects = objectSums(pkg, fset, name, names)
	}
	return exp, nil
}

// objectSums hashes each of the package's objects (names, in order) as
// its importers see it: its declaration with the methods of a type, the
// packages and names of what it refers to, and the file of each position
// but no line or column. An object's sum depends on nothing else of the
// package, so an importer that uses a few of its objects keeps its check
// while those keep their sums (ObjectsKey).
func objectSums(pkg *types.Package, fset *token.FileSet, name func(string) string, names []string) []ObjectSum {
	out := make([]ObjectSum, len(names))
	w := wire.NewWriter(512)
	for i, n := range names {
		w.Reset()
		e := &exportWriter{fset: fset, name: name, w: w, own: pkg.Path(), literal: true}
		e.object(pkg.Scope().Lookup(n))
		sum := sha256.Sum256(w.Bytes())
		out[i].Name = n
		copy(out[i].Sum[:], sum[:])
	}
	return out
}

// shape hashes what the data says besides lines and columns: the
// package, the strings, the files and the object section with the lines
// and columns left out (objects' offsets, which move with them, too).
func (e *exportWriter) shape(pkg *types.Package, names []string) []byte {
	h := sha256.New()
	w := wire.NewWriter(1024)
	w.String(pkg.Path())
	w.String(pkg.Name())
	w.Strings(e.list)
	w.Strings(names)
	h.Write(w.Bytes())
	obj, at := e.w.Bytes(), 0
	for _, r := range e.lines {
		h.Write(obj[at:r[0]])
		at = r[1]
	}
	h.Write(obj[at:])
	return h.Sum(nil)
}

// The data ends with a CRC-32C of what precedes it: damaged data is
// refused before any of it is decoded. (Types built from data that is
// well formed but inconsistent can stop the type checker's own lazy
// expansion from ending; the checksum keeps damage from getting there.)
var exportCRC = crc32.MakeTable(crc32.Castagnoli)

func appendChecksum(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, exportCRC))
}

// checkChecksum returns the data without its checksum, or an error.
func checkChecksum(b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, errors.New("export data truncated")
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, exportCRC) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("export data damaged (checksum mismatch)")
	}
	return body, nil
}

func (e *exportWriter) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("%w: %s", errNotExportable, fmt.Sprintf(format, args...))
	}
}

func (e *exportWriter) str(s string) int {
	if i, ok := e.strs[s]; ok {
		return i
	}
	i := len(e.list)
	e.strs[s] = i
	e.list = append(e.list, s)
	return i
}

func (e *exportWriter) string(s string) {
	if e.literal {
		e.w.String(s)
		return
	}
	e.w.Uint(uint64(e.str(s)))
}

// pos writes a position as file, line and column; 0 for none.
func (e *exportWriter) pos(p token.Pos) {
	if !p.IsValid() {
		e.w.Uint(0)
		return
	}
	pos := e.fset.PositionFor(p, false)
	if pos.Filename == "" || pos.Line <= 0 {
		e.w.Uint(0)
		return
	}
	if e.literal {
		e.w.Uint(1)
		e.w.String(e.name(pos.Filename))
		return
	}
	if adj := e.fset.PositionFor(p, true); adj != pos {
		e.fail("%s has a //line directive", pos.Filename)
		return
	}
	f := e.files[pos.Filename]
	if f == nil {
		f = &exportedFile{idx: len(e.order), name: e.name(pos.Filename), width: map[int]int{}}
		e.files[pos.Filename] = f
		e.order = append(e.order, f)
	}
	if pos.Column > f.width[pos.Line] {
		f.width[pos.Line] = pos.Column
	}
	e.w.Uint(uint64(f.idx + 1))
	start := e.w.Len()
	e.w.Uint(uint64(pos.Line))
	e.w.Uint(uint64(pos.Column))
	e.lines = append(e.lines, [2]int{start, e.w.Len()})
}

func (e *exportWriter) pkgPath(p *types.Package) {
	if p == nil {
		e.string("")
		return
	}
	if p.Path() != e.own && e.refs != nil {
		e.refs[p.Path()] = true
	}
	e.string(p.Path())
}

func (e *exportWriter) object(obj types.Object) {
	switch o := obj.(type) {
	case *types.Const:
		e.w.Byte(objConst)
		e.pos(o.Pos())
		e.typ(o.Type())
		e.value(o.Val())
	case *types.Var:
		e.w.Byte(objVar)
		e.pos(o.Pos())
		e.typ(o.Type())
	case *types.Func:
		sig := o.Type().(*types.Signature)
		e.w.Byte(objFunc)
		e.pos(o.Pos())
		e.tparams(sig.TypeParams())
		e.signature(sig)
		e.popTparams(sig.TypeParams())
	case *types.TypeName:
		switch t := o.Type().(type) {
		case *types.Alias:
			e.w.Byte(objAlias)
			e.pos(o.Pos())
			e.tparams(t.TypeParams())
			e.typ(t.Rhs())
			e.popTparams(t.TypeParams())
		case *types.Named:
			e.w.Byte(objNamed)
			e.pos(o.Pos())
			e.tparams(t.TypeParams())
			e.typ(t.Underlying())
			e.popTparams(t.TypeParams())
			e.w.Uint(uint64(t.NumMethods()))
			for i := 0; i < t.NumMethods(); i++ {
				e.method(t.Method(i))
			}
		default:
			e.fail("type name %s of type %T", o.Name(), o.Type())
		}
	default:
		e.fail("object %s of kind %T", obj.Name(), obj)
	}
}

// method writes a method: name, position, receiver (with the receiver type
// parameters of a generic type's method) and signature.
func (e *exportWriter) method(m *types.Func) {
	sig := m.Type().(*types.Signature)
	e.string(m.Name())
	e.pos(m.Pos())
	e.pkgPath(m.Pkg())
	e.tparams(sig.RecvTypeParams())
	recv := sig.Recv()
	e.string(recv.Name())
	e.typ(recv.Type())
	e.signature(sig)
	e.popTparams(sig.RecvTypeParams())
}

// tparams declares a list of type parameters (names and positions, then
// constraints, which may refer to the list itself) and brings it in scope.
func (e *exportWriter) tparams(list *types.TypeParamList) {
	n := list.Len()
	e.w.Uint(uint64(n))
	for i := 0; i < n; i++ {
		tp := list.At(i)
		e.string(tp.Obj().Name())
		e.pos(tp.Obj().Pos())
		e.scope = append(e.scope, tp)
	}
	for i := 0; i < n; i++ {
		e.typ(list.At(i).Constraint())
	}
}

func (e *exportWriter) popTparams(list *types.TypeParamList) {
	e.scope = e.scope[:len(e.scope)-list.Len()]
}

// signature writes parameters, results and variadic; the receiver and type
// parameters are the declaration's business.
func (e *exportWriter) signature(sig *types.Signature) {
	e.tuple(sig.Params())
	e.tuple(sig.Results())
	e.w.Bool(sig.Variadic())
}

func (e *exportWriter) tuple(t *types.Tuple) {
	e.w.Uint(uint64(t.Len()))
	for i := 0; i < t.Len(); i++ {
		v := t.At(i)
		e.string(v.Name())
		e.typ(v.Type())
	}
}

// objRef refers to a package-level type name (or a predeclared one).
func (e *exportWriter) objRef(obj *types.TypeName) {
	if pkg := obj.Pkg(); pkg != nil && obj.Parent() != pkg.Scope() {
		e.fail("local type %s", obj.Name())
		return
	}
	e.pkgPath(obj.Pkg())
	e.string(obj.Name())
}

func (e *exportWriter) typ(t types.Type) {
	if e.err != nil {
		return
	}
	w := e.w
	switch t := t.(type) {
	case *types.Basic:
		w.Byte(typBasic)
		w.Uint(uint64(t.Kind()))
		// byte and rune are aliases that print under their own names.
		w.String(t.Name())
	case *types.Named, *types.Alias:
		// An instance's Obj is its origin's type name.
		n := t.(interface {
			Obj() *types.TypeName
			TypeArgs() *types.TypeList
		})
		if targs := n.TypeArgs(); targs.Len() > 0 {
			w.Byte(typInstance)
			e.objRef(n.Obj())
			e.typeList(targs)
			return
		}
		w.Byte(typObj)
		e.objRef(n.Obj())
	case *types.TypeParam:
		for i := len(e.scope) - 1; i >= 0; i-- {
			if e.scope[i] == t {
				w.Byte(typParam)
				w.Uint(uint64(len(e.scope) - 1 - i))
				return
			}
		}
		e.fail("type parameter %s out of scope", t.Obj().Name())
	case *types.Pointer:
		w.Byte(typPointer)
		e.typ(t.Elem())
	case *types.Slice:
		w.Byte(typSlice)
		e.typ(t.Elem())
	case *types.Array:
		w.Byte(typArray)
		w.Int(t.Len())
		e.typ(t.Elem())
	case *types.Map:
		w.Byte(typMap)
		e.typ(t.Key())
		e.typ(t.Elem())
	case *types.Chan:
		w.Byte(typChan)
		w.Uint(uint64(t.Dir()))
		e.typ(t.Elem())
	case *types.Struct:
		w.Byte(typStruct)
		w.Uint(uint64(t.NumFields()))
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			e.string(f.Name())
			e.pos(f.Pos())
			e.pkgPath(f.Pkg())
			w.Bool(f.Embedded())
			e.typ(f.Type())
			w.String(t.Tag(i))
		}
	case *types.Signature:
		if t.Recv() != nil || t.TypeParams().Len() > 0 || t.RecvTypeParams().Len() > 0 {
			e.fail("signature with receiver or type parameters used as a type")
			return
		}
		w.Byte(typSignature)
		e.signature(t)
	case *types.Interface:
		w.Byte(typInterface)
		w.Bool(t.IsImplicit())
		w.Uint(uint64(t.NumExplicitMethods()))
		for i := 0; i < t.NumExplicitMethods(); i++ {
			m := t.ExplicitMethod(i)
			sig := m.Type().(*types.Signature)
			e.string(m.Name())
			e.pos(m.Pos())
			e.pkgPath(m.Pkg())
			// The receiver is the named interface type declaring the
			// method, or the interface itself.
			if named, ok := recvNamed(sig); ok {
				w.Bool(true)
				e.objRef(named.Obj())
			} else {
				w.Bool(false)
			}
			e.signature(sig)
		}
		w.Uint(uint64(t.NumEmbeddeds()))
		for i := 0; i < t.NumEmbeddeds(); i++ {
			e.typ(t.EmbeddedType(i))
		}
	case *types.Union:
		w.Byte(typUnion)
		w.Uint(uint64(t.Len()))
		for i := 0; i < t.Len(); i++ {
			term := t.Term(i)
			w.Bool(term.Tilde())
			e.typ(term.Type())
		}
	default:
		e.fail("type %T", t)
	}
}

// recvNamed returns the named (not instantiated) receiver type of an
// interface method, when it has one.
func recvNamed(sig *types.Signature) (*types.Named, bool) {
	if sig.Recv() == nil {
		return nil, false
	}
	named, ok := sig.Recv().Type().(*types.Named)
	if !ok || named.TypeArgs().Len() > 0 {
		return nil, false
	}
	return named, true
}

func (e *exportWriter) typeList(l *types.TypeList) {
	e.w.Uint(uint64(l.Len()))
	for i := 0; i < l.Len(); i++ {
		e.typ(l.At(i))
	}
}

// value writes a constant exactly.
func (e *exportWriter) value(v constant.Value) {
	w := e.w
	switch v.Kind() {
	case constant.Bool:
		w.Byte(valBool)
		w.Bool(constant.BoolVal(v))
	case constant.String:
		w.Byte(valString)
		w.String(constant.StringVal(v))
	case constant.Int, constant.Float:
		e.number(v)
	case constant.Complex:
		w.Byte(valComplex)
		e.number(constant.Real(v))
		e.number(constant.Imag(v))
	default:
		w.Byte(valUnknown)
	}
}

func (e *exportWriter) number(v constant.Value) {
	w := e.w
	switch x := constant.Val(v).(type) {
	case int64:
		w.Byte(valInt64)
		w.Int(x)
	case *big.Int:
		w.Byte(valBigInt)
		w.String(x.String())
	case *big.Rat:
		w.Byte(valRat)
		w.String(x.Num().String())
		w.String(x.Denom().String())
	case *big.Float:
		b, err := x.GobEncode()
		if err != nil {
			e.fail("float constant: %v", err)
			return
		}
		w.Byte(valFloat)
		w.Blob(b)
	default:
		w.Byte(valUnknown)
	}
}
