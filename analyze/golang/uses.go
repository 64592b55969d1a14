package golang

import (
	"bytes"
	"go/ast"
	"go/types"
	"sort"
	"strconv"

	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
	"github.com/ctxexpand/ctxexpand/index"
)

// Keys that follow what a package uses of other packages (package
// typecache says why they hold).
//
// A repository package's check leaves the objects it could see of other
// packages (usesOf) under its ID, with the keys its records then went
// under. A load looks a package's records up under its imports' whole
// surfaces first, as without uses; only when that misses (a declaration
// the package can see changed) does it read the uses (tryUses) and look
// the records up under the sums of those objects (usedImportsKey). If
// the package used none of what changed, that finds them: an alias sends
// the result's lookup to its record, and the alias and the export record
// are put under the new surfaces' key, for the next load. A function
// added to a package used across the repository thus checks that
// package again and none of the packages above it.
//
// A package whose uses are unknown (extracted only in its changed files
// with no record covering the others, or stopped by a panic) or that
// imports nothing has its records under its imports' surfaces alone.
// Loads that never miss never read the uses records, so they retain them
// (retainUses) for the load that will.

// usesKeySeen is told every uses record's key; tests count those
// records apart from results and export records.
var usesKeySeen = func(index.Key) {}

// usesRecordKey is the key of the node's uses record.
func (l *loader) usesRecordKey(n *node) index.Key {
	k := typecache.UsesRecordKey(l.cacheSalt(), n.pkg.ID)
	usesKeySeen(k)
	return k
}

// tryUses reads, once a visit, the uses of a repository package whose
// record was not found under its imports' whole surfaces, and reports
// whether it has some: its keys then follow them.
func (l *loader) tryUses(n *node) bool {
	if !n.inRepo {
		return false
	}
	if !n.usesLooked {
		n.usesLooked = true
		l.lookupUses(n)
	}
	return n.uses != nil
}

// lookupUses reads the node's uses record, if any, into n.uses. A
// package that imports nothing has none.
func (l *loader) lookupUses(n *node) {
	l.setUses(n, nil)
	if len(n.imports) == 0 {
		return
	}
	data, ok := l.opt.Cache.Get(l.usesRecordKey(n))
	if !ok {
		return
	}
	n.usesRaw = data
	if u, err := l.opt.Results.decodeUses(n.pkg.ID, data); err == nil {
		l.setUses(n, u)
	}
}

// setUses makes u the node's uses, and its keys follow.
func (l *loader) setUses(n *node, u *typecache.Uses) {
	n.uses, n.uimpDone, n.ekeyDone = u, false, false
}

