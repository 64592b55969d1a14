package resolve

import (
	"path"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/cargo"
)

// crateInfo is one crate of the load.
type crateInfo struct {
	target   *cargo.Target
	name     string // user_svc
	modPath  string // user_svc, bin:user_svc
	pkg      *cargo.Package
	root     *module
	test     bool // an integration test target: all of it is test code
	macros   map[string][]analyze.SymID
	exported map[string][]analyze.SymID // #[macro_export] macros, reachable as crate::name!
	externs  map[string]*crateInfo
}

// module is one module of a crate: a file module or an inline mod { }.
type module struct {
	path     string // user_svc::store::memory
	name     string
	crate    *crateInfo
	parent   *module
	children map[string]*module
	items    map[string][]analyze.SymID
	uses     map[string][]*useRef
	globs    []*useRef
	decl     analyze.SymID // the mod item that declares it; NoSym for crate roots
	dir      string        // where `mod x;` looks for x.rs and x/mod.rs
	files    []int
	cfgTest  bool
}

// useRef is a use declaration bound in a module, resolved on demand.
type useRef struct {
	u     UseDecl
	from  *module
	file  int
	state uint8 // 0 unresolved, 1 resolving, 2 done
	res   resolution
}

func newModule(c *crateInfo, parent *module, name string) *module {
	m := &module{name: name, crate: c, parent: parent, decl: analyze.NoSym,
		children: map[string]*module{}, items: map[string][]analyze.SymID{}, uses: map[string][]*useRef{}}
	if parent == nil {
		m.path = c.modPath
	} else {
		m.path = parent.path + "::" + name
		m.cfgTest = parent.cfgTest
	}
	return m
}

// child returns the submodule name, creating it.
func (m *module) child(name string) *module {
	if c, ok := m.children[name]; ok {
		return c
	}
	c := newModule(m.crate, m, name)
	m.children[name] = c
	return c
}

// modTask is a `mod x;` whose file is looked for once the declaring file
// is done, breadth first, so that claims are deterministic.
type modTask struct {
	mod       *module
	file      int
	line      int
	name      string
	cands     []string // candidate files, in order of preference
	dirs      []string // child directory for each candidate
	all       bool     // attach every existing candidate (#[path] under cfg_attr)
	lookedFor string
}

// buildTree attaches files to crates and modules: from every crate root
// through `mod` declarations, then the files no crate reached, by layout.
func (r *resolver) buildTree() {
	for _, c := range r.crates {
		r.attachCrate(c)
	}
	r.attachOrphans()
}

// attachCrate attaches the crate's root file and, breadth first, the files
// of its `mod x;` declarations.
func (r *resolver) attachCrate(c *crateInfo) {
	if c.target == nil || c.root != nil {
		return
	}
	fi, ok := r.fileIdx[c.target.Root]
	if !ok || r.files[fi].mod != nil {
		return
	}
	c.root = newModule(c, nil, "")
	c.root.dir = path.Dir(c.target.Root)
	r.drain(r.attach(c.root, fi, nil), true)
}

// drain attaches the files that queued mod declarations name, reporting
// declarations without a file when report is set.
func (r *resolver) drain(queue []modTask, report bool) {
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		found := false
		for i, cand := range t.cands {
			cfi, ok := r.fileIdx[cand]
			if !ok {
				continue
			}
			found = true
			if t.mod.dir == "" {
				t.mod.dir = t.dirs[i]
			}
			queue = r.attach(t.mod, cfi, queue)
			if !t.all {
				break
			}
		}
		if !found && report {
			r.problemf(analyze.ProblemLoad, r.files[t.file].path, t.line,
				"no file for `mod %s;` (looked for %s); its items are missing", t.name, t.lookedFor)
		}
	}
}

