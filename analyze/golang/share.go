package golang

import (
	"crypto/sha256"
	"encoding/hex"
	"go/types"
	"sort"
	"strings"
)

// Sharing type-checked packages across units.
//
// A repository with nested modules (grpc-go has a dozen: examples,
// security/advancedtls, gcp/observability, …) is one go list per module,
// and every module's graph holds most of the others' dependencies again:
// the standard library, the module cache and, through replace directives,
// the main module's own packages. Checking each of those once per module
// made a cold load of such a repository several times slower than one of
// a single module of the same size.
//
// A package is the same in two units when it has the same import path,
// the same files, the same language version and the same dependencies,
// recursively: its identity hashes exactly those. A package of a later
// unit that is only a dependency there (not extracted) reuses the
// *types.Package checked by an earlier unit when every dependency of it is
// reused too, so that all packages of a unit see one instance of each
// package and type identity holds. All units share one token.FileSet, so
// positions of reused objects still resolve.
//
// With a cache, a package whose export data was stored is dropped once
// extracted (exportcache.go, "Memory that drops as it goes"); a later unit
// imports it from that data, found in the cache, which costs a decode
// rather than a check. Sharing then only concerns packages without export
// data, and loads without a cache.

// identity computes, once, the node's identity (see above).
func (n *node) identity() string {
	if n.ident != "" {
		return n.ident
	}
	n.ident = "cycle" // the graph is acyclic; this only guards against surprises
	var b strings.Builder
	b.WriteString(n.pkg.PkgPath)
	b.WriteByte(0)
	b.WriteString(goVersion(n.pkg))
	b.WriteByte(0)
	files := append([]string(nil), n.goFiles...)
	sort.Strings(files)
	for _, f := range files {
		b.WriteString(f)
		b.WriteByte(0)
	}
	for _, p := range n.importPaths() {
		b.WriteString(p)
		b.WriteByte('=')
		if d := n.imports[p]; d != nil && len(d.goFiles) > 0 {
			b.WriteString(d.identity())
		} else {
			b.WriteString("missing")
		}
		b.WriteByte(0)
	}
	sum := sha256.Sum256([]byte(b.String()))
	n.ident = hex.EncodeToString(sum[:16])
	return n.ident
}

// planReuse marks the nodes of a unit that reuse a package checked by an
// earlier unit and returns how many do.
func (l *loader) planReuse(order []*node) int {
	if len(l.shared) == 0 {
		return 0
	}
	count := 0
	state := make(map[*node]int8, len(order)) // 1 reused, -1 not
	var visit func(n *node) bool
	visit = func(n *node) bool {
		if s := state[n]; s != 0 {
			return s > 0
		}
		state[n] = -1
		if n.full {
			return false
		}
		tpkg := l.shared[n.identity()]
		if tpkg == nil {
			return false
		}
		for _, d := range n.imports {
			if !visit(d) {
				return false
			}
		}
		state[n] = 1
		n.reused = true
		n.tpkg = tpkg
		count++
		return true
	}
	for _, n := range order {
		visit(n)
	}
	return count
}

// remember records the packages a unit checked for later units.
//
// Test variants (a package compiled for its own tests or another's, ForTest
// set) are left out: another unit is another module, which can only
// import the package itself, never a variant made for this module's
// tests. Kept, they held the standard library's test packages' types
// through the whole load of cmd.
func (l *loader) remember(order []*node) {
	for _, n := range order {
		if n.reused || n.tpkg == nil || !n.checked || n.pkg.ForTest != "" {
			continue
		}
		if _, ok := l.shared[n.identity()]; !ok {
			l.shared[n.identity()] = n.tpkg
		}
	}
}

// sharedPackages is the cache planReuse reads and remember fills.
type sharedPackages map[string]*types.Package
