package golang

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"go/version"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc/pool"
	"golang.org/x/tools/go/packages"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
	"github.com/ctxexpand/ctxexpand/index"
)

// Caps on what one package or file may add to the problem list.
const (
	maxTypeErrors   = 10
	maxSyntaxErrors = 10
)

// node is one package of a unit's import graph.
type node struct {
	pkg      *packages.Package
	goFiles  []string          // the package's Go files, see packageFiles
	full     bool              // repository files are extracted from it
	assigned map[string]string // absolute → repository-relative path of those files
	imports  map[string]*node
	rdeps    []*node
	pending  atomic.Int32
	files    []*parsedFile
	tpkg     *types.Package
	info     *types.Info
	typeErrs []types.Error
	tainted  int8   // 1 when a package it depends on is missing, -1 when not, 0 unknown
	ident    string // see identity
	reused   bool   // tpkg comes from an earlier unit (share.go)
	checked  bool   // the type checker ran and returned normally
	inRepo   bool   // a repository package checked in this unit: its keys follow its uses (uses.go)
	hardErr  bool   // its check reported an error that is not soft

	// The cache (cache.go).
	ckey      index.Key         // content key
	ckeyDone  bool              // ckey is computed
	rkey      index.Key         // result key, for a full package
	extract   bool              // checked in full and extracted: full, and no cached result
	needTypes bool              // type-checked: extracted, or a dependency of one that is
	cached    []*extract.Result // the cached result of a full package, whole or in parts

	// Export data (exportcache.go).
	kfiles     []typecache.File // its files as keys see them, see keyFiles
	ekey       index.Key        // export key
	ekeyDone   bool
	surf       index.Key         // surface, known once the node is visited
	exp        typecache.Export  // its export data, or that it has none
	reader     *typecache.Reader // decodes exp, made on first use
	deps       map[string]*node  // dependencies by import path, see findDep
	base       *node             // see linkVariants
	imp        index.Key         // the imports with their surfaces, see surfacesKey
	impDone    bool
	uses       *typecache.Uses // what it used of its imports, when known (uses.go)
	usesLooked bool            // its uses record was looked up in this visit
	usesRaw    []byte          // that record, or the one stored since
	uimp       index.Key       // the imports as it uses them, see importsKey
	uimpDone   bool
	refs       []typecache.Import // its refs with their surfaces, see refKeys
	impPaths   []string           // pkg.Imports' paths, sorted, see importPaths
	partial    *partialPlan       // extract only some files, see tryPartial
}

// importPaths returns the paths the package imports, sorted once when
// the node is made: every key of the package lists them (importKeys), and
// sorting them for each key was a twentieth of a resident edit's CPU on
// hugo.
func (n *node) importPaths() []string { return n.impPaths }

// resetAttempt forgets what checking the unit found, so that it can be
// checked again.
func (n *node) resetAttempt() {
	if !n.reused {
		n.tpkg = nil
	}
	n.info, n.typeErrs, n.checked = nil, nil, false
	n.extract, n.needTypes, n.cached, n.files, n.partial = false, false, nil, nil, nil
	n.ekeyDone, n.exp, n.reader = false, typecache.Export{}, nil
	n.impDone, n.uses, n.uimpDone, n.refs = false, nil, false, nil
	n.pending.Store(int32(n.waitsFor()))
}

// waitsFor is how many nodes must be visited before this one: its
// imports, and its base (see linkVariants).
func (n *node) waitsFor() int {
	if n.base != nil {
		return len(n.imports) + 1
	}
	return len(n.imports)
}

// listing is the outcome of one unit's go list.
type listing struct {
	roots []*packages.Package
	probs []analyze.Problem
	err   error
	took  time.Duration
}