// attach makes file fi (part of) module m and queues its `mod x;` files.
func (r *resolver) attach(m *module, fi int, queue []modTask) []modTask {
	fd := r.files[fi]
	if fd.mod != nil {
		return queue
	}
	fd.mod = m
	fd.crate = m.crate
	m.files = append(m.files, fi)
	fd.inline = map[int32]*module{}
	for idx := range fd.syn.Items {
		it := &fd.syn.Items[idx]
		if it.Kind != analyze.KindModule {
			continue
		}
		parent := m
		if it.Mod >= 0 {
			if parent = fd.inline[it.Mod]; parent == nil {
				continue
			}
		}
		if it.Parent >= 0 && fd.syn.Items[it.Parent].Kind != analyze.KindModule {
			continue // a mod inside an impl or trait is not valid Rust
		}
		child := parent.child(it.Name)
		if child.decl == analyze.NoSym {
			child.decl = fd.base + analyze.SymID(idx)
		}
		child.cfgTest = child.cfgTest || it.CfgTest
		fd.inline[int32(idx)] = child
		if !it.External {
			if child.dir == "" {
				child.dir = path.Join(parent.dir, it.Name)
				if len(it.Paths) > 0 {
					// #[path] on an inline module names the directory of
					// its own `mod x;` declarations.
					base := parent.dir
					if it.Mod < 0 {
						base = path.Dir(fd.path)
					}
					if d := path.Join(base, it.Paths[0]); analyze.CleanRel(d) {
						child.dir = d
					}
				}
			}
			continue
		}
		t := modTask{mod: child, file: fi, line: it.Decl, name: it.Name}
		if len(it.Paths) > 0 {
			base := parent.dir
			if it.Mod < 0 {
				base = path.Dir(fd.path)
			}
			for _, p := range it.Paths {
				c := path.Join(base, p)
				if !analyze.CleanRel(c) {
					continue
				}
				t.cands = append(t.cands, c)
				t.dirs = append(t.dirs, path.Dir(c))
			}
			t.all = true
			t.lookedFor = strings.Join(t.cands, ", ")
		} else {
			a := path.Join(parent.dir, it.Name+".rs")
			b := path.Join(parent.dir, it.Name, "mod.rs")
			t.cands = []string{a, b}
			d := path.Join(parent.dir, it.Name)
			t.dirs = []string{d, d}
			t.lookedFor = a + " and " + b
		}
		queue = append(queue, t)
	}
	return queue
}

// attachOrphans gives every file no crate root reached a module by its
// place in the tree: src/a/b.rs of package p becomes p::a::b. Such files
// are marked Degraded: their module path is a guess (they are often
// declared inside a macro, or for another platform).
func (r *resolver) attachOrphans() {
	for fi, fd := range r.files {
		if fd.mod != nil {
			continue
		}
		c := r.crateForOrphan(fd.path)
		if c.root == nil {
			r.attachCrate(c)
			if fd.mod != nil {
				continue
			}
		}
		base := path.Dir(c.target.Root)
		rel := fd.path
		switch {
		case base == ".":
		case strings.HasPrefix(rel, base+"/"):
			rel = rel[len(base)+1:]
		case c.pkg.Dir != "." && strings.HasPrefix(rel, c.pkg.Dir+"/"):
			rel = rel[len(c.pkg.Dir)+1:]
		}
		segs := strings.Split(strings.TrimSuffix(rel, ".rs"), "/")
		if n := len(segs); n > 0 && segs[n-1] == "mod" {
			segs = segs[:n-1]
		}
		if c.root == nil {
			c.root = newModule(c, nil, "")
			c.root.dir = base
		}
		m := c.root
		dir := base
		for _, s := range segs {
			s = sanitizeIdent(s)
			if s == "" {
				continue
			}
			m = m.child(s)
			dir = path.Join(dir, s)
		}
		if m.dir == "" {
			m.dir = path.Dir(fd.path)
			if !strings.HasSuffix(fd.path, "/mod.rs") && m != c.root {
				m.dir = strings.TrimSuffix(fd.path, ".rs")
			}
		}
		fd.orphan = true
		r.drain(r.attach(m, fi, nil), false)
	}
}

