// Package typecache keeps what the Go loader (package golang) learns
// about packages' types between loads, and decides when it may be
// reused: the export data of type-checked packages, go list's answers,
// and the keys that name both.
//
// The loader calls it at five points: [ListKey] and [Listings.Get] before
// go list; [ContentKey], [ExportKey], [ResultKey], [ImportsKey] and
// [SurfaceKey] as it visits packages in dependency order; [UsesRecordKey],
// [DecodeUses], [ObjectsKey] and [UsedImportsKey] to key a repository
// package by what it uses of others (uses.go); [LookupExport] and
// [Export.Records] to read and store a package's export data; and an
// [Importer]'s [Reader] to give the type checker a dependency decoded from
// that data instead of checked from source. Records go through a [Cache]
// (the index's per-root packs); nothing here touches the disk but to read
// the headers of Go files.
//
// # Export data
//
// [Encode] writes a type-checked package's declarations in a shallow
// encoding of our own: the package's own package-level objects, with
// objects of other packages referred to by import path and name, every
// position exact, a CRC-32C at the end. A [Reader] decodes it lazily, one
// object at a time, as importers reach them. Encode also returns the
// package's shape, a hash of the data without lines and columns, and its
// refs, the other packages the data names: what importers depend on, so
// that an edit that only moves declarations invalidates nothing above its
// package, and one that adds a declaration invalidates only its importers
// unless their own declarations use its types. With objects, Encode also
// sums each object on its own, so that a package keyed by the objects it
// uses of others keeps its records while those objects keep their sums. Data that fails its checksum,
// is of another version or is not what its record's hash says is
// refused before any of it is decoded; the loader then checks from
// source.
//
// # Listings
//
// go list's answer depends on the .go files under the root only through
// their names and headers (build constraints, package clause, imports,
// embed directives). [Listings] keeps each unit's answer with the header
// digest of every file it was computed from and reuses it while they
// hold.
//
// # Keys
//
// keys.go says what each key hashes. Every key starts with the caller's
// salt, so records of another build of the program, other options or
// another go environment are never read.
//
// # Costs
//
// golang.org/x/tools/go/gcexportdata writes "deep" data (each package
// with everything its API reaches): 90 MB and 16 s of CPU for hugo's
// graph, worse than checking. Shallow data lets a load after an edit of
// one low-level hugo file import the ~1,500 packages below it instead of
// checking them. BenchmarkLoadEdited in package golang measures a load
// after edits with and without the cache.
package typecache
