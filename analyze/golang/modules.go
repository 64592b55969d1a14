package golang

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// module is a go.mod found at or under the root, or the one enclosing it.
type module struct {
	dir       string // absolute
	rel       string // relative to the root; "" for a module enclosing the root
	path      string // module path; "" when go.mod has none
	goVersion string
	parseErr  string
	vendored  bool // vendor/modules.txt is present
}

// layout is how the root's Go code divides into modules.
type layout struct {
	mods      []*module // at or under the root, by rel
	enclosing *module   // the module the root lies in, when it has no go.mod
	work      string    // the go.work in effect, or ""
	workUses  map[string]bool
}

// discoverLayout finds the modules that hold the listed files: every
// go.mod in a directory of a listed file or an ancestor of one, the module
// enclosing the root when the root has no go.mod, and the go.work in
// effect unless GOWORK=off.
func discoverLayout(root string, files []string, env []string) *layout {
	dirs := map[string]bool{".": true}
	for _, f := range files {
		for d := path.Dir(f); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	lay := &layout{}
	for _, d := range sorted {
		abs := filepath.Join(root, filepath.FromSlash(d))
		if m := readModule(abs); m != nil {
			m.rel = d
			lay.mods = append(lay.mods, m)
		}
	}
	if len(lay.mods) == 0 || lay.mods[0].rel != "." {
		for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
			if m := readModule(dir); m != nil {
				lay.enclosing = m
				break
			}
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	lay.work = findWork(root, env)
	if lay.work != "" {
		lay.workUses = readWorkUses(lay.work)
		if lay.workUses == nil {
			lay.work = ""
		}
	}
	return lay
}

// readModule reads dir/go.mod, or returns nil when there is none.
func readModule(dir string) *module {
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return nil
	}
	m := &module{dir: dir}
	f, err := modfile.ParseLax(gomod, data, nil)
	if err != nil {
		m.parseErr = err.Error()
	} else {
		if f.Module != nil {
			m.path = f.Module.Mod.Path
		}
		if f.Go != nil {
			m.goVersion = f.Go.Version
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil && st.Mode().IsRegular() {
		m.vendored = true
	}
	return m
}

// findWork returns the go.work file the go command would use from root.
func findWork(root string, env []string) string {
	if v, ok := envValue(env, "GOWORK"); ok && v != "" {
		if v == "off" {
			return ""
		}
		return v
	}
	for dir := root; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, "go.work")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
		if dir == filepath.Dir(dir) {
			return ""
		}
	}
}

// readWorkUses returns the absolute module directories a go.work uses.
func readWorkUses(work string) map[string]bool {
	data, err := os.ReadFile(work)
	if err != nil {
		return nil
	}
	wf, err := modfile.ParseWork(work, data, nil)
	if err != nil {
		return nil
	}
	uses := make(map[string]bool)
	for _, u := range wf.Use {
		p := filepath.FromSlash(u.Path)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(work), p)
		}
		uses[filepath.Clean(p)] = true
	}
	return uses
}

// unit is one go list invocation.
type unit struct {
	dir      string // where go list runs
	patterns []string
	env      []string
	mods     []*module // the modules it loads
	modfile  *module   // the module whose go.mod a -mod=mod retry may copy, or nil
}

// units plans the go list invocations: one for the workspace when a go.work
// applies, and one per module outside it (GOWORK=off), nested modules
// included; "./..." never crosses into a nested module.
func (lay *layout) units(root string, env []string) []*unit {
	var out []*unit
	var ws *unit
	if lay.work != "" {
		ws = &unit{dir: root, env: env}
	}
	offEnv := append(append([]string(nil), env...), "GOWORK=off")
	single := func(m *module, dir string) *unit {
		u := &unit{dir: dir, patterns: []string{"./..."}, env: offEnv, mods: []*module{m}}
		if dir == m.dir && m.parseErr == "" && !m.vendored {
			u.modfile = m
		}
		return u
	}
	if m := lay.enclosing; m != nil {
		if ws != nil && lay.workUses[m.dir] {
			ws.patterns = append(ws.patterns, "./...")
			ws.mods = append(ws.mods, m)
		} else {
			u := single(m, root)
			if lay.work == "" {
				u.env = env
			}
			out = append(out, u)
		}
	}
	for _, m := range lay.mods {
		if ws != nil && lay.workUses[m.dir] {
			pat := "./..."
			if m.rel != "." {
				pat = "./" + m.rel + "/..."
			}
			ws.patterns = append(ws.patterns, pat)
			ws.mods = append(ws.mods, m)
			continue
		}
		out = append(out, single(m, m.dir))
	}
	if ws != nil && len(ws.patterns) > 0 {
		out = append([]*unit{ws}, out...)
	}
	return out
}

// moduleOf returns the innermost module holding the repository-relative
// directory dir, or nil.
func (lay *layout) moduleOf(dir string) *module {
	var best *module
	bestLen := -1
	for _, m := range lay.mods {
		n := len(m.rel) + 1
		if m.rel == "." {
			n = 0
		} else if dir != m.rel && !strings.HasPrefix(dir, m.rel+"/") {
			continue
		}
		if n > bestLen {
			best, bestLen = m, n
		}
	}
	if best == nil {
		best = lay.enclosing
	}
	return best
}

// importPath is the import path of the package in the repository-relative
// directory dir under its module, or "" when no module holds it. rootRel is
// the root's path relative to an enclosing module.
func (lay *layout) importPath(dir, rootRel string) string {
	m := lay.moduleOf(dir)
	if m == nil || m.path == "" {
		return ""
	}
	var rel string
	if m.rel == "" {
		rel = path.Join(rootRel, dir)
	} else {
		rel, _ = strings.CutPrefix(dir, m.rel)
		rel = strings.TrimPrefix(rel, "/")
		if m.rel == "." {
			rel = dir
		}
	}
	if rel == "." {
		rel = ""
	}
	switch {
	case m.path == "std":
		return rel
	case rel == "":
		return m.path
	}
	return m.path + "/" + rel
}
