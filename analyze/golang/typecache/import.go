package typecache

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"
	"sync"

	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Decoding export data (export.go) lazily.
//
// A Reader stands for one package whose types come from export data. Its
// objects are decoded when first looked up, together with what they refer
// to in other packages (through its Resolver, which finds the package a
// path means for this package: a checked one or another reader). Decoding
// is not safe for concurrent use: the lock of one Importer guards every
// reader of a load. A package is completed (every object decoded) before
// a package importing it is checked, and the type checker only looks
// names up in the scopes of the packages it imports, so checks can run
// while other readers decode.

// Importer is the state shared by the readers of a load: its file set,
// its lock and the work deferred to the end of a decoding step.
type Importer struct {
	mu    sync.Mutex
	fset  *token.FileSet
	ctxt  *types.Context
	file  func(name string) string // the file name to give a stored name
	depth int

	// Work deferred to the end of the outermost decoding step: interfaces
	// are completed and constraints set once every type they mention is.
	ifaces      []*types.Interface
	constraints []pendingConstraint
	instances   []types.Type
	named       []*types.Named // decoded in this step, checked for cycles by value
}

type pendingConstraint struct {
	tp *types.TypeParam
	c  types.Type
}

// NewImporter starts the readers of a load. Positions go into fset; file
// turns a file name stored in export data back into the name to give it
// (Encode's name, reversed).
func NewImporter(fset *token.FileSet, file func(string) string) *Importer {
	return &Importer{fset: fset, ctxt: types.NewContext(), file: file}
}

// Lock takes the importer's lock, which must be held while any of its
// readers is used.
func (s *Importer) Lock() { s.mu.Lock() }

// Unlock releases the lock Lock took.
func (s *Importer) Unlock() { s.mu.Unlock() }

// Resolver finds the package an import path means for the package being
// decoded: a checked package (nil reader) or another reader's; false when
// the path means nothing there.
type Resolver func(path string) (*types.Package, *Reader, bool)

// Reader decodes one package.
type Reader struct {
	set     *Importer
	pkg     *types.Package
	data    []byte
	resolve Resolver

	opened   bool
	err      error
	strs     []string
	files    []decodedFile
	index    map[string]int
	objs     []byte
	busy     map[string]int // objects being decoded (aliases may be reached again)
	complete bool
}

type decodedFile struct {
	name  string
	lines []int // line → the start offset of that line in tf; -1 for unused lines
	tf    *token.File
	size  int
}

// NewReader prepares a reader of e's data for pkg (an empty package of
// the right path and name); nothing is decoded yet. Data that is not what
// e.Hash describes is refused when the reader is first used.
func (s *Importer) NewReader(pkg *types.Package, e Export, resolve Resolver) *Reader {
	data := e.Data
	if sum := sha256.Sum256(data); !bytes.Equal(sum[:], e.Hash) {
		data = nil // not the data the record's hash (and so the surface) describes
	}
	return &Reader{set: s, pkg: pkg, data: data, resolve: resolve}
}

// Package is the package the reader fills: complete once Complete
// returned nil.
func (r *Reader) Package() *types.Package { return r.pkg }

// Bounds on what a file table may ask of the file set, so that damaged
// data cannot exhaust it: the lines and columns of real Go files are far
// below them.
const (
	maxExportLine  = 1 << 22
	maxExportWidth = 1 << 20
	maxExportSize  = 1 << 28
)

// open reads the header: strings, files and index.
func (r *Reader) open() (err error) {
	if r.opened {
		return r.err
	}
	r.opened = true
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("reading export data of %s: %v", r.pkg.Path(), rec)
		}
		if err != nil {
			r.err = err
		}
	}()
	body, err := checkChecksum(r.data)
	if err != nil {
		return err
	}
	rd := wire.NewReader(body)
	if v := rd.Uint(); v != exportVersion {
		r.err = fmt.Errorf("export data of version %d", v)
		return r.err
	}
	if path, name := rd.String(), rd.String(); path != r.pkg.Path() || name != r.pkg.Name() {
		r.err = fmt.Errorf("export data of %s (%s), want %s (%s)", path, name, r.pkg.Path(), r.pkg.Name())
		return r.err
	}
	r.strs = make([]string, rd.Len(1))
	for i := range r.strs {
		r.strs[i] = rd.String()
	}
	r.files = make([]decodedFile, rd.Len(2))
	for i := range r.files {
		f := &r.files[i]
		f.name = r.strAt(rd.Uint())
		n := rd.Len(2)
		line := 0
		widths := make(map[int]int, n)
		size := 0
		for j := 0; j < n; j++ {
			delta, width := rd.Uint(), rd.Uint()
			if delta > maxExportLine || width > maxExportWidth {
				return fmt.Errorf("export data of %s: line or column out of range", r.pkg.Path())
			}
			line += int(delta)
			widths[line] = int(width)
			size += int(width)
			if line > maxExportLine || size > maxExportSize {
				return fmt.Errorf("export data of %s: file table out of range", r.pkg.Path())
			}
		}
		f.lines = make([]int, line+1)
		off := 0
		for l := 1; l <= line; l++ {
			f.lines[l] = off
			if w := widths[l]; w > 0 {
				off += w
			} else {
				off++
			}
		}
		f.size = off + 1
	}
	n := rd.Len(2)
	r.index = make(map[string]int, n)
	for i := 0; i < n; i++ {
		name := r.strAt(rd.Uint())
		r.index[name] = int(rd.Uint())
	}
	r.objs = rd.View()
	if err := rd.Done(); err != nil {
		r.err = err
	}
	return r.err
}

