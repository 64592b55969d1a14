package cargo

import (
	"path"
	"sort"
	"strings"
)

// Kind is the kind of a target; its value is a short lowercase name:
// lib, bin, test, example, bench, build.
type Kind string

// Target kinds, in the order their crates claim files.
const (
	Lib         Kind = "lib"
	Bin         Kind = "bin"
	Test        Kind = "test"
	Example     Kind = "example"
	Bench       Kind = "bench"
	BuildScript Kind = "build"
)

var targetOrder = map[Kind]int{Lib: 0, Bin: 1, Test: 2, Example: 3, Bench: 4, BuildScript: 5}

// Target is one crate of a package: a library, binary, test, example,
// bench or build script.
type Target struct {
	Kind    Kind
	Name    string // crate name: user_svc
	Root    string // repository-relative root file
	Package *Package
}

func (d *discovery) has(p string) bool { return d.files[p] }

// targets lists the package's crates as Cargo would: declared [lib],
// [[bin]], [[test]], [[example]] and [[bench]] sections plus the
// automatically discovered src/lib.rs, src/main.rs, src/bin/*, tests/*,
// examples/*, benches/* and build.rs.
func (d *discovery) targets(p *Package, m *manifest) {
	j := func(rel string) string { return path.Join(p.Dir, rel) }
	seen := map[string]bool{}
	add := func(kind Kind, name, root string) {
		root = path.Clean(root)
		if seen[root] || !d.has(root) {
			return
		}
		seen[root] = true
		p.Targets = append(p.Targets, &Target{Kind: kind, Name: CrateName(name), Root: root, Package: p})
	}
	libName := p.Name
	libPath := j("src/lib.rs")
	if m.Lib != nil {
		if m.Lib.Name != "" {
			libName = m.Lib.Name
		}
		if m.Lib.Path != "" {
			libPath = j(m.Lib.Path)
		}
	}
	add(Lib, libName, libPath)
	auto := func(flag *bool) bool { return flag == nil || *flag }
	var autobins, autotests, autoexamples, autobenches = true, true, true, true
	if m.Package != nil {
		autobins, autotests = auto(m.Package.Autobins), auto(m.Package.Autotests)
		autoexamples, autobenches = auto(m.Package.Autoexamples), auto(m.Package.Autobenches)
	}
	declared := func(kind Kind, specs []targetSpec, dir string) {
		for _, s := range specs {
			root := s.Path
			switch {
			case root != "":
				root = j(root)
			case kind == Bin && s.Name == p.Name:
				root = j("src/main.rs")
			default:
				root = j(path.Join(dir, s.Name+".rs"))
				if !d.has(root) {
					root = j(path.Join(dir, s.Name, "main.rs"))
				}
			}
			name := s.Name
			if name == "" {
				name = strings.TrimSuffix(path.Base(root), ".rs")
			}
			add(kind, name, root)
		}
	}
	declared(Bin, m.Bin, "src/bin")
	declared(Test, m.Test, "tests")
	declared(Example, m.Example, "examples")
	declared(Bench, m.Bench, "benches")
	if autobins {
		add(Bin, p.Name, j("src/main.rs"))
		d.autoTargets(p, Bin, j("src/bin"), add)
	}
	if autotests {
		d.autoTargets(p, Test, j("tests"), add)
	}
	if autoexamples {
		d.autoTargets(p, Example, j("examples"), add)
	}
	if autobenches {
		d.autoTargets(p, Bench, j("benches"), add)
	}
	build := j("build.rs")
	if m.Package != nil {
		if s, ok := m.Package.Build.(string); ok {
			build = j(s)
		} else if b, ok := m.Package.Build.(bool); ok && !b {
			build = ""
		}
	}
	if build != "" {
		add(BuildScript, "build_script_build", build)
	}
	sort.SliceStable(p.Targets, func(a, b int) bool {
		x, y := p.Targets[a], p.Targets[b]
		if targetOrder[x.Kind] != targetOrder[y.Kind] {
			return targetOrder[x.Kind] < targetOrder[y.Kind]
		}
		return x.Root < y.Root
	})
}

// autoTargets adds dir/*.rs and dir/*/main.rs as targets of kind.
func (d *discovery) autoTargets(p *Package, kind Kind, dir string, add func(kind Kind, name, root string)) {
	prefix := dir + "/"
	var roots []string
	for f := range d.files {
		if !strings.HasPrefix(f, prefix) {
			continue
		}
		rest := f[len(prefix):]
		switch parts := strings.Split(rest, "/"); {
		case len(parts) == 1 && strings.HasSuffix(rest, ".rs"):
			roots = append(roots, f)
		case len(parts) == 2 && parts[1] == "main.rs":
			roots = append(roots, f)
		}
	}
	sort.Strings(roots)
	for _, r := range roots {
		name := strings.TrimSuffix(path.Base(r), ".rs")
		if name == "main" {
			name = path.Base(path.Dir(r))
		}
		add(kind, name, r)
	}
}
