package typecache

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// kindsModule type-checks testdata/export/kinds.txtar from source: the
// packages in dependency order, the standard library from its source.
type kindsModule struct {
	root  string
	fset  *token.FileSet
	pkgs  map[string]*types.Package
	order []string // import paths, dependencies first
	files map[string][]*ast.File
}

const kindsPath = "example.com/kinds/"

func loadKinds(t testing.TB) *kindsModule {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/export/kinds.txtar")
	if err != nil {
		t.Fatal(err)
	}
	m := &kindsModule{root: t.TempDir(), fset: token.NewFileSet(), pkgs: map[string]*types.Package{},
		order: []string{kindsPath + "base", kindsPath + "use"}, files: map[string][]*ast.File{}}
	for _, f := range ar.Files {
		p := filepath.Join(m.root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	std := importer.ForCompiler(m.fset, "source", nil)
	for _, path := range m.order {
		dir := filepath.Join(m.root, strings.TrimPrefix(path, kindsPath))
		m.files[path] = parseDir(t, m.fset, dir)
		m.pkgs[path] = checkKinds(t, path, m.fset, m.files[path], func(p string) (*types.Package, error) {
			if d := m.pkgs[p]; d != nil {
				return d, nil
			}
			return std.Import(p)
		})
	}
	return m
}

func parseDir(t testing.TB, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	var out []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func checkKinds(t testing.TB, path string, fset *token.FileSet, files []*ast.File, imp func(string) (*types.Package, error)) *types.Package {
	t.Helper()
	conf := types.Config{Importer: importerFunc(imp), GoVersion: "go1.24"}
	pkg, err := conf.Check(path, fset, files, nil)
	if err != nil {
		t.Fatalf("checking %s: %v", path, err)
	}
	return pkg
}

// relName and absName map file names to the names stored and back.
func (m *kindsModule) relName(abs string) string {
	rel, err := filepath.Rel(m.root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

func (m *kindsModule) absName(rel string) string {
	return filepath.Join(m.root, filepath.FromSlash(rel))
}

// decodeKinds encodes every package of the module and decodes it again
// in a fresh file set, the standard library coming from a fresh source
// importer of that file set.
func (m *kindsModule) decodeKinds(t *testing.T) (*token.FileSet, map[string]*types.Package) {
	t.Helper()
	fset := token.NewFileSet()
	std := importer.ForCompiler(fset, "source", nil)
	set := NewImporter(fset, m.absName)
	readers := map[string]*Reader{}
	var resolve Resolver
	resolve = func(p string) (*types.Package, *Reader, bool) {
		if r := readers[p]; r != nil {
			return r.pkg, r, true
		}
		if p == "unsafe" {
			return types.Unsafe, nil, true
		}
		pkg, err := std.Import(p)
		if err != nil {
			return nil, nil, false
		}
		return pkg, nil, true
	}
	for _, path := range m.order {
		orig := m.pkgs[path]
		exp, err := Encode(orig, m.fset, m.relName, true)
		if err != nil {
			t.Fatalf("encoding %s: %v", path, err)
		}
		readers[path] = set.NewReader(types.NewPackage(path, orig.Name()), exp, resolve)
	}
	out := map[string]*types.Package{}
	set.Lock()
	defer set.Unlock()
	for _, path := range m.order {
		if err := readers[path].Complete(); err != nil {
			t.Fatalf("decoding %s: %v", path, err)
		}
		out[path] = readers[path].pkg
	}
	return fset, out
}

// TestExportRoundTrip checks every package-level object decoded from
// export data against the type checker's: kind, type, position, constant
// value, type parameters, fields, methods and method sets; and that a
// package checked against decoded imports is the one checked against
// checked imports.
func TestExportRoundTrip(t *testing.T) {
	m := loadKinds(t)
	fset, decoded := m.decodeKinds(t)
	for _, path := range m.order {
		t.Run(path, func(t *testing.T) {
			want := describePackage(m.pkgs[path], m.fset, m.root)
			got := describePackage(decoded[path], fset, m.root)
			if len(want) < 10 {
				t.Fatalf("only %d lines describe %s; the test module is not what it should be", len(want), path)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("decoded %s differs (-want +got):\n%s", path, diff)
			}
		})
	}
	t.Run("check against decoded", func(t *testing.T) {
		// use, checked from source against the decoded base.
		path := kindsPath + "use"
		std := importer.ForCompiler(fset, "source", nil)
		files := parseDir(t, fset, filepath.Join(m.root, "use"))
		pkg := checkKinds(t, path, fset, files, func(p string) (*types.Package, error) {
			if p == kindsPath+"base" {
				return decoded[p], nil
			}
			return std.Import(p)
		})
		if diff := cmp.Diff(describePackage(m.pkgs[path], m.fset, m.root), describePackage(pkg, fset, m.root)); diff != "" {
			t.Errorf("use checked against decoded base differs (-want +got):\n%s", diff)
		}
	})
}

// describePackage prints what the export data must keep of a package, one
// line per fact.
func describePackage(pkg *types.Package, fset *token.FileSet, root string) []string {
	qual := func(p *types.Package) string { return p.Path() }
	pos := func(p token.Pos) string {
		if !p.IsValid() {
			return "-"
		}
		ps := fset.PositionFor(p, false)
		name := strings.TrimPrefix(filepath.ToSlash(ps.Filename), filepath.ToSlash(root)+"/")
		return fmt.Sprintf("%s:%d:%d", name, ps.Line, ps.Column)
	}
	typ := func(t types.Type) string { return types.TypeString(t, qual) }
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	tparams := func(prefix string, l *types.TypeParamList) {
		for i := 0; i < l.Len(); i++ {
			tp := l.At(i)
			add("%s tparam %d %s %s at %s", prefix, i, tp.Obj().Name(), typ(tp.Constraint()), pos(tp.Obj().Pos()))
		}
	}
	methodSet := func(prefix string, t types.Type) {
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			s := ms.At(i)
			add("%s mset %s %s index=%v indirect=%v at %s", prefix, s.Obj().Name(), typ(s.Type()), s.Index(), s.Indirect(), pos(s.Obj().Pos()))
		}
	}
	add("package %s %s complete=%v", pkg.Path(), pkg.Name(), pkg.Complete())
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		p := name
		add("%s %T exported=%v type %s at %s", p, obj, obj.Exported(), typ(obj.Type()), pos(obj.Pos()))
		switch o := obj.(type) {
		case *types.Const:
			add("%s value %s %s", p, o.Val().Kind(), o.Val().ExactString())
		case *types.Func:
			sig := o.Type().(*types.Signature)
			tparams(p, sig.TypeParams())
		case *types.TypeName:
			add("%s alias=%v", p, o.IsAlias())
			switch t := o.Type().(type) {
			case *types.Alias:
				add("%s rhs %s", p, typ(t.Rhs()))
				tparams(p, t.TypeParams())
			case *types.Named:
				tparams(p, t.TypeParams())
				for i := 0; i < t.NumMethods(); i++ {
					mt := t.Method(i)
					sig := mt.Type().(*types.Signature)
					add("%s method %s %s recv %s %s at %s", p, mt.Name(), typ(sig), sig.Recv().Name(), typ(sig.Recv().Type()), pos(mt.Pos()))
					tparams(p+"."+mt.Name(), sig.RecvTypeParams())
				}
			}
			under := obj.Type().Underlying()
			add("%s underlying %s", p, typ(under))
			switch u := under.(type) {
			case *types.Struct:
				for i := 0; i < u.NumFields(); i++ {
					f := u.Field(i)
					add("%s field %s %s embedded=%v tag=%q pkg=%s at %s", p, f.Name(), typ(f.Type()), f.Embedded(), u.Tag(i), f.Pkg().Path(), pos(f.Pos()))
				}
			case *types.Interface:
				add("%s interface implicit=%v comparable=%v methodSet=%v", p, u.IsImplicit(), u.IsComparable(), u.IsMethodSet())
				for i := 0; i < u.NumMethods(); i++ {
					mt := u.Method(i)
					add("%s imethod %s %s at %s", p, mt.Name(), typ(mt.Type()), pos(mt.Pos()))
				}
				for i := 0; i < u.NumEmbeddeds(); i++ {
					add("%s iembed %s", p, typ(u.EmbeddedType(i)))
				}
			}
			if _, ok := obj.Type().(*types.Named); ok && !o.IsAlias() {
				methodSet(p, obj.Type())
				if _, iface := under.(*types.Interface); !iface {
					methodSet(p+"*", types.NewPointer(obj.Type()))
				}
			}
		}
	}
	return out
}

// FuzzDecodeExport checks that damaged export data (the index can hold
// anything) makes the decoder return an error, never panic.
func FuzzDecodeExport(f *testing.F) {
	m := loadKinds(f)
	base := m.pkgs[kindsPath+"base"]
	exp, err := Encode(base, m.fset, m.relName, false)
	if err != nil {
		f.Fatal(err)
	}
	data := exp.Data
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte{})
	f.Add([]byte{exportVersion, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		fset := token.NewFileSet()
		set := NewImporter(fset, m.absName)
		r := set.NewReader(types.NewPackage(base.Path(), base.Name()), NewExport(data, nil, nil), func(p string) (*types.Package, *Reader, bool) {
			if p == "unsafe" {
				return types.Unsafe, nil, true
			}
			return nil, nil, false
		})
		set.Lock()
		defer set.Unlock()
		if err := r.Complete(); err != nil {
			return
		}
		// What decodes can be used: its objects print and have method sets.
		describePackage(r.pkg, fset, m.root)
	})
}

// TestExportRefs: the export data's refs are the other packages its
// declarations name, and only those: use names base, io and strings
// (the types of its fields, embedded or not, and of its interface's
// embedded interfaces); base names nothing outside itself (unsafe.Pointer
// is a basic type). A package's surface covers its refs' surfaces, so a
// ref left out would let an importer reuse a stale check.
func TestExportRefs(t *testing.T) {
	m := loadKinds(t)
	for path, want := range map[string][]string{
		kindsPath + "base": nil,
		kindsPath + "use":  {kindsPath + "base", "io", "strings"},
	} {
		exp, err := Encode(m.pkgs[path], m.fset, m.relName, false)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, exp.Refs); diff != "" {
			t.Errorf("refs of %s (-want +got):\n%s", path, diff)
		}
	}
}