func (r *Reader) strAt(i uint64) string {
	if i >= uint64(len(r.strs)) {
		panic(fmt.Sprintf("string %d out of range", i))
	}
	return r.strs[i]
}

// step runs a decoding step; the outermost one finishes the deferred
// work. A panic (damaged data, or a type constructor's precondition
// broken by it) becomes an error.
func (s *Importer) step(f func() error) (err error) {
	s.depth++
	defer func() {
		s.depth--
		if rec := recover(); rec != nil {
			err = fmt.Errorf("decoding export data: %v", rec)
		}
		if s.depth == 0 {
			if ferr := s.finish(); err == nil {
				err = ferr
			}
		}
	}()
	return f()
}

func (s *Importer) finish() (err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("completing imported types: %v", rec)
		}
	}()
	for len(s.ifaces) > 0 || len(s.constraints) > 0 || len(s.instances) > 0 {
		ifaces := s.ifaces
		s.ifaces = nil
		for _, t := range ifaces {
			t.Complete()
		}
		cs := s.constraints
		s.constraints = nil
		for _, c := range cs {
			switch u := types.Unalias(c.c).(type) {
			case *types.Interface:
			case *types.Named:
				if _, ok := u.Underlying().(*types.Interface); !ok {
					return fmt.Errorf("a constraint of type %T", u.Underlying())
				}
			default:
				return fmt.Errorf("a constraint of type %T", u)
			}
			c.tp.SetConstraint(c.c)
		}
		named := s.named
		s.named = nil
		done := map[types.Type]bool{}
		for _, t := range named {
			if err := valueCycle(t, done, map[types.Type]bool{}, 0); err != nil {
				return err
			}
		}
		insts := s.instances
		s.instances = nil
		for _, t := range insts {
			if iface, ok := t.Underlying().(*types.Interface); ok {
				iface.Complete()
			}
		}
	}
	return nil
}