// loadTyped runs every unit of the layout and type-checks what it lists.
// The go list of the next unit runs while the current one is checked:
// with nested modules, each is a go command of its own.
func (l *loader) loadTyped() {
	units := l.lay.units(l.root, l.env)
	lists := make([]chan listing, len(units))
	for i := range lists {
		lists[i] = make(chan listing, 1)
	}
	go func() {
		for i, u := range units {
			if l.ctx.Err() != nil {
				lists[i] <- listing{err: l.ctx.Err()}
				continue
			}
			t := time.Now()
			roots, probs, err := l.listCached(u)
			lists[i] <- listing{roots: roots, probs: probs, err: err, took: time.Since(t)}
		}
	}()
	for i, u := range units {
		l.unitNo, l.units = i+1, len(units)
		l.opt.progress(l.phase("listing packages"), 0, 0)
		ls := <-lists[i]
		if l.ctx.Err() != nil {
			continue // drain the lister
		}
		l.problems = append(l.problems, ls.probs...)
		l.loadUnit(u, ls)
	}
}

func (l *loader) loadUnit(u *unit, ls listing) {
	start := time.Now()
	roots, err := ls.roots, ls.err
	if err == nil {
		err = listedNothing(roots)
	}
	if err != nil {
		if l.ctx.Err() != nil {
			return // the time limit; the load's own problem says so
		}
		msg := goListMessage(err)
		for _, m := range u.mods {
			l.reasons["module:"+m.dir] = "go list failed: " + msg
			p := analyze.Problem{Kind: analyze.ProblemLoad, Msg: "go list: " + msg}
			if rel, ok := l.relOf(filepath.Join(m.dir, "go.mod")); ok {
				p.Path = rel
			}
			l.problems = append(l.problems, p)
		}
		l.opt.logf("golang: go list in %s failed: %s", u.dir, msg)
		return
	}
	tList := ls.took
	start = start.Add(-tList)

	// The graph: every package but the generated test mains.
	sk := l.opt.Results.skeleton(roots)
	if sk == nil {
		sk = newSkeleton(roots)
		l.opt.Results.keepSkeleton(roots, sk)
	}
	nodes := make(map[*packages.Package]*node, len(sk.pkgs))
	order := make([]*node, len(sk.pkgs))
	for i, p := range sk.pkgs {
		n := &node{pkg: p, goFiles: sk.goFiles[i], impPaths: sk.impPaths[i]}
		nodes[p], order[i] = n, n
	}
	for _, n := range order {
		n.imports = make(map[string]*node, len(n.pkg.Imports))
		for path, ip := range n.pkg.Imports {
			if d := nodes[ip]; d != nil {
				n.imports[path] = d
				d.rdeps = append(d.rdeps, n)
			}
		}
	}
	if l.opt.Cache != nil {
		linkVariants(order)
	}
	for _, n := range order {
		n.pending.Store(int32(n.waitsFor()))
	}
	for _, n := range order {
		n.markTainted()
	}
	l.assignFiles(u, roots, nodes)
	repo := make(map[string]bool)
	for _, n := range order {
		if _, ok := l.relDir(n.pkg.Dir); ok && n.pkg.Dir != "" {
			repo[n.pkg.PkgPath] = true
		}
	}

	fset := l.fset
	l.unique = uniquePaths(order)
	l.byID = make(map[string]*node, len(order))
	for _, n := range order {
		l.byID[n.pkg.ID] = n
	}
	reused := l.planReuse(order)
	l.planCache(order)
	l.planParse(order)
	if l.opt.Cache != nil {
		l.cacheSalt() // here, once, rather than by concurrent visits
	}
	tParse := time.Since(start) - tList // planning; files are parsed while checking
	l.importFailed.Store(false)
	results, problems, fresh := len(l.results), len(l.problems), len(l.fresh)
	l.checkAll(fset, order, repo)
	if l.importFailed.Load() {
		// Damaged export data: nothing this attempt found is trusted.
		l.results, l.problems, l.puts = l.results[:results], l.problems[:problems], nil
		l.fresh = l.fresh[:fresh]
		for _, n := range order {
			n.resetAttempt()
		}
		l.noImport = true
		l.planCache(order)
		l.planParse(order)
		l.checkAll(fset, order, repo)
		l.noImport = false
	}
	l.flushPuts()
	l.remember(order)
	l.opt.logf("golang: %s: %d packages (%d checked by an earlier module, %d results cached, %d checked, %d extracted only in their changed files, %d imported from export data); go list %v, plan %v, parse+check+extract %v",
		u.dir, len(order), reused, l.hits.Swap(0), l.nchecked.Swap(0), l.npartial.Swap(0), l.nimported.Swap(0), tList.Round(time.Millisecond), tParse.Round(time.Millisecond),
		(time.Since(start) - tList - tParse).Round(time.Millisecond))
}

