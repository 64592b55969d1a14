package typecache

import (
	"github.com/ctxexpand/ctxexpand/index"
)

// The keys that decide reuse.
//
// Each record is stored under a key of everything it was computed from,
// so a record found is a record that holds. Every key starts with the
// caller's salt (the program's identity, the loader's options and the go
// command's environment) and the package's path, name and language
// version, then hashes:
//
//   - ContentKey: the package's files (by content under the root) and,
//     recursively, the content keys of its imports. It changes with any
//     byte below the package; it stands for the surface of a package that
//     has no export data.
//   - ExportKey (the export record): the package's files and the surfaces
//     of its imports (ImportsKey).
//   - SurfaceKey: the package's shape (its export data without lines and
//     columns, see Encode) and the surfaces of the packages that data
//     names (Export.Refs), so that it changes whenever a declaration its
//     importers can reach changes (a field added, a method's signature,
//     in it or in a type its declarations use) and only then: a comment
//     appended to a file, or a changed function body, leaves it as it
//     was, even when it moves the declarations after it; and a function
//     added to a package deep below changes the surfaces of its importers
//     only, unless their declarations use its types. A package without
//     export data stands by its content key, and by the surfaces of all
//     its imports.
//   - ResultKey (the loader's extracted result of a repository package):
//     its files, which of them it extracts, and the surfaces of its
//     imports.
//
// Files outside the root (the module cache, GOROOT) are hashed by path:
// their content does not change under a path.

// Pkg is what names a package in its keys.
type Pkg struct {
	Path      string // import path
	Name      string
	GoVersion string // the language version it is checked with
	Repo      bool   // its directory is under the root
}

// File is one of a package's Go files, as its keys see it. A package's
// files are given in the order of their absolute names.
type File struct {
	Name      string // repository-relative under the root, absolute elsewhere
	Under     bool   // under the root: hashed by content
	Extracted bool   // the package extracts this file's facts
	Hash      string // the content hash, for a file under the root
}

// Import is one import of a package: its path and the key of what it
// provides (its surface, or for ContentKey its content key), or Missing
// when go list found no files for it. A package's imports are given in
// the order of their paths.
type Import struct {
	Path    string
	Key     index.Key
	Missing bool
}

func hashPkg(h *index.Hasher, p Pkg, repo bool) {
	h.String(p.Path).String(p.Name).String(p.GoVersion)
	if repo {
		h.Bool(p.Repo)
	}
}

// hashFiles adds the files; with extracted, whether each under the root
// is extracted.
func hashFiles(h *index.Hasher, files []File, extracted bool) {
	for _, f := range files {
		h.String(f.Name)
		if !f.Under {
			continue
		}
		if extracted {
			h.Bool(f.Extracted)
		}
		h.String(f.Hash)
	}
}

func hashImports(h *index.Hasher, imports []Import) {
	for _, im := range imports {
		h.String(im.Path)
		if im.Missing {
			h.String("missing")
		} else {
			h.Key(im.Key)
		}
	}
}

// ContentKey is the key of a package's files and of the files of
// everything it imports, recursively: imports carry their content keys.
func ContentKey(salt string, p Pkg, files []File, imports []Import) index.Key {
	h := index.NewHasher("go-pkg").String(salt)
	hashPkg(h, p, true)
	hashFiles(h, files, true)
	hashImports(h, imports)
	return h.Sum()
}

// ImportsKey hashes a package's imports with their surfaces; the export,
// surface and result keys of a package all include it, so the loader
// computes it once per package.
func ImportsKey(imports []Import) index.Key {
	h := index.NewHasher("go-imports")
	hashImports(h, imports)
	return h.Sum()
}

// ExportKey is the key of a package's export record (LookupExport,
// Export.Records); imports is its ImportsKey.
func ExportKey(salt string, p Pkg, files []File, imports index.Key) index.Key {
	h := index.NewHasher("go-export").String(salt).Uint(exportVersion)
	hashPkg(h, p, false)
	hashFiles(h, files, false)
	return h.Key(imports).Sum()
}

// ResultKey is the key of the result the loader extracted from a
// repository package; imports is its ImportsKey.
func ResultKey(salt string, p Pkg, files []File, imports index.Key) index.Key {
	h := index.NewHasher("go-result").String(salt)
	hashPkg(h, p, true)
	hashFiles(h, files, true)
	return h.Key(imports).Sum()
}

// SurfaceKey is a package's surface, once its export data, or the lack
// of it, is known. With export data (Export.HasShape), it is the shape
// and refs: the surface of each package in e.Refs, in that order, Missing
// where the loader cannot tell which package the path means. Without,
// it is the content key and imports, the package's ImportsKey; these
// are read only then.
//
// A ref the loader could not resolve makes the surface cover imports
// too, as if every package below counted: the key may then change more
// often than it must, never less.
//
// Why the refs suffice: an importer sees a package only as its export
// data decodes, and decoding reaches other packages only through the
// objects the data names (import.go), whose declarations their own
// shapes and refs cover in turn.
func SurfaceKey(e Export, refs []Import, content, imports index.Key) index.Key {
	h := index.NewHasher("go-surface")
	if !e.HasShape() {
		return h.String("content").Key(content).Key(imports).Sum()
	}
	h.Bytes(e.Shape)
	hashImports(h, refs)
	for _, r := range refs {
		if r.Missing {
			h.String("unresolved").Key(imports)
			break
		}
	}
	return h.Sum()
}
