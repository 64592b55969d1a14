package cargo

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

// manifest is the part of a Cargo.toml that discovery reads.
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

// Package is one Cargo package, or a pseudo package that the loader
// makes up for Rust files under no manifest.
type Package struct {
	Name     string            // as written in Cargo.toml: user-svc
	Dir      string            // repository-relative; "." for the root
	Deps     map[string]string // path dependency as code writes it (ws_core) → package name (ws-core)
	Targets  []*Target         // by kind (in Kind order), then root
	Pseudo   bool              // no Cargo.toml: crate roots and modules guessed from the layout
	Manifest string            // repository-relative path of its Cargo.toml; "" for a pseudo package
}

// CrateName turns a package or target name into the name code uses
// (user-svc → user_svc).
func CrateName(s string) string { return strings.ReplaceAll(s, "-", "_") }

// Discover finds the packages that own files: those of the manifest in
// root (an absolute directory) and its workspace members, then the
// package of the nearest manifest above each file. files are the
// repository-relative, slash-separated paths of the Rust files to load;
// only they can be target roots. The packages are keyed by directory; a
// file under no manifest has none. What could not be read is in problems.
func Discover(root string, files []string) (pkgs map[string]*Package, problems []analyze.Problem) {
	d := &discovery{root: root, files: make(map[string]bool, len(files))}
	for _, f := range files {
		d.files[f] = true
	}
	d.discover(files)
	return d.pkgs, d.problems
}

// discovery finds packages: the root manifest and its workspace members,
// then the nearest manifest above every listed file.
type discovery struct {
	root     string
	files    map[string]bool
	pkgs     map[string]*Package // by directory
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
	d.pkgs = map[string]*Package{}
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
			out[CrateName(key)] = name
		}
	}
	return out
}

// addPackage records the package in dir with its targets.
func (d *discovery) addPackage(dir string, m *manifest, wsDeps map[string]string) {
	if _, ok := d.pkgs[dir]; ok {
		return
	}
	p := &Package{Dir: dir, Deps: map[string]string{}, Manifest: path.Join(dir, "Cargo.toml")}
	if m.Package != nil {
		p.Name = m.Package.Name
	}
	if p.Name == "" {
		p.Name = path.Base(dir)
		if dir == "." {
			p.Name = path.Base(filepath.ToSlash(d.root))
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
				p.Deps[CrateName(key)] = name
			} else if w, ok := t["workspace"].(bool); ok && w {
				if n, ok := wsDeps[CrateName(key)]; ok {
					p.Deps[CrateName(key)] = n
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