// skeleton is the part of a unit's graph that go list's answer alone
// decides: the packages, the generated test mains left out, in the order
// of their IDs, with each one's Go files and sorted import paths. A
// resident chain keeps it while the answer is shared (ResultMemo): it was
// a twentieth of a hugo edit's CPU, all of it spent on the critical path.
type skeleton struct {
	pkgs     []*packages.Package
	goFiles  [][]string // see packageFiles
	impPaths [][]string // pkg.Imports' paths, sorted
}

func newSkeleton(roots []*packages.Package) *skeleton {
	// The generated test mains are left out, and so is what only they
	// import (testing's closure, in a module whose tests import nothing).
	isTestMain := func(p *packages.Package) bool {
		return p.Name == "main" && strings.HasSuffix(p.ID, ".test") && p.ForTest == ""
	}
	sk := &skeleton{}
	packages.Visit(roots, func(p *packages.Package) bool { return !isTestMain(p) }, func(p *packages.Package) {
		sk.pkgs = append(sk.pkgs, p)
	})
	sort.Slice(sk.pkgs, func(i, j int) bool { return sk.pkgs[i].ID < sk.pkgs[j].ID })
	sk.goFiles = make([][]string, len(sk.pkgs))
	sk.impPaths = make([][]string, len(sk.pkgs))
	for i, p := range sk.pkgs {
		sk.goFiles[i], sk.impPaths[i] = packageFiles(p), sortedKeys(p.Imports)
	}
	return sk
}

// variantRank orders the packages a file appears in: its package's own
// test variant (which holds every file of the package) first, then the
// package itself, then anything else.
func variantRank(p *packages.Package) int {
	switch {
	case p.ForTest != "" && p.ForTest == p.PkgPath:
		return 0
	case p.ForTest == "":
		return 1
	case strings.HasSuffix(p.PkgPath, "_test"):
		return 0 // an external test package: its files are nowhere else
	}
	return 2
}

// assignFiles picks, for each repository file, the one package of the unit
// it is extracted from; records files left out by build constraints and
// the list errors of the unit's packages.
func (l *loader) assignFiles(u *unit, roots []*packages.Package, nodes map[*packages.Package]*node) {
	type choice struct {
		n    *node
		rank int
	}
	best := make(map[string]choice)
	var files []string
	for _, r := range roots {
		n := nodes[r]
		if n == nil {
			continue
		}
		rank := variantRank(r)
		for _, f := range n.goFiles {
			rel, ok := l.relOf(f)
			if !ok || !l.allowed[rel] || l.covered[rel] {
				continue
			}
			c, seen := best[f]
			if !seen {
				files = append(files, f)
			}
			if !seen || rank < c.rank || (rank == c.rank && r.ID < c.n.pkg.ID) {
				best[f] = choice{n, rank}
			}
		}
		for _, f := range r.IgnoredFiles {
			if rel, ok := l.relOf(f); ok && strings.HasSuffix(rel, ".go") {
				l.ignored[rel] = true
			}
		}
		if len(n.goFiles) == 0 && len(r.Errors) > 0 {
			if dir, ok := l.relDir(r.Dir); ok {
				l.reasons[dir] = "go list: " + firstLine(r.Errors[0].Msg)
			}
		}
	}
	for _, f := range files {
		c := best[f]
		rel, _ := l.relOf(f)
		if c.n.assigned == nil {
			c.n.assigned = make(map[string]string)
		}
		c.n.assigned[f] = rel
		c.n.full = true
		l.covered[rel] = true
	}
	// List errors, wherever they are reported, that point into the root.
	for _, n := range nodes {
		for _, e := range n.pkg.Errors {
			if e.Kind != packages.ListError && e.Kind != packages.UnknownError {
				continue
			}
			file, line := parsePos(e.Pos, u.dir)
			p := analyze.Problem{Kind: analyze.ProblemLoad, Line: line, Msg: l.listErrorHint(firstLine(e.Msg))}
			if rel, ok := l.relOf(file); ok && file != "" {
				p.Path = rel
			} else if dir, ok := l.relDir(n.pkg.Dir); ok && n.pkg.Dir != "" {
				p.Path, p.Line = dir, 0
			} else {
				continue
			}
			l.problems = append(l.problems, p)
		}
	}
}

