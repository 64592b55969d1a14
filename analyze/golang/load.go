package golang

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
)

// Load analyses the Go code under root. It fails only when root itself is
// unusable (missing, not a directory); everything else that goes wrong
// becomes an analyze.Problem next to whatever could be learned. When ctx is
// done the facts gathered so far are returned with Partial set.
func Load(ctx context.Context, root string, opt Options) (*analyze.Facts, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", root, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("loading %s: not a directory; pass the repository's root directory", root)
	}
	// Work in the root's real directory: the file walk does not follow a
	// symbolic link, even at the root.
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	l := &loader{
		ctx:     ctx,
		given:   abs,
		root:    real,
		opt:     opt,
		env:     opt.goEnv(),
		allowed: make(map[string]bool),
		covered: make(map[string]bool),
		ignored: make(map[string]bool),
		reasons: make(map[string]string),
		fset:    token.NewFileSet(),
		shared:  make(sharedPackages),
	}
	l.imports = typecache.NewImporter(l.fset, l.fileName)
	return l.run(), nil
}

// loader holds the state of one Load.
type loader struct {
	ctx   context.Context
	given string // absolute root as the caller named it, for Facts.Root
	root  string // absolute, symbolic links resolved
	opt   Options
	env   []string
	lay   *layout

	allowed  map[string]bool   // files that may become facts
	covered  map[string]bool   // files analysed with types (or deliberately skipped)
	ignored  map[string]bool   // files go list left out by build constraints
	reasons  map[string]string // directory or module → why its files were not type-checked
	results  []*extract.Result
	problems []analyze.Problem
	overlay  map[string][]byte // stubs for .go entries that are not regular files (special.go)

	checkFull, checkDecl atomic.Int64 // time spent type-checking, for Logf
	ckeyMu               sync.Mutex   // guards content keys (contentKey), computed by concurrent visits

	fset   *token.FileSet // shared by all units, so that reused packages keep their positions
	shared sharedPackages // packages checked by earlier units, by identity

	unitNo, units int // the unit being loaded, for progress

	salt     string              // see cacheSalt
	listings *typecache.Listings // go list's answers kept between loads, see listCached

	// Export data (exportcache.go).
	imports                   *typecache.Importer
	noImport                  bool               // check everything from source: export data of this unit failed
	importFailed              atomic.Bool        // a package's export data could not be decoded
	puts                      []typecache.Record // stored once the unit is known to be sound
	fresh                     []freshResult      // results to store, see reconcile
	unique                    map[string]*node   // the unit's packages by import path, see uniquePaths
	byID                      map[string]*node   // the unit's packages by ID, see seenFrom
	hits, nchecked, nimported atomic.Int64       // for Logf
	npartial                  atomic.Int64       // for Logf: packages extracted only in their changed files

	mu sync.Mutex // guards problems while units are checked
}

func (l *loader) run() *analyze.Facts {
	facts := &analyze.Facts{Root: l.given}
	start := time.Now()
	files, probs, err := l.opt.Walks.ListFiles(l.ctx, l.root, "golang "+l.root, analyze.WalkOptions{
		Langs:       []analyze.Lang{analyze.LangGo},
		MaxFileSize: l.opt.maxFileSize(),
		Ignore:      l.ignore,
	})
	l.problems = append(l.problems, probs...)
	if err != nil && l.ctx.Err() == nil {
		l.problems = append(l.problems, analyze.Problem{Kind: analyze.ProblemLoad, Msg: "listing files: " + err.Error()})
	}
	for _, f := range files {
		l.allowed[f] = true
	}
	l.opt.logf("golang: %d Go files listed in %v", len(files), time.Since(start).Round(time.Millisecond))

	if !l.opt.SyntaxOnly && l.ctx.Err() == nil && len(files) > 0 {
		var probs []analyze.Problem
		l.overlay, probs = specialGoFilesKept(l.ctx, l.root, l.ignore, l.opt.Walks)
		l.problems = append(l.problems, probs...)
		l.lay = discoverLayout(l.root, files, l.env)
		l.loadTyped()
	}
	if l.lay == nil {
		l.lay = discoverLayout(l.root, files, l.env)
	}
	if l.ctx.Err() == nil {
		var rest []string
		for _, f := range files {
			if !l.covered[f] {
				rest = append(rest, f)
			}
		}
		if len(rest) > 0 {
			l.opt.progress("go: analysing files from syntax", 0, len(rest))
			t := time.Now()
			l.loadSyntax(rest)
			l.opt.logf("golang: %d files analysed from syntax in %v", len(rest), time.Since(t).Round(time.Millisecond))
		}
	}

	// The packages' types are not needed past this point: released now,
	// they are not alive beside the encoded records reconcile makes.
	l.shared, l.unique, l.imports = nil, nil, nil
	t := time.Now()
	l.reconcile()
	m := extract.NewMerger(facts)
	m.Merge(l.results)
	facts.Problems = append(facts.Problems, l.problems...)
	if err := l.ctx.Err(); err != nil {
		facts.Partial = true
		facts.Problems = append(facts.Problems, analyze.Problem{Kind: analyze.ProblemLimit,
			Msg: "load stopped early (" + ctxReason(err) + "); the facts are partial"})
	}
	for i := range facts.Problems {
		facts.Problems[i].Msg = l.relMsg(facts.Problems[i].Msg)
	}
	facts.Normalize()
	l.opt.Results.sweep()
	l.opt.logf("golang: type-checking took %v for repository packages, %v for dependencies (summed over workers)",
		time.Duration(l.checkFull.Load()).Round(time.Millisecond), time.Duration(l.checkDecl.Load()).Round(time.Millisecond))
	l.opt.logf("golang: merged in %v; %s; total %v", time.Since(t).Round(time.Millisecond), facts.Summary(), time.Since(start).Round(time.Millisecond))
	return facts
}