// Complete decodes every object of the package, so that it can be
// imported by a package being checked. The caller holds the importer's
// lock.
func (r *Reader) Complete() error {
	if r.complete {
		return nil
	}
	if err := r.open(); err != nil {
		return err
	}
	err := r.set.step(func() error {
		for name := range r.index {
			if _, err := r.lookup(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	r.complete = true
	r.pkg.MarkComplete()
	return nil
}

// lookup returns the package-level object name, decoding it if needed.
func (r *Reader) lookup(name string) (types.Object, error) {
	if obj := r.pkg.Scope().Lookup(name); obj != nil {
		return obj, nil
	}
	if err := r.open(); err != nil {
		return nil, err
	}
	off, ok := r.index[name]
	if !ok || off < 0 || off >= len(r.objs) {
		return nil, fmt.Errorf("%s.%s is not in its export data", r.pkg.Path(), name)
	}
	if r.busy[name] > 1 {
		return nil, fmt.Errorf("%s.%s refers to itself", r.pkg.Path(), name)
	}
	if r.busy == nil {
		r.busy = map[string]int{}
	}
	r.busy[name]++
	defer func() { r.busy[name]-- }()
	d := &objDecoder{r: r, rd: wire.NewReader(r.objs[off:])}
	obj := d.object(name)
	if err := d.rd.Err(); err != nil {
		return nil, fmt.Errorf("decoding %s.%s: %w", r.pkg.Path(), name, err)
	}
	if d.err != nil {
		return nil, d.err
	}
	return obj, nil
}

// pos turns a stored position into one of the reader's files.
func (r *Reader) pos(file, line, col int) token.Pos {
	if file <= 0 || file > len(r.files) {
		return token.NoPos
	}
	f := &r.files[file-1]
	if line <= 0 || line >= len(f.lines) {
		return token.NoPos
	}
	if f.tf == nil {
		f.tf = r.set.fset.AddFile(r.set.file(f.name), -1, f.size)
		f.tf.SetLines(f.lines[1:])
	}
	off := f.lines[line] + col - 1
	if off < 0 || off >= f.size {
		return token.NoPos
	}
	return f.tf.Pos(off)
}

// objDecoder decodes one object.
type objDecoder struct {
	r     *Reader
	rd    *wire.Reader
	scope []*types.TypeParam
	err   error
}

func (d *objDecoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

func (d *objDecoder) str() string { return d.r.strAt(d.rd.Uint()) }

func (d *objDecoder) pos() token.Pos {
	file := int(d.rd.Uint())
	if file == 0 {
		return token.NoPos
	}
	line, col := int(d.rd.Uint()), int(d.rd.Uint())
	return d.r.pos(file, line, col)
}

func (d *objDecoder) pkg() *types.Package {
	path := d.str()
	if path == "" {
		d.fail("a field or method without a package")
		return d.r.pkg
	}
	if path == d.r.pkg.Path() {
		return d.r.pkg
	}
	p, _, ok := d.r.resolve(path)
	if !ok {
		d.fail("%s refers to package %s, which it does not import", d.r.pkg.Path(), path)
		return d.r.pkg
	}
	return p
}

func (d *objDecoder) object(name string) types.Object {
	pkg, scope := d.r.pkg, d.r.pkg.Scope()
	switch tag := d.rd.Byte(); tag {
	case objConst:
		pos := d.pos()
		typ := d.typ()
		val := d.value()
		obj := types.NewConst(pos, pkg, name, typ, val)
		scope.Insert(obj)
		return obj
	case objVar:
		pos := d.pos()
		obj := types.NewVar(pos, pkg, name, d.typ())
		scope.Insert(obj)
		return obj
	case objFunc:
		pos := d.pos()
		tps := d.tparams()
		params, results, variadic := d.signature()
		d.popTparams(tps)
		obj := types.NewFunc(pos, pkg, name, types.NewSignatureType(nil, nil, tps, params, results, variadic))
		scope.Insert(obj)
		return obj
	case objAlias:
		pos := d.pos()
		tn := types.NewTypeName(pos, pkg, name, nil)
		tps := d.tparams()
		rhs := d.typ()
		d.popTparams(tps)
		if obj := scope.Lookup(name); obj != nil {
			return obj // reached again while decoding its right-hand side
		}
		alias := types.NewAlias(tn, rhs)
		if len(tps) > 0 {
			alias.SetTypeParams(tps)
		}
		scope.Insert(tn)
		return tn
	case objNamed:
		pos := d.pos()
		tn := types.NewTypeName(pos, pkg, name, nil)
		named := types.NewNamed(tn, nil, nil)
		scope.Insert(tn)
		tps := d.tparams()
		if len(tps) > 0 {
			named.SetTypeParams(tps)
		}
		under := d.typ()
		d.popTparams(tps)
		if d.err != nil || d.rd.Err() != nil {
			return tn
		}
		switch under.(type) {
		case *types.Basic, *types.Pointer, *types.Slice, *types.Array, *types.Map, *types.Chan,
			*types.Struct, *types.Signature, *types.Interface:
		default:
			d.fail("%s.%s has an underlying type of kind %T", pkg.Path(), name, under)
			return tn
		}
		named.SetUnderlying(under)
		d.r.set.named = append(d.r.set.named, named)
		for i, n := 0, d.rd.Len(4); i < n; i++ {
			named.AddMethod(d.method())
		}
		return tn
	default:
		d.fail("unknown object tag %d for %s.%s", tag, pkg.Path(), name)
		return nil
	}
}

func (d *objDecoder) method() *types.Func {
	name := d.str()
	pos := d.pos()
	pkg := d.pkg()
	rtps := d.tparams()
	recvName := d.str()
	recvType := d.typ()
	params, results, variadic := d.signature()
	d.popTparams(rtps)
	recv := types.NewParam(token.NoPos, pkg, recvName, recvType)
	recv.SetKind(types.RecvVar)
	return types.NewFunc(pos, pkg, name, types.NewSignatureType(recv, rtps, nil, params, results, variadic))
}

// tparams declares a list of type parameters and brings it in scope; their
// constraints are set once the decoding step ends.
func (d *objDecoder) tparams() []*types.TypeParam {
	n := d.rd.Len(2)
	if n == 0 {
		return nil
	}
	tps := make([]*types.TypeParam, n)
	for i := range tps {
		name := d.str()
		pos := d.pos()
		tps[i] = types.NewTypeParam(types.NewTypeName(pos, d.r.pkg, name, nil), nil)
		d.scope = append(d.scope, tps[i])
	}
	for _, tp := range tps {
		c := d.typ()
		if _, ok := types.Unalias(c).(*types.TypeParam); ok {
			d.fail("a type parameter constrained by a type parameter")
			return tps
		}
		if c != nil {
			d.r.set.constraints = append(d.r.set.constraints, pendingConstraint{tp, c})
		}
	}
	return tps
}

func (d *objDecoder) popTparams(tps []*types.TypeParam) {
	d.scope = d.scope[:len(d.scope)-len(tps)]
}

func (d *objDecoder) signature() (params, results *types.Tuple, variadic bool) {
	params = d.tuple(types.ParamVar)
	results = d.tuple(types.ResultVar)
	variadic = d.rd.Bool()
	return params, results, variadic
}

func (d *objDecoder) tuple(kind types.VarKind) *types.Tuple {
	n := d.rd.Len(2)
	if n == 0 {
		return nil
	}
	vars := make([]*types.Var, n)
	for i := range vars {
		name := d.str()
		vars[i] = types.NewParam(token.NoPos, d.r.pkg, name, d.typ())
		vars[i].SetKind(kind)
	}
	return types.NewTuple(vars...)
}

// objRef resolves a reference to a type name.
func (d *objDecoder) objRef() types.Object {
	path, name := d.str(), d.str()
	if d.err != nil {
		return nil
	}
	if path == "" {
		obj := types.Universe.Lookup(name)
		if obj == nil {
			d.fail("no predeclared %s", name)
		}
		return obj
	}
	var obj types.Object
	var err error
	switch p, r, ok := d.r.resolve(path); {
	case path == d.r.pkg.Path():
		obj, err = d.r.lookup(name)
	case !ok:
		err = fmt.Errorf("%s refers to package %s, which it does not import", d.r.pkg.Path(), path)
	case r != nil:
		obj, err = r.lookup(name)
	default:
		if obj = p.Scope().Lookup(name); obj == nil {
			err = fmt.Errorf("%s refers to %s.%s, which does not exist", d.r.pkg.Path(), path, name)
		}
	}
	if err != nil {
		d.fail("%v", err)
		return nil
	}
	return obj
}

var invalidType = types.Typ[types.Invalid]

func (d *objDecoder) typ() types.Type {
	if d.err != nil || d.rd.Err() != nil {
		return invalidType
	}
	rd := d.rd
	switch tag := rd.Byte(); tag {
	case typBasic:
		kind := types.BasicKind(rd.Uint())
		name := rd.String()
		if obj := types.Universe.Lookup(name); obj != nil {
			if b, ok := obj.Type().(*types.Basic); ok && b.Kind() == kind {
				return b
			}
		}
		if kind < 0 || int(kind) >= len(types.Typ) {
			d.fail("basic kind %d", kind)
			return invalidType
		}
		return types.Typ[kind]
	case typObj:
		obj := d.objRef()
		if obj == nil {
			return invalidType
		}
		return obj.Type()
	case typInstance:
		obj := d.objRef()
		targs := make([]types.Type, rd.Len(1))
		for i := range targs {
			targs[i] = d.typ()
		}
		if obj == nil || d.err != nil {
			return invalidType
		}
		inst, err := types.Instantiate(d.r.set.ctxt, obj.Type(), targs, false)
		if err != nil {
			d.fail("instantiating %s: %v", obj.Name(), err)
			return invalidType
		}
		d.r.set.instances = append(d.r.set.instances, inst)
		return inst
	case typParam:
		i := int(rd.Uint())
		if i >= len(d.scope) {
			d.fail("type parameter %d out of scope", i)
			return invalidType
		}
		return d.scope[len(d.scope)-1-i]
	case typPointer:
		return types.NewPointer(d.typ())
	case typSlice:
		return types.NewSlice(d.typ())
	case typArray:
		n := rd.Int()
		return types.NewArray(d.typ(), n)
	case typMap:
		k := d.typ()
		return types.NewMap(k, d.typ())
	case typChan:
		dir := types.ChanDir(rd.Uint())
		if dir != types.SendRecv && dir != types.SendOnly && dir != types.RecvOnly {
			d.fail("channel direction %d", dir)
			return invalidType
		}
		return types.NewChan(dir, d.typ())
	case typStruct:
		n := rd.Len(5)
		fields := make([]*types.Var, n)
		tags := make([]string, n)
		for i := range fields {
			name := d.str()
			pos := d.pos()
			pkg := d.pkg()
			embedded := rd.Bool()
			typ := d.typ()
			tags[i] = rd.String()
			fields[i] = types.NewField(pos, pkg, name, typ, embedded)
		}
		return types.NewStruct(fields, tags)
	case typSignature:
		params, results, variadic := d.signature()
		return types.NewSignatureType(nil, nil, nil, params, results, variadic)
	case typInterface:
		implicit := rd.Bool()
		methods := make([]*types.Func, rd.Len(4))
		for i := range methods {
			name := d.str()
			pos := d.pos()
			pkg := d.pkg()
			var recv *types.Var
			if rd.Bool() {
				if obj := d.objRef(); obj != nil {
					recv = types.NewParam(token.NoPos, pkg, "", obj.Type())
					recv.SetKind(types.RecvVar)
				}
			}
			params, results, variadic := d.signature()
			methods[i] = types.NewFunc(pos, pkg, name, types.NewSignatureType(recv, nil, nil, params, results, variadic))
		}
		embeddeds := make([]types.Type, rd.Len(1))
		for i := range embeddeds {
			embeddeds[i] = d.typ()
		}
		iface := types.NewInterfaceType(methods, embeddeds)
		if implicit {
			iface.MarkImplicit()
		}
		d.r.set.ifaces = append(d.r.set.ifaces, iface)
		return iface
	case typUnion:
		terms := make([]*types.Term, rd.Len(2))
		for i := range terms {
			tilde := rd.Bool()
			terms[i] = types.NewTerm(tilde, d.typ())
		}
		return types.NewUnion(terms)
	default:
		d.fail("unknown type tag %d", tag)
		return invalidType
	}
}

func (d *objDecoder) value() constant.Value {
	rd := d.rd
	switch tag := rd.Byte(); tag {
	case valBool:
		return constant.MakeBool(rd.Bool())
	case valString:
		return constant.MakeString(rd.String())
	case valComplex:
		re := d.number(rd.Byte())
		im := d.number(rd.Byte())
		return constant.BinaryOp(re, token.ADD, constant.MakeImag(im))
	default:
		return d.number(tag)
	}
}

func (d *objDecoder) number(tag byte) constant.Value {
	rd := d.rd
	switch tag {
	case valInt64:
		return constant.MakeInt64(rd.Int())
	case valBigInt:
		x, ok := new(big.Int).SetString(rd.String(), 10)
		if !ok {
			d.fail("bad integer constant")
			return constant.MakeUnknown()
		}
		return constant.Make(x)
	case valRat:
		num, ok1 := new(big.Int).SetString(rd.String(), 10)
		den, ok2 := new(big.Int).SetString(rd.String(), 10)
		if !ok1 || !ok2 || den.Sign() == 0 {
			d.fail("bad rational constant")
			return constant.MakeUnknown()
		}
		return constant.Make(new(big.Rat).SetFrac(num, den))
	case valFloat:
		x := new(big.Float)
		if err := x.GobDecode(rd.View()); err != nil {
			d.fail("bad float constant: %v", err)
			return constant.MakeUnknown()
		}
		return constant.Make(x)
	default:
		return constant.MakeUnknown()
	}
}

// maxValueDepth bounds how deeply types may contain each other by value.
const maxValueDepth = 200

// valueCycle reports a type that contains itself by value (through struct
// fields and array elements), which the type checker rejects in source but
// damaged export data could build; computing its size would not end.
func valueCycle(t types.Type, done, onStack map[types.Type]bool, depth int) error {
	if done[t] {
		return nil
	}
	if onStack[t] || depth > maxValueDepth {
		return fmt.Errorf("a type contains itself")
	}
	onStack[t] = true
	defer delete(onStack, t)
	switch u := t.(type) {
	case *types.Named:
		if u.Underlying() == nil {
			return nil
		}
		if err := valueCycle(u.Underlying(), done, onStack, depth+1); err != nil {
			return err
		}
	case *types.Alias:
		if err := valueCycle(types.Unalias(u), done, onStack, depth+1); err != nil {
			return err
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if err := valueCycle(u.Field(i).Type(), done, onStack, depth+1); err != nil {
				return err
			}
		}
	case *types.Array:
		if err := valueCycle(u.Elem(), done, onStack, depth+1); err != nil {
			return err
		}
	}
	done[t] = true
	return nil
}