// crateForOrphan picks the crate that owns a file no root reached: the
// library (else the first target) of the nearest package, else a pseudo
// crate for files outside any package.
func (r *resolver) crateForOrphan(p string) *crateInfo {
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		if cs := r.cratesByPkgDir[dir]; len(cs) > 0 {
			return cs[0]
		}
		if dir == "." || dir == "/" {
			break
		}
	}
	return r.pseudoCrate(p)
}

// pseudoCrate returns the crate of a file that no Cargo package owns. A
// file under some X/src/ belongs to a crate named X rooted at X/src/lib.rs
// (or main.rs); any other file to one named after the repository directory,
// rooted at lib.rs or main.rs (at the top or in src/).
func (r *resolver) pseudoCrate(p string) *crateInfo {
	dir, name := ".", r.rootName
	parts := strings.Split(path.Dir(p), "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] == "src" {
			dir = strings.Join(parts[:i], "/")
			if dir == "" {
				dir = "."
			} else {
				name = parts[i-1]
			}
			break
		}
	}
	if c := r.pseudos[dir]; c != nil {
		return c
	}
	name = sanitizeIdent(path.Base(name))
	if name == "" {
		name = "crate"
	}
	pk := &cargo.Package{Name: name, Dir: dir, Pseudo: true, Deps: map[string]string{}}
	t := &cargo.Target{Kind: cargo.Lib, Name: name, Root: path.Join(dir, "lib.rs"), Package: pk}
	for _, cand := range []string{"src/lib.rs", "lib.rs", "src/main.rs", "main.rs"} {
		if _, ok := r.fileIdx[path.Join(dir, cand)]; ok {
			t.Root = path.Join(dir, cand)
			break
		}
	}
	c := r.newCrate(t)
	r.pseudos[dir] = c
	return c
}

// modPath is the module path of a target's root, as File.Package shows
// it: the crate name for a library, "kind:name" for the other targets
// (bin:user_svc, test:service_test), since a package's binary and library
// usually share one name.
func modPath(t *cargo.Target) string {
	if t.Kind == cargo.Lib {
		return t.Name
	}
	return string(t.Kind) + ":" + t.Name
}

func (r *resolver) newCrate(t *cargo.Target) *crateInfo {
	c := &crateInfo{target: t, name: t.Name, modPath: modPath(t), pkg: t.Package, test: t.Kind == cargo.Test,
		macros: map[string][]analyze.SymID{}, exported: map[string][]analyze.SymID{}, externs: map[string]*crateInfo{}}
	r.crates = append(r.crates, c)
	r.cratesByPkgDir[t.Package.Dir] = append(r.cratesByPkgDir[t.Package.Dir], c)
	if t.Kind == cargo.Lib {
		if _, ok := r.libByName[t.Name]; !ok {
			r.libByName[t.Name] = c
		}
	}
	return c
}

// sanitizeIdent turns a file or directory name into a module name.
func sanitizeIdent(s string) string {
	var b strings.Builder
	if s != "" && '0' <= s[0] && s[0] <= '9' {
		b.WriteByte('_')
	}
	for _, r := range s {
		switch {
		case r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'):
			b.WriteRune(r)
		case r == '-' || r == '.' || r == ' ':
			b.WriteByte('_')
		}
	}
	return b.String()
}

// setupCrates creates the crates of the discovered packages in a stable
// order: packages by directory, then library, binaries, tests, examples,
// benches and build script.
func (r *resolver) setupCrates(pkgs map[string]*cargo.Package) {
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	r.pkgByName = map[string]*cargo.Package{}
	for _, d := range dirs {
		p := pkgs[d]
		if _, ok := r.pkgByName[p.Name]; !ok {
			r.pkgByName[p.Name] = p
		}
		for _, t := range p.Targets {
			r.newCrate(t)
		}
		if len(p.Targets) == 0 {
			// A package whose sources are all missing or ignored still owns
			// its directory for orphans.
			r.newCrate(&cargo.Target{Kind: cargo.Lib, Name: cargo.CrateName(p.Name), Root: path.Join(p.Dir, "src/lib.rs"), Package: p})
		}
	}
}