// firstLine folds a multi-line message into one line.
func firstLine(s string) string {
	return extract.CapText(strings.Join(strings.Fields(s), " "), 300)
}

// utf8Error is the syntax error reported for invalid UTF-8.
func utf8Error(filename string, line int) *scanner.Error {
	return &scanner.Error{Pos: token.Position{Filename: filename, Line: line}, Msg: "illegal UTF-8 encoding (replaced for analysis)"}
}

// phase names a phase of the current unit for progress reports.
func (l *loader) phase(what string) string {
	if l.units > 1 {
		return fmt.Sprintf("go: %s (module %d of %d)", what, l.unitNo, l.units)
	}
	return "go: " + what
}

// checkAll type-checks the unit's packages in dependency order on a
// bounded pool of workers, extracting each repository package as soon as
// it is checked, then releasing its syntax and type information.
func (l *loader) checkAll(fset *token.FileSet, order []*node, repo map[string]bool) {
	if len(order) == 0 {
		return
	}
	sizes := types.SizesFor("gc", goarch(l.env))
	ready := make(chan *node, len(order))
	for _, n := range order {
		if n.pending.Load() == 0 {
			ready <- n
		}
	}
	var remaining atomic.Int64
	remaining.Store(int64(len(order)))
	phase := l.phase("type-checking packages")
	l.opt.progress(phase, 0, len(order))
	var failed []*node
	workers := runtime.GOMAXPROCS(0)
	p := pool.New().WithMaxGoroutines(workers)
	for i := 0; i < workers; i++ {
		p.Go(func() {
			for n := range ready {
				func() {
					// Whatever happens to this package, its dependents must
					// be released and the count kept, or the pool would wait
					// forever.
					released := false
					release := func() {
						released = true
						for _, r := range n.rdeps {
							if r.pending.Add(-1) == 0 {
								ready <- r
							}
						}
					}
					defer func() {
						if r := recover(); r != nil {
							l.mu.Lock()
							l.problems = append(l.problems, analyze.Problem{Kind: analyze.ProblemLoad,
								Msg: fmt.Sprintf("internal error loading %s: %v", n.pkg.ID, r)})
							l.mu.Unlock()
						}
						if !released {
							release()
						}
						n.info = nil
						n.release()
						if l.decodes(n) {
							// Its dependents see it as decoded; its own
							// check is done with (see typesOf).
							n.tpkg = nil
						}
						left := remaining.Add(-1)
						l.opt.progress(phase, len(order)-int(left), len(order))
						if left == 0 {
							close(ready)
						}
					}()
					l.visit(fset, n, sizes, repo)
					release()
					switch {
					case n.cached != nil:
						l.mu.Lock()
						l.results = append(l.results, n.cached...)
						l.mu.Unlock()
					case n.extract && l.ctx.Err() == nil:
						res := l.extractTyped(fset, n, repo)
						l.storeResult(n, res, repo)
						l.mu.Lock()
						if res != nil {
							l.results = append(l.results, res)
							if n.partial != nil {
								l.results = append(l.results, n.partial.parts...)
							}
						} else {
							failed = append(failed, n)
						}
						l.mu.Unlock()
					}
				}()
			}
		})
	}
	p.Wait()
	if l.importFailed.Load() && !l.noImport {
		return // checked again from source
	}
	for _, n := range failed {
		msg := "type checking failed"
		if len(n.typeErrs) > 0 {
			msg += ": " + firstLine(n.typeErrs[len(n.typeErrs)-1].Msg)
		}
		for _, rel := range n.assigned {
			delete(l.covered, rel)
			l.reasons[path.Dir(rel)] = msg
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// check type-checks one package against its already-checked imports.
func (l *loader) check(fset *token.FileSet, n *node, sizes types.Sizes) {
	l.checkWith(fset, n, sizes, nil)
}

// checkWith checks a package with the function bodies of the files in
// strip (absolute paths) left out.
func (l *loader) checkWith(fset *token.FileSet, n *node, sizes types.Sizes, strip map[string]bool) {
	n.typeErrs, n.hardErr = nil, false
	defer func() {
		if r := recover(); r != nil {
			n.tpkg, n.info = nil, nil
			n.typeErrs = append(n.typeErrs, types.Error{Msg: fmt.Sprintf("internal error in the type checker: %v", r)})
		}
	}()
	// The packages of the imports, decoded from export data if need be,
	// before the checker (which only reads them) starts.
	imported := make(map[*node]*types.Package, len(n.imports))
	l.imports.Lock()
	for _, d := range n.imports {
		imported[d] = l.typesOf(d)
	}
	l.imports.Unlock()
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			d := n.imports[path]
			var tpkg *types.Package
			if d != nil && len(d.goFiles) > 0 {
				tpkg = imported[d]
			}
			if tpkg == nil {
				// An empty stand-in: uses of the package then fail one by
				// one ("undefined: lib.X") instead of leaving the import
				// name itself undefined everywhere.
				fake := types.NewPackage(path, extract.GuessPkgName(path))
				fake.MarkComplete()
				return fake, nil
			}
			return tpkg, nil
		}),
		IgnoreFuncBodies: !n.extract,
		FakeImportC:      true,
		Sizes:            sizes,
		GoVersion:        goVersion(n.pkg),
		Error: func(err error) {
			te, ok := err.(types.Error)
			if ok && te.Soft {
				return
			}
			n.hardErr = true
			if ok && n.extract {
				n.typeErrs = append(n.typeErrs, te)
			}
		},
	}
	l.ensureParsed(n)
	files := n.parsed()
	asts := make([]*ast.File, len(files))
	for i, pf := range files {
		asts[i] = pf.ast
		if strip[pf.abs] {
			asts[i] = stripBodies(pf.ast)
		}
	}
	var info *types.Info
	switch {
	case n.extract:
		info = &types.Info{Defs: make(map[*ast.Ident]types.Object), Uses: make(map[*ast.Ident]types.Object)}
	case n.inRepo && l.opt.Cache != nil:
		info = &types.Info{Uses: make(map[*ast.Ident]types.Object)} // for usesOf
	}
	t0 := time.Now()
	tpkg, _ := conf.Check(n.pkg.PkgPath, fset, asts, info)
	if n.extract {
		l.checkFull.Add(int64(time.Since(t0)))
	} else {
		l.checkDecl.Add(int64(time.Since(t0)))
	}
	n.tpkg, n.info = tpkg, info
	n.checked = true
}