func ctxReason(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "time limit reached"
	}
	return "cancelled"
}

// ignore combines the caller's Ignore with the directories the go command
// leaves out of "./..." and, with SkipTests, test files.
func (l *loader) ignore(rel string, isDir bool) bool {
	if l.opt.Ignore != nil && l.opt.Ignore(rel, isDir) {
		return true
	}
	name := path.Base(rel)
	if isDir {
		return !l.opt.AllDirs && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, "_"))
	}
	return l.opt.SkipTests && strings.HasSuffix(name, "_test.go")
}

// relOf returns the repository-relative path of an absolute file name, or
// false when it lies outside the root.
func (l *loader) relOf(abs string) (string, bool) {
	for _, r := range [2]string{l.root, l.given} {
		if rest, ok := strings.CutPrefix(abs, r); ok && len(rest) > 1 && os.IsPathSeparator(rest[0]) {
			return filepath.ToSlash(rest[1:]), true
		}
		if r == string(filepath.Separator) && filepath.IsAbs(abs) && len(abs) > 1 {
			return filepath.ToSlash(abs[1:]), true
		}
	}
	return "", false
}

// relDir is the repository-relative form of an absolute directory: "." for
// the root itself.
func (l *loader) relDir(abs string) (string, bool) {
	if abs == l.root || abs == l.given {
		return ".", true
	}
	return l.relOf(abs)
}

// Reasons a file was not type-checked, completed by the file's build
// constraint when it has one.
const (
	reasonExcluded  = "excluded by build constraints for"
	reasonNotListed = "not loaded by go list"
)

// reasonFor says why a file was not type-checked.
func (l *loader) reasonFor(rel string) string {
	dir := path.Dir(rel)
	if r, ok := l.reasons[dir]; ok {
		return r
	}
	if l.ignored[rel] {
		return reasonExcluded + " " + l.target()
	}
	if m := l.lay.moduleOf(dir); m != nil {
		if r, ok := l.reasons["module:"+m.dir]; ok {
			return r
		}
		if l.opt.SyntaxOnly {
			return "syntax-only analysis requested"
		}
		return reasonNotListed
	}
	if l.opt.SyntaxOnly {
		return "syntax-only analysis requested"
	}
	return "not inside a Go module (no go.mod)"
}

func (l *loader) target() string {
	goos, ok := envValue(l.env, "GOOS")
	if !ok || goos == "" {
		goos = runtime.GOOS
	}
	return goos + "/" + goarch(l.env)
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// relUnder returns target relative to base, slash-separated, when target
// is base or below it.
func relUnder(base, target string) (string, bool) {
	rel, err := filepath.Rel(base, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// relMsg removes the root's absolute path from a message, so problems read
// the same on every machine.
func (l *loader) relMsg(msg string) string {
	for _, r := range [2]string{l.root, l.given} {
		if r == "" || r == string(filepath.Separator) {
			continue
		}
		msg = strings.ReplaceAll(msg, r+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, r, ".")
	}
	return msg
}