// usedImportsKey hashes the node's imports as it uses them
// (typecache.UsedImportsKey), or with their whole surfaces when a package
// it used cannot be found.
func (l *loader) usedImportsKey(n *node) index.Key {
	imports := l.importKeys(n, func(d *node) index.Key { return typecache.NameKey(d.pkg.Name) })
	paths := make([]string, 0, len(n.uses.Names)+len(n.uses.All))
	for p := range n.uses.Names {
		paths = append(paths, p)
	}
	for p := range n.uses.All {
		if _, ok := n.uses.Names[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	used := make([]typecache.Import, len(paths))
	for i, p := range paths {
		x := l.seenFrom(n, p)
		if x == nil || x == n || len(x.goFiles) == 0 {
			return l.surfacesKey(n)
		}
		used[i].Path = p
		if n.uses.All[p] || !x.exp.HasObjects() {
			used[i].Key = x.surf
		} else {
			used[i].Key = l.opt.Results.objectsKey(n.pkg.ID, n.uses, p, x)
		}
	}
	return typecache.UsedImportsKey(imports, used)
}

// coverFiles completes the uses a check found with the files they cover.
// A full check, or one of declarations alone, covers every file. A
// partial check (tryPartial) read the bodies of the changed files only:
// its uses are completed by those of the last record when that covered
// each unchanged file as it is now, and are unknown otherwise.
//
// The record's names hold for the unchanged files as they are when the
// imports' surfaces are what they were when the record was written
// (Uses.Imports): every declaration the names reach is then as it was.
func (l *loader) coverFiles(n *node, u *typecache.Uses) bool {
	now := map[string]string{}
	for _, f := range l.keyFiles(n) {
		if f.Under {
			now[f.Name] = f.Hash
		}
	}
	u.Files, u.Imports = now, l.surfacesKey(n)
	if n.partial == nil {
		return true
	}
	old := n.uses
	if old == nil || old.Imports != u.Imports {
		return false // no record, or one whose names were found among other types
	}
	for abs, rel := range n.assigned {
		if !n.partial.only[abs] && (old.Files[rel] == "" || old.Files[rel] != now[rel]) {
			return false // a body the check left out, which the record does not cover
		}
	}
	for p, names := range old.Names {
		if u.All[p] {
			continue
		}
		set := map[string]bool{}
		for _, name := range u.Names[p] {
			set[name] = true
		}
		for _, name := range names {
			set[name] = true
		}
		u.Names[p] = sortedKeys(set)
	}
	for p := range old.All {
		u.All[p] = true
		delete(u.Names, p)
	}
	return true
}

// retainUses keeps, for a later load, the records a repository package's
// uses key: its uses record, and the result and export record it names.
// A load that finds a package's records under its imports' surfaces
// never reads those, and a pack keeps only the records its last load
// read (index.Pack): without this, the uses would be gone by the time a
// declaration below the package changed. A cache that cannot retain a
// record without reading it keeps none.
func (l *loader) retainUses(n *node) {
	if !n.inRepo || len(n.imports) == 0 {
		return
	}
	r, ok := l.opt.Cache.(interface{ Retain(index.Key) })
	if !ok {
		return
	}
	raw := n.usesRaw
	if !n.usesLooked {
		raw, _ = l.opt.Cache.Get(l.usesRecordKey(n)) // which keeps it, as a read does
	}
	rk, ek, ok := typecache.UsesRecordKeys(raw)
	if !ok {
		return
	}
	if rk != (index.Key{}) {
		r.Retain(rk)
	}
	r.Retain(ek)
}

// afterCheck settles, once the node is checked, which keys its records
// go under: those of the uses its check found (recording them when they
// changed), else, when the check does not tell, those of its imports'
// whole surfaces. It reports whether the export key moved.
func (l *loader) afterCheck(n *node, repo map[string]bool) (moved bool) {
	before := l.exportKey(n)
	u, ok := l.usesOf(n, repo)
	if ok {
		ok = l.coverFiles(n, &u)
	}
	if !ok {
		l.setUses(n, nil)
	} else {
		l.setUses(n, &u)
		if n.full {
			u.Result = l.resultKey(n, repo)
		}
		u.Export = l.exportKey(n)
		if rec := typecache.EncodeUses(u); !bytes.Equal(rec, n.usesRaw) {
			l.put(typecache.Record{Key: l.usesRecordKey(n), Data: rec})
			n.usesRaw = rec
		}
	}
	if n.full {
		// The result is stored under the imports' whole surfaces, where
		// the next load looks first, and found under its uses through
		// an alias (cache.go).
		n.rkey = l.plainResultKey(n, repo)
	}
	return l.exportKey(n) != before
}

// usesOf works out what a package's check could see of other packages:
// the package-level objects its identifiers name (or, when a name is
// undefined, would name), and the named types and aliases their types
// reach, with every name of a package of another module or of a dot
// import. A check of declarations alone gives what they use, which is
// all its export data depends on; a partial check, what its changed
// files and the declarations use (afterCheck adds the rest). It reports
// false when the check does not tell (stopped by a panic).
func (l *loader) usesOf(n *node, repo map[string]bool) (typecache.Uses, bool) {
	if !n.checked || n.info == nil || len(n.imports) == 0 {
		return typecache.Uses{}, false
	}
	u := typecache.Uses{Names: map[string][]string{}, All: map[string]bool{}}
	w := usesWalker{own: n.pkg.PkgPath, repo: repo, all: u.All, names: map[string]map[string]bool{}, seen: map[types.Type]bool{}}
	for _, obj := range n.info.Uses {
		w.object(obj)
	}
	for _, pf := range n.files {
		if pf.ast == nil {
			continue
		}
		for _, im := range pf.ast.Imports {
			if im.Name != nil && im.Name.Name == "." {
				if p, err := strconv.Unquote(im.Path.Value); err == nil {
					u.All[p] = true
				}
			}
		}
		// A qualified name counts even when the package lacks it (a
		// type error, which its declaring it would mend); the names it
		// has are walked above, from their objects.
		if !n.hardErr {
			continue
		}
		ast.Inspect(pf.ast, func(x ast.Node) bool {
			sel, ok := x.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok {
				if pn, ok := n.info.Uses[id].(*types.PkgName); ok {
					w.name(pn.Imported().Path(), sel.Sel.Name)
				}
			}
			return true
		})
	}
	for p, set := range w.names {
		if !u.All[p] {
			u.Names[p] = sortedKeys(set)
		}
	}
	return u, true
}

// usesWalker collects the package-level objects of other packages that
// a package's uses reach.
type usesWalker struct {
	own   string          // the package's path
	repo  map[string]bool // the repository's packages, walked into
	all   map[string]bool // packages that count whole
	names map[string]map[string]bool
	seen  map[types.Type]bool
}

// name records the name of a package-level object of another package,
// reporting whether it was new and is to be walked.
func (w *usesWalker) name(path, name string) bool {
	if path == w.own || path == "unsafe" {
		return false
	}
	if !w.repo[path] {
		w.all[path] = true
		return false
	}
	set := w.names[path]
	if set == nil {
		set = map[string]bool{}
		w.names[path] = set
	}
	if set[name] {
		return false
	}
	set[name] = true
	return true
}

// add records a package-level object, as name does.
func (w *usesWalker) add(obj types.Object) bool {
	p := obj.Pkg()
	if p == nil || obj.Parent() != p.Scope() {
		return false
	}
	return w.name(p.Path(), obj.Name())
}

func (w *usesWalker) object(obj types.Object) {
	if p := obj.Pkg(); p == nil || p.Path() == w.own {
		return
	}
	switch o := obj.(type) {
	case *types.PkgName:
		return
	case *types.Func:
		// A method: its receiver's type, which declares it.
		if recv := o.Type().(*types.Signature).Recv(); recv != nil {
			w.typ(recv.Type())
			return
		}
	case *types.Var:
		if o.IsField() {
			return // reached through a type, which brought it
		}
	}
	if !w.add(obj) {
		return
	}
	// A type name's own declaration is walked here: typ would find it
	// added already.
	switch t := obj.Type().(type) {
	case *types.Named:
		if t.Obj() == obj {
			w.namedBody(t)
			return
		}
	case *types.Alias:
		if t.Obj() == obj {
			w.aliasBody(t)
			return
		}
	}
	w.typ(obj.Type())
}

// namedBody and aliasBody walk a type's declaration: its type
// parameters, what it stands for and, for a named type, its methods.
func (w *usesWalker) namedBody(t *types.Named) {
	o := t.Origin()
	w.tparams(o.TypeParams())
	w.typ(o.Underlying())
	for i := 0; i < o.NumMethods(); i++ {
		w.typ(o.Method(i).Type())
	}
}

func (w *usesWalker) aliasBody(t *types.Alias) {
	w.tparams(t.TypeParams())
	w.typ(t.Rhs())
}

// typ walks a type to the named types and aliases of other packages it
// mentions (add), and through those of the repository's to theirs: their
// declarations and methods are what an importer sees of them.
func (w *usesWalker) typ(t types.Type) {
	if t == nil || w.seen[t] {
		return
	}
	switch t := t.(type) {
	case *types.Named:
		w.seen[t] = true
		for i := 0; i < t.TypeArgs().Len(); i++ {
			w.typ(t.TypeArgs().At(i))
		}
		if w.add(t.Origin().Obj()) {
			w.namedBody(t)
		}
	case *types.Alias:
		w.seen[t] = true
		for i := 0; i < t.TypeArgs().Len(); i++ {
			w.typ(t.TypeArgs().At(i))
		}
		if w.add(t.Obj()) {
			w.aliasBody(t)
		}
	case *types.TypeParam:
		w.seen[t] = true
		w.typ(t.Constraint())
	case *types.Pointer:
		w.typ(t.Elem())
	case *types.Slice:
		w.typ(t.Elem())
	case *types.Array:
		w.typ(t.Elem())
	case *types.Map:
		w.typ(t.Key())
		w.typ(t.Elem())
	case *types.Chan:
		w.typ(t.Elem())
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			w.typ(t.Field(i).Type())
		}
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			w.typ(t.At(i).Type())
		}
	case *types.Signature:
		w.tparams(t.TypeParams())
		w.typ(t.Params())
		w.typ(t.Results())
	case *types.Interface:
		w.seen[t] = true
		for i := 0; i < t.NumExplicitMethods(); i++ {
			w.typ(t.ExplicitMethod(i).Type())
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			w.typ(t.EmbeddedType(i))
		}
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			w.typ(t.Term(i).Type())
		}
	}
}

func (w *usesWalker) tparams(l *types.TypeParamList) {
	for i := 0; i < l.Len(); i++ {
		w.typ(l.At(i))
	}
}
