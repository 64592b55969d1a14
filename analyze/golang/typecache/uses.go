package typecache

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Keys that follow what a package uses of its imports.
//
// A package's keys hash the surface of each import, which changes with
// any declaration of the import or of a package it names: a function
// added to a package used across the repository would check every
// package above it again, though none of them can use it yet. So the
// loader keeps, for each repository package it checked, the objects its
// check could see of other packages (Uses, stored under
// UsesRecordKey by package ID): the package-level objects it named, and
// the named types and aliases their types reach, in every package, with
// their methods and fields. A later load whose records of the package
// are not found under its imports' surfaces reads them and hashes those
// objects' sums (ObjectsKey) in place of the surfaces (UsedImportsKey).
//
// That holds because a package sees another only through what it names,
// and through the types those reach: the type checker looks nothing else
// up. A name it uses that an import lacks (a type error) is kept too,
// and counts as absent until the import declares it. A package of
// another module is not walked into: its whole surface stands for it
// (Uses.All), as it does for a dot import, which sees all the names of a
// package (a new one may collide with its own). The uses kept are a
// hint, never trusted blindly: a record is stored under a key made from
// the uses its own check found, so a hint from another version of the
// files only finds records that check gave.

// Uses are the names a package used of each of its imports, by import
// path, and the keys its records were stored under by them.
type Uses struct {
	Names map[string][]string // sorted
	All   map[string]bool     // packages whose every name counts (another module's, dot imports)
	// Files are the package's files, repository-relative, whose every
	// use the names cover, with their content hashes: all of them after
	// a full check. A check that reads only some files' bodies (the Go
	// loader's partial extraction) may add its uses to those of the files
	// it left out only where those are what Files says.
	Files map[string]string
	// Imports is the key of the package's imports with their surfaces
	// (ImportsKey) when the names were found: the names' types as they
	// were then, which a check that reads only some bodies may rely on
	// only while it is the same.
	Imports index.Key
	// Result and Export are the keys of the package's result (zero for
	// a package whose result is not kept) and export record under these
	// uses: a load that finds them under its imports' surfaces keeps
	// them too (UsesRecordKeys), for the load that will need them.
	Result, Export index.Key
}

// UsesRecordKeys reads the Result and Export keys of a uses record
// without decoding the rest.
func UsesRecordKeys(data []byte) (result, export index.Key, ok bool) {
	if len(data) < 2*len(result) {
		return result, export, false
	}
	copy(result[:], data)
	copy(export[:], data[len(result):])
	return result, export, true
}

// UsesRecordKey is the key the uses of a package are kept under: its ID
// (a test variant has its own), and the caller's salt.
func UsesRecordKey(salt, id string) index.Key {
	return index.NewHasher("go-uses").String(salt).Uint(exportVersion).Uint(usesVersion).String(id).Sum()
}

// usesVersion changes with EncodeUses's layout.
const usesVersion = 3

// EncodeUses writes u as a record: the Result and Export keys, then the
// names by import path, the files, and the imports' key.
func EncodeUses(u Uses) []byte {
	paths := make([]string, 0, len(u.Names)+len(u.All))
	for p := range u.Names {
		paths = append(paths, p)
	}
	for p := range u.All {
		if _, ok := u.Names[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	w := wire.NewWriter(64 * (len(paths) + 1))
	w.Uint(uint64(len(paths)))
	for _, p := range paths {
		w.String(p)
		w.Bool(u.All[p])
		w.Strings(u.Names[p])
	}
	files := slices.Sorted(maps.Keys(u.Files))
	w.Uint(uint64(len(files)))
	for _, f := range files {
		w.String(f)
		w.String(u.Files[f])
	}
	w.Blob(u.Imports[:])
	out := make([]byte, 0, len(u.Result)+len(u.Export)+w.Len())
	out = append(append(append(out, u.Result[:]...), u.Export[:]...), w.Bytes()...)
	return out
}

// DecodeUses reads a record EncodeUses wrote.
func DecodeUses(data []byte) (Uses, error) {
	rk, ek, ok := UsesRecordKeys(data)
	if !ok {
		return Uses{}, fmt.Errorf("%w: a uses record of %d bytes", wire.ErrCorrupt, len(data))
	}
	r := wire.NewReader(data[len(rk)+len(ek):])
	n := r.Len(3)
	u := Uses{Names: make(map[string][]string, n), All: map[string]bool{}, Result: rk, Export: ek}
	for i := 0; i < n && r.Err() == nil; i++ {
		p := r.String()
		if r.Bool() {
			u.All[p] = true
		}
		if names := r.Strings(); names != nil {
			u.Names[p] = names
		}
	}
	if nf := r.Len(2); nf > 0 {
		u.Files = make(map[string]string, nf)
		for i := 0; i < nf && r.Err() == nil; i++ {
			f := r.String()
			u.Files[f] = r.String()
		}
	}
	if imp := r.View(); len(imp) == len(u.Imports) {
		copy(u.Imports[:], imp)
	} else if r.Err() == nil {
		return Uses{}, fmt.Errorf("%w: an imports key of %d bytes", wire.ErrCorrupt, len(imp))
	}
	if err := r.Done(); err != nil {
		return Uses{}, err
	}
	return u, nil
}

// ObjectsKey is what a package that uses the given objects of another
// sees of it: the other's package name and those objects' sums in e (an
// object e lacks counts as absent). e must have object sums
// (HasObjects).
func ObjectsKey(name string, e Export, names []string) index.Key {
	h := index.NewHasher("go-objects").String(name)
	objects := e.ObjectSums()
	for _, n := range names {
		h.String(n)
		i := sort.Search(len(objects), func(i int) bool { return objects[i].Name >= n })
		if i < len(objects) && objects[i].Name == n {
			h.Bytes(objects[i].Sum[:])
		} else {
			h.String("absent")
		}
	}
	return h.Sum()
}

// NameKey is the key of an import as a package whose uses are known
// sees it beyond them: its package name.
func NameKey(name string) index.Key {
	return index.NewHasher("go-import-name").String(name).Sum()
}

// UsedImportsKey stands for ImportsKey in the keys of a package whose
// uses are known: its imports, each with its NameKey (or Missing), and
// each package it uses with the ObjectsKey of the objects it uses there,
// or its surface where Uses.All says so or it has no object sums (or
// Missing when the loader cannot tell which package the path means).
func UsedImportsKey(imports, used []Import) index.Key {
	h := index.NewHasher("go-used-imports")
	hashImports(h, imports)
	h.String("used")
	hashImports(h, used)
	return h.Sum()
}
