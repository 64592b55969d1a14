package typecache

import (
	"testing"

	"github.com/ctxexpand/ctxexpand/index"
)

// TestKeysFollowTheirInputs changes one input at a time and checks which
// keys change: each key must change with what its record depends on, and
// only with that (a key that changes with more loses reuse; one that
// changes with less reuses a record that no longer holds).
func TestKeysFollowTheirInputs(t *testing.T) {
	type inputs struct {
		salt    string
		pkg     Pkg
		files   []File
		imports []Import
		refs    []Import
		exp     Export
	}
	base := func() inputs {
		return inputs{
			salt: "salt",
			pkg:  Pkg{Path: "example.com/m/p", Name: "p", GoVersion: "go1.22", Repo: true},
			files: []File{
				{Name: "/gomod/dep/x.go"},
				{Name: "p/a.go", Under: true, Extracted: true, Hash: "aaaa"},
				{Name: "p/b.go", Under: true, Extracted: false, Hash: "bbbb"},
			},
			imports: []Import{{Path: "fmt", Key: index.NewHasher("t").String("fmt").Sum()}, {Path: "gone", Missing: true}},
			refs:    []Import{{Path: "example.com/m/q", Key: index.NewHasher("t").String("q").Sum()}},
			exp:     Export{Hash: []byte("h"), Shape: []byte("shape"), Refs: []string{"example.com/m/q"}, Data: []byte("data")},
		}
	}
	type keys struct{ content, export, result, surface index.Key }
	keysOf := func(in inputs) keys {
		imp := ImportsKey(in.imports)
		content := ContentKey(in.salt, in.pkg, in.files, in.imports)
		return keys{
			content: content,
			export:  ExportKey(in.salt, in.pkg, in.files, imp),
			result:  ResultKey(in.salt, in.pkg, in.files, imp),
			surface: SurfaceKey(in.exp, in.refs, content, imp),
		}
	}
	want := keysOf(base())
	if want != keysOf(base()) {
		t.Fatal("keys of equal inputs differ")
	}
	// Each case says which keys the edit must change (the others must not).
	cases := []struct {
		name                             string
		edit                             func(*inputs)
		content, export, result, surface bool
	}{
		// The surface of a package with export data is its shape and the
		// surfaces of the packages the data names: its own files count
		// only through the shape, its imports only as refs.
		{"salt", func(in *inputs) { in.salt = "other" }, true, true, true, false},
		{"file content", func(in *inputs) { in.files[1].Hash = "cccc" }, true, true, true, false},
		{"which file is extracted", func(in *inputs) { in.files[2].Extracted = true }, true, false, true, false},
		{"a file outside the root", func(in *inputs) { in.files[0].Name = "/gomod/dep/y.go" }, true, true, true, false},
		{"language version", func(in *inputs) { in.pkg.GoVersion = "go1.23" }, true, true, true, false},
		{"under the root or not", func(in *inputs) { in.pkg.Repo = false }, true, false, true, false},
		{"an import's surface", func(in *inputs) { in.imports[0].Key = index.Key{1} }, true, true, true, false},
		{"an import missing", func(in *inputs) { in.imports[0].Missing = true }, true, true, true, false},
		{"a ref's surface", func(in *inputs) { in.refs[0].Key = index.Key{1} }, false, false, false, true},
		{"a ref unresolved", func(in *inputs) { in.refs[0].Missing = true }, false, false, false, true},
		// The surface follows the shape, never the data (which holds lines
		// and columns) ...
		{"data, same shape", func(in *inputs) { in.exp.Data, in.exp.Hash = []byte("moved"), []byte("h2") }, false, false, false, false},
		{"shape", func(in *inputs) { in.exp.Shape = []byte("other") }, false, false, false, true},
		// ... and a package without export data stands by its content.
		{"unexportable", func(in *inputs) { in.exp = Export{Unexportable: true} }, false, false, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := base()
			c.edit(&in)
			got := keysOf(in)
			for _, k := range []struct {
				name         string
				before, now  index.Key
				shouldChange bool
			}{
				{"content", want.content, got.content, c.content},
				{"export", want.export, got.export, c.export},
				{"result", want.result, got.result, c.result},
				{"surface", want.surface, got.surface, c.surface},
			} {
				if changed := k.before != k.now; changed != k.shouldChange {
					t.Errorf("%s key changed=%v, want %v", k.name, changed, k.shouldChange)
				}
			}
		})
	}
	// A package without export data has the surface of its content and
	// its imports: a change of either then changes it, and its refs
	// (it has none) do not count.
	un := base()
	un.exp = Export{Unexportable: true}
	before := keysOf(un).surface
	un.files[1].Hash = "dddd"
	if keysOf(un).surface == before {
		t.Error("the surface of a package without export data ignored its content")
	}
	un = base()
	un.exp = Export{Unexportable: true}
	un.imports[0].Key = index.Key{1}
	if keysOf(un).surface == before {
		t.Error("the surface of a package without export data ignored its imports")
	}
	// A ref the loader could not resolve makes the surface follow every
	// import, as before refs were kept.
	lost := base()
	lost.refs[0].Missing = true
	before = keysOf(lost).surface
	lost.imports[0].Key = index.Key{1}
	if keysOf(lost).surface == before {
		t.Error("with a ref unresolved, the surface ignored its imports' surfaces")
	}
}

// TestListKeyIgnoresProcessEnvironment: variables the go command does
// not read leave the key as it was; those it reads change it.
func TestListKeyIgnoresProcessEnvironment(t *testing.T) {
	key := func(env ...string) index.Key {
		return ListKey("salt", "fingerprint", "/r", false, []string{"./..."}, env, nil)
	}
	base := key("PATH=/bin", "GOFLAGS=-tags=x")
	if key("PATH=/bin", "GOFLAGS=-tags=x", "TERM=xterm", "GOGC=50", "PWD=/elsewhere") != base {
		t.Error("variables the go command does not read changed the key")
	}
	for _, env := range [][]string{{"PATH=/usr/bin", "GOFLAGS=-tags=x"}, {"PATH=/bin", "GOFLAGS=-tags=y"}, {"PATH=/bin", "GOFLAGS=-tags=x", "CGO_CFLAGS=-O0"}} {
		if key(env...) == base {
			t.Errorf("%v left the key as it was", env)
		}
	}
	if ListKey("salt", "fingerprint", "/r", false, []string{"./..."}, nil, map[string][]byte{"/r/p.go": []byte("package p")}) ==
		ListKey("salt", "fingerprint", "/r", false, []string{"./..."}, nil, nil) {
		t.Error("an overlay left the key as it was")
	}
}
