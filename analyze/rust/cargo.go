package rust

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Target kinds, in the order their crates claim files.
const (
	kindLib     = "lib"
	kindBin     = "bin"
	kindTest    = "test"
	kindExample = "example"
	kindBench   = "bench"
	kindBuild   = "build"
)

var targetOrder = map[string]int{kindLib: 0, kindBin: 1, kindTest: 2, kindExample: 3, kindBench: 4, kindBuild: 5}

// manifest is the part of a Cargo.toml the loader reads.
type manifest struct {
	Package *struct {
		Name         string `toml:"name"`
		Build        any    `toml:"build"`
		Autobins     *bool  `toml:"autobins"`
		Autotests    *bool  `toml:"autotests"`
		Autoexamples *bool  `toml:"autoexamples"`
		Autobenches  *bool  `toml:"autobenches"`
	} `toml:"package"`
	Lib       *targetSpec   `toml:"lib"`
	Bin       []targetSpec  `toml:"bin"`
	Test      []targetSpec  `toml:"test"`
	Example   []targetSpec  `toml:"example"`
	Bench     []targetSpec  `toml:"bench"`
	Workspace *workspaceSec `toml:"workspace"`

	Dependencies      map[string]any `toml:"dependencies"`
	DevDependencies   map[string]any `toml:"dev-dependencies"`
	BuildDependencies map[string]any `toml:"build-dependencies"`
	Target            map[string]struct {
		Dependencies    map[string]any `toml:"dependencies"`
		DevDependencies map[string]any `toml:"dev-dependencies"`
	} `toml:"target"`
}

type targetSpec struct {
	Name string `toml:"name"`
	Path string `toml:"path"`
}

type workspaceSec struct {
	Members      []string       `toml:"members"`
	Exclude      []string       `toml:"exclude"`
	Dependencies map[string]any `toml:"dependencies"`
}

// pkgInfo is one Cargo package (or the pseudo package of a directory of
// Rust files without a manifest).
type pkgInfo struct {
	name     string            // as written in Cargo.toml: user-svc
	dir      string            // repository-relative; "." for the root
	deps     map[string]string // dependency name as code writes it (ws_core) → package name (ws-core)
	targets  []*targetInfo
	pseudo   bool // no Cargo.toml: crate roots and modules guessed from the layout
	wsDeps   map[string]string
	manifest string
}

// targetInfo is one crate: a library, binary, test, example, bench or
// build script.
type targetInfo struct {
	kind string
	name string // crate name: user_svc
	root string // repository-relative root file
	pkg  *pkgInfo
}

// modPath is the module path of the target's root, as File.Package shows
// it: the crate name for a library, "kind:name" for the other targets
// (bin:user_svc, test:service_test), since a package's binary and library
// usually share one name.
func (t *targetInfo) modPath() string {
	if t.kind == kindLib {
		return t.name
	}
	return t.kind + ":" + t.name
}

// crateName turns a package or target name into the name code uses.
func crateName(s string) string { return strings.ReplaceAll(s, "-", "_") }

// discovery finds packages: the root manifest and its workspace members,
// then the nearest manifest above every listed file.
type discovery struct {
	root     string
	files    map[string]bool
	pkgs     map[string]*pkgInfo // by directory
	noPkg    map[string]bool     // directories known to have no package manifest
	problems []analyze.Problem
}

func (d *discovery) problemf(kind analyze.ProblemKind, p string, format string, args ...any) {
	d.problems = append(d.problems, analyze.Problem{Kind: kind, Path: p, Msg: fmt.Sprintf(format, args...)})
}

// readManifest parses dir/Cargo.toml; ok is false when there is none.
func (d *discovery) readManifest(dir string) (*manifest, bool) {
	rel := path.Join(dir, "Cargo.toml")
	data, err := analyze.ReadSource(d.root, rel, 1<<20)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			d.problemf(analyze.ProblemLoad, rel, "unreadable manifest: %v", err)
		}
		return nil, false
	}
	var m manifest
	if _, err := toml.Decode(string(data), &m); err != nil {
		d.problemf(analyze.ProblemLoad, rel, "invalid manifest, its package is loaded from the layout alone: %v", err)
		return &manifest{}, true
	}
	return &m, true
}

// discover loads the root manifest, its workspace members and the package
// that owns each file.
func (d *discovery) discover(files []string) {
	d.pkgs = map[string]*pkgInfo{}
	d.noPkg = map[string]bool{}
	var wsDeps map[string]string
	if m, ok := d.readManifest("."); ok && m.Workspace != nil {
		wsDeps = pathDeps(".", m.Workspace.Dependencies)
		for _, dir := range d.members(m.Workspace) {
			mm, ok := d.readManifest(dir)
			if !ok {
				d.problemf(analyze.ProblemLoad, dir, "workspace member has no Cargo.toml; its files are loaded without crate information")
				continue
			}
			d.addPackage(dir, mm, wsDeps)
		}
	}
	for _, f := range files {
		for dir := path.Dir(f); ; dir = path.Dir(dir) {
			if _, ok := d.pkgs[dir]; ok {
				break
			}
			if !d.noPkg[dir] {
				if m, ok := d.readManifest(dir); ok && m.Package != nil {
					d.addPackage(dir, m, wsDeps)
					break
				}
				d.noPkg[dir] = true
			}
			if dir == "." {
				break
			}
		}
	}
}