// goVersion is the language version to check a package with: its module's
// go directive when this toolchain understands it.
func goVersion(p *packages.Package) string {
	if p.Module == nil || p.Module.GoVersion == "" {
		return ""
	}
	v := "go" + p.Module.GoVersion
	if !version.IsValid(v) || (version.IsValid(runtime.Version()) && version.Compare(v, runtime.Version()) > 0) {
		return ""
	}
	return v
}

// packageFiles returns a package's Go files, once each and only those in
// its directory. go/packages adds the file named by a go list error's
// position to the erring package (golang/go#39986), so a package that
// could not be found at all arrives holding the file that imports it.
func packageFiles(p *packages.Package) []string {
	if p.Dir == "" {
		return nil
	}
	var out []string
	seen := make(map[string]bool, len(p.GoFiles))
	for _, f := range p.GoFiles {
		if seen[f] || filepath.Dir(f) != p.Dir {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}

// markTainted works out whether the package depends, directly or not, on a
// package go list could not find: its type errors are then mostly
// consequences (a field or method promoted from a missing type).
func (n *node) markTainted() bool {
	if n.tainted != 0 {
		return n.tainted > 0
	}
	n.tainted = -1 // the graph is acyclic; this only guards against surprises
	bad := len(n.imports) < len(n.pkg.Imports)
	for _, d := range n.imports {
		if len(d.goFiles) == 0 || d.markTainted() {
			bad = true
		}
	}
	if bad {
		n.tainted = 1
	}
	return bad
}
