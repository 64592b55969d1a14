package rust

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/pool"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/cargo"
	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
)

// Options configures Load. The zero value loads everything with the
// default limits on all CPUs.
type Options struct {
	// SkipTests leaves out test code: files classified as tests
	// (tests/, *_test.rs, tests.rs), #[cfg(test)] items and #[test]
	// functions.
	SkipTests bool
	// MaxFileSize skips larger files with a ProblemSkipped; 0 means
	// analyze.MaxFileSize.
	MaxFileSize int64
	// MaxFiles stops listing after this many files (ProblemLimit); 0 means
	// no limit.
	MaxFiles int
	// Ignore, when set, is asked about every path (slash-separated,
	// relative to the root) before it is listed or descended into.
	Ignore func(rel string, isDir bool) bool
	// Workers is how many files are parsed, and then resolved, at once;
	// 0 means GOMAXPROCS. It does not change the facts.
	Workers int

	// Progress, when set, is told how many files are parsed, out of how
	// many, and when resolution starts. It is called from several
	// goroutines.
	Progress func(phase string, done, total int)

	// Cache, when set, keeps each file's extraction between loads, keyed
	// by its content (cache.go); CacheSalt is added to every key (the
	// caller's program version). FileHash, when set, gives a file's
	// content hash (hex SHA-256) without reading it, so that an unchanged
	// file whose record is cached is not read at all.
	Cache     Cache
	CacheSalt string
	FileHash  func(rel string) (string, bool)

	// OnSource, when set, is given the text of every file the load
	// reads, as read, with its content hash (a file whose record comes
	// from Cache unread is not given). It is called from several
	// goroutines; src must not be changed.
	OnSource func(rel, hash string, src []byte)

	// Walks, when set, keeps the listing of the Rust files for the next
	// load with the same Walks and options, until its owner forgets it
	// (analyze.Walks).
	Walks *analyze.Walks
}

// ErrNotDir is returned by Load when the root is not a directory.
var ErrNotDir = errors.New("not a directory")

// Load reads the Rust code under root into facts. It fails only when root
// cannot be read; broken files, missing modules and workspace members, and
// files that cannot be parsed become Problems and the rest is loaded. When
// ctx ends early the facts hold what was done and Partial is set.
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
		return nil, fmt.Errorf("loading %s: %w; pass the repository directory", root, ErrNotDir)
	}
	facts := &analyze.Facts{Root: abs}
	paths, probs, err := opt.Walks.ListFiles(ctx, abs, "rust "+abs, analyze.WalkOptions{
		Langs: []analyze.Lang{analyze.LangRust}, MaxFileSize: opt.MaxFileSize, MaxFiles: opt.MaxFiles, Ignore: opt.Ignore,
	})
	facts.Problems = append(facts.Problems, probs...)
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("loading %s: %w", root, err)
	}
	if opt.SkipTests {
		kept := make([]string, 0, len(paths)) // paths may be shared (Walks)
		for _, p := range paths {
			if analyze.Classify(p) != analyze.CatTest {
				kept = append(kept, p)
			}
		}
		paths = kept
	}

	// Manifests are read while the files are parsed.
	var (
		pkgs        map[string]*cargo.Package
		pkgProblems []analyze.Problem
		wg          conc.WaitGroup
	)
	wg.Go(func() { pkgs, pkgProblems = cargo.Discover(abs, paths) })
	results := parseAll(ctx, abs, paths, opt)
	wg.Wait()
	facts.Problems = append(facts.Problems, pkgProblems...)

	if opt.Progress != nil {
		opt.Progress("rust: resolving names", 0, 0)
	}
	resolve.Resolve(ctx, facts, results, pkgs, opt.Workers)
	if ctx.Err() != nil {
		facts.Partial = true
		facts.Problemf(analyze.ProblemLimit, "", 0, "load stopped early (%v); the facts are partial", ctx.Err())
	}
	facts.Normalize()
	return facts, nil
}