// members expands the workspace member globs, minus the excluded ones.
func (d *discovery) members(ws *workspaceSec) []string {
	excluded := map[string]bool{}
	for _, e := range ws.Exclude {
		excluded[path.Clean(e)] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, pat := range ws.Members {
		pat = path.Clean(pat)
		if !analyze.CleanRel(pat) {
			d.problemf(analyze.ProblemLoad, "Cargo.toml", "workspace member %q leaves the repository; skipped", pat)
			continue
		}
		if !strings.ContainsAny(pat, "*?[") {
			if !excluded[pat] && !seen[pat] {
				seen[pat] = true
				out = append(out, pat)
			}
			continue
		}
		matches, err := filepath.Glob(filepath.Join(d.root, filepath.FromSlash(pat)))
		if err != nil {
			d.problemf(analyze.ProblemLoad, "Cargo.toml", "workspace member pattern %q: %v", pat, err)
			continue
		}
		for _, m := range matches {
			rel, err := filepath.Rel(d.root, m)
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(rel)
			if st, err := os.Stat(m); err != nil || !st.IsDir() || excluded[rel] || seen[rel] {
				continue
			}
			if _, err := os.Stat(filepath.Join(m, "Cargo.toml")); err != nil {
				d.problemf(analyze.ProblemLoad, rel, "workspace member (from %q) has no Cargo.toml; its files are loaded without crate information", pat)
				continue
			}
			seen[rel] = true
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out
}

// pathDeps returns the dependencies given by path, as code names them.
func pathDeps(dir string, deps map[string]any) map[string]string {
	out := map[string]string{}
	for key, v := range deps {
		t, ok := v.(map[string]any)
		if !ok {
			continue
		}
		name := key
		if p, ok := t["package"].(string); ok {
			name = p
		}
		if _, ok := t["path"].(string); ok {
			out[crateName(key)] = name
		}
	}
	return out
}

// addPackage records the package in dir with its targets.
func (d *discovery) addPackage(dir string, m *manifest, wsDeps map[string]string) {
	if _, ok := d.pkgs[dir]; ok {
		return
	}
	p := &pkgInfo{dir: dir, deps: map[string]string{}, manifest: path.Join(dir, "Cargo.toml")}
	if m.Package != nil {
		p.name = m.Package.Name
	}
	if p.name == "" {
		p.name = path.Base(dir)
		if dir == "." {
			p.name = path.Base(filepath.ToSlash(d.root))
		}
	}
	addDeps := func(deps map[string]any) {
		for key, v := range deps {
			t, ok := v.(map[string]any)
			if !ok {
				continue
			}
			name := key
			if pk, ok := t["package"].(string); ok {
				name = pk
			}
			if _, ok := t["path"].(string); ok {
				p.deps[crateName(key)] = name
			} else if w, ok := t["workspace"].(bool); ok && w {
				if n, ok := wsDeps[crateName(key)]; ok {
					p.deps[crateName(key)] = n
				}
			}
		}
	}
	addDeps(m.Dependencies)
	addDeps(m.DevDependencies)
	addDeps(m.BuildDependencies)
	for _, t := range m.Target {
		addDeps(t.Dependencies)
		addDeps(t.DevDependencies)
	}
	d.targets(p, m)
	d.pkgs[dir] = p
}

func (d *discovery) has(p string) bool { return d.files[p] }

// targets lists the package's crates as Cargo would: declared [lib],
// [[bin]], [[test]], [[example]] and [[bench]] sections plus the
// automatically discovered src/lib.rs, src/main.rs, src/bin/*, tests/*,
// examples/*, benches/* and build.rs.
func (d *discovery) targets(p *pkgInfo, m *manifest) {
	j := func(rel string) string { return path.Join(p.dir, rel) }
	seen := map[string]bool{}
	add := func(kind, name, root string) {
		root = path.Clean(root)
		if seen[root] || !d.has(root) {
			return
		}
		seen[root] = true
		p.targets = append(p.targets, &targetInfo{kind: kind, name: crateName(name), root: root, pkg: p})
	}
	libName := p.name
	libPath := j("src/lib.rs")
	if m.Lib != nil {
		if m.Lib.Name != "" {
			libName = m.Lib.Name
		}
		if m.Lib.Path != "" {
			libPath = j(m.Lib.Path)
		}
	}
	add(kindLib, libName, libPath)
	auto := func(flag *bool) bool { return flag == nil || *flag }
	var autobins, autotests, autoexamples, autobenches = true, true, true, true
	if m.Package != nil {
		autobins, autotests = auto(m.Package.Autobins), auto(m.Package.Autotests)
		autoexamples, autobenches = auto(m.Package.Autoexamples), auto(m.Package.Autobenches)
	}
	declared := func(kind string, specs []targetSpec, dir string) {
		for _, s := range specs {
			root := s.Path
			switch {
			case root != "":
				root = j(root)
			case kind == kindBin && s.Name == p.name:
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
	declared(kindBin, m.Bin, "src/bin")
	declared(kindTest, m.Test, "tests")
	declared(kindExample, m.Example, "examples")
	declared(kindBench, m.Bench, "benches")
	if autobins {
		add(kindBin, p.name, j("src/main.rs"))
		d.autoTargets(p, kindBin, j("src/bin"), add)
	}
	if autotests {
		d.autoTargets(p, kindTest, j("tests"), add)
	}
	if autoexamples {
		d.autoTargets(p, kindExample, j("examples"), add)
	}
	if autobenches {
		d.autoTargets(p, kindBench, j("benches"), add)
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
		add(kindBuild, "build_script_build", build)
	}
	sort.SliceStable(p.targets, func(a, b int) bool {
		x, y := p.targets[a], p.targets[b]
		if targetOrder[x.kind] != targetOrder[y.kind] {
			return targetOrder[x.kind] < targetOrder[y.kind]
		}
		return x.root < y.root
	})
}

// autoTargets adds dir/*.rs and dir/*/main.rs as targets of kind.
func (d *discovery) autoTargets(p *pkgInfo, kind, dir string, add func(kind, name, root string)) {
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
