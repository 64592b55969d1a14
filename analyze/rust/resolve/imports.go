package resolve

import (
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// useImports records the imports a file's item-level use declarations and
// `mod x;` declarations make, and returns the symbols the uses name.
func (r *resolver) useImports(fi int, fd *fileData) []analyze.SymID {
	var named []analyze.SymID
	for _, u := range fd.syn.Uses {
		m := fd.mod
		if u.Mod >= 0 {
			if im := fd.inline[u.Mod]; im != nil {
				m = im
			}
		}
		res := r.resolveUsePath(&scope{mod: m}, u)
		named = append(named, res.syms...)
		r.importUse(fi, m, res, u)
	}
	for idx := range fd.syn.Items {
		it := &fd.syn.Items[idx]
		if it.Kind == analyze.KindModule && it.External {
			if m := fd.inline[int32(idx)]; m != nil && len(m.files) > 0 {
				r.importMod(fi, m.path, it.Decl)
			}
		}
	}
	return named
}

// importUse records the modules a use declaration reaches: where the
// imported items are declared, or for a path out of the repository the
// external module it names (std::collections for
// std::collections::HashMap).
func (r *resolver) importUse(fi int, from *module, res resolution, u UseDecl) {
	line := int(u.Line)
	if res.empty() {
		if len(u.Path) == 0 {
			return
		}
		switch u.Path[0] {
		case "crate", "$crate", "self", "super", "Self":
			return
		}
		if from != nil && from.items[u.Path[0]] != nil {
			return // a local item of an unresolvable kind
		}
		// The module of an external path: std::collections for
		// std::collections::HashMap; a lower-case last segment is taken for
		// a module (use std::fmt;).
		p := u.Path
		if !u.Glob && len(p) > 1 && !IsLower(p[len(p)-1]) {
			p = p[:len(p)-1]
		}
		r.importMod(fi, strings.Join(p, "::"), line)
		return
	}
	for _, m := range res.mods {
		r.importMod(fi, m.path, line)
	}
	for _, s := range res.syms {
		r.importSym(fi, s, line)
	}
}

// importSym records an import of the module that declares s.
func (r *resolver) importSym(fi int, s analyze.SymID, line int) {
	if m := r.symMod[s]; m != nil {
		r.importMod(fi, m.path, line)
	}
}

// importMod records an import of module path p by file fi, keeping the
// first line; a file's own module is not an import.
func (r *resolver) importMod(fi int, p string, line int) {
	fd := r.files[fi]
	if fd.mod != nil && fd.mod.path == p {
		return
	}
	imps := r.imports[fi]
	if old, ok := imps[p]; !ok || line < old {
		imps[p] = line
	}
}

// emitImports turns the gathered imports into facts.
func (r *resolver) emitImports() {
	for fi, imps := range r.imports {
		paths := make([]string, 0, len(imps))
		for p := range imps {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			r.facts.Imports = append(r.facts.Imports, analyze.Import{File: analyze.FileID(fi), Path: p, Line: imps[p]})
		}
	}
}
