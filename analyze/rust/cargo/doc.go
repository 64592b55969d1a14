// Package cargo finds a Rust repository's Cargo packages and their targets
// from its manifests, as Cargo does, without running cargo.
//
// [Discover] reads the root Cargo.toml and its [workspace] members (globs,
// exclude), then the nearest Cargo.toml above every listed file. Each
// [Package] lists its targets ([Target]), the crates Cargo would build: [Lib],
// [Bin], [Test], [Example], [Bench] and [BuildScript], declared in the
// manifest ([lib], [[bin]], …) or found by layout (src/lib.rs,
// src/main.rs, src/bin/*, tests/*, examples/*, benches/*, build.rs, unless
// autobins and its kin say no). A target is kept only when its root file
// is among the listed files, so nothing outside the repository becomes a
// crate. Package.Deps maps the names code uses for path dependencies,
// direct or through [workspace.dependencies] (ws_core), to the package
// they name (ws-core); registry dependencies are not recorded.
//
// Nothing here fails: an unreadable or invalid manifest, a workspace
// member without one, a member pattern leaving the repository, each
// becomes an [analyze.Problem] and the rest is discovered. An invalid
// workspace member's manifest still gives its package, named after its
// directory, with the targets its layout implies; any other invalid
// manifest gives none, and the loader places its files by layout.
//
// The Rust loader (package rust, its only caller) turns targets into
// crates and resolves names across them; this package knows nothing of
// Rust source.
package cargo