// parseAll reads and extracts every file on a bounded pool of workers,
// each with its own parser. Results keep the order of paths.
func parseAll(ctx context.Context, root string, paths []string, opt Options) []resolve.Parsed {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(1, len(paths)))
	results := make([]resolve.Parsed, len(paths))

	var mu sync.Mutex
	var all []*tsParser
	idle := make(chan *tsParser, workers)
	for i := 0; i < workers; i++ {
		tp := newTSParser()
		all = append(all, tp)
		idle <- tp
	}
	cancelled, closed := false, false
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if closed {
			return // the flags are freed
		}
		cancelled = true
		for _, tp := range all {
			tp.flag.set()
		}
	})
	var parsedCount atomic.Int64
	p := pool.New().WithMaxGoroutines(workers)
	for i, rel := range paths {
		if ctx.Err() != nil {
			break
		}
		p.Go(func() {
			if ctx.Err() != nil {
				return
			}
			tp := <-idle
			res, broken := parseOne(ctx, tp, root, rel, opt)
			if broken {
				// A panic may have left the parser in any state: replace it.
				fresh := newTSParser()
				mu.Lock()
				all = append(all, fresh)
				if cancelled {
					fresh.flag.set()
				}
				mu.Unlock()
				tp = fresh
			}
			results[i] = res
			if opt.Progress != nil {
				opt.Progress("rust: parsing files", int(parsedCount.Add(1)), len(paths))
			}
			idle <- tp
		})
	}
	p.Wait()
	stop()
	// The AfterFunc may be running even though stop returned; the lock
	// makes it finish before, or skip, touching the flags freed here.
	mu.Lock()
	closed = true
	for _, tp := range all {
		tp.close()
	}
	mu.Unlock()
	return results
}

// parseOne reads and extracts one file. broken reports a recovered panic.
func parseOne(ctx context.Context, tp *tsParser, root, rel string, opt Options) (res resolve.Parsed, broken bool) {
	defer func() {
		if v := recover(); v != nil {
			res = resolve.Parsed{Problems: []analyze.Problem{{Kind: analyze.ProblemSkipped, Path: rel,
				Msg: fmt.Sprintf("internal error while parsing, file skipped: %v", v)}}}
			broken = true
		}
	}()
	known := ""
	if opt.FileHash != nil {
		if h, ok := opt.FileHash(rel); ok {
			if res, ok := opt.cached(rel, h); ok {
				return res, false
			}
			known = h
		}
	}
	src, err := readListed(root, rel, opt.MaxFileSize)
	if err != nil {
		return resolve.Parsed{Problems: []analyze.Problem{{Kind: analyze.ProblemSkipped, Path: rel, Msg: skipReason(err)}}}, false
	}
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:])
	if opt.OnSource != nil {
		opt.OnSource(rel, hash, src)
	}
	if hash != known {
		if res, ok := opt.cached(rel, hash); ok {
			return res, false
		}
	}
	cat := analyze.Classify(rel)
	if cat == analyze.CatSource && analyze.IsGeneratedContent(src) {
		cat = analyze.CatGenerated
	}
	syn := extract(tp, src, opt.SkipTests)
	if syn == nil {
		if ctx.Err() != nil {
			return resolve.Parsed{}, false
		}
		return resolve.Parsed{Problems: []analyze.Problem{{Kind: analyze.ProblemSkipped, Path: rel,
			Msg: fmt.Sprintf("parsing took longer than %v; file skipped", parseTimeout)}}}, false
	}
	res = finishParsed(analyze.File{Path: rel, Lang: analyze.LangRust, Category: cat, Size: int64(len(src)), Hash: hash}, syn)
	opt.store(res)
	return res, false
}

// finishParsed completes a file's outcome from its extraction: the
// counts the syntax gives and the problem of a file with syntax errors.
func finishParsed(f analyze.File, syn *resolve.FileSyntax) resolve.Parsed {
	f.Lines, f.Errors = syn.Lines, syn.Errors
	res := resolve.Parsed{File: f, Syn: syn}
	if syn.Errors > 0 {
		res.Problems = append(res.Problems, analyze.Problem{Kind: analyze.ProblemSyntax, Path: f.Path, Line: syn.ErrLine,
			Msg: fmt.Sprintf("tree-sitter could not parse %d region(s), the first here (invalid Rust, or syntax newer than the grammar); declarations outside them are kept", syn.Errors)})
	}
	return res
}

func skipReason(err error) string {
	switch {
	case errors.Is(err, analyze.ErrBinary):
		return "binary content; not analysed"
	case errors.Is(err, analyze.ErrTooLarge):
		return "larger than the file size limit; not analysed"
	case errors.Is(err, analyze.ErrOutsideRoot):
		return "leaves the repository root; not analysed"
	}
	return "unreadable: " + err.Error()
}
