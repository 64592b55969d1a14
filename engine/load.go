package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang"
	"github.com/ctxexpand/ctxexpand/analyze/rust"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// LoadOptions configures Load.
type LoadOptions struct {
	// NoHistory leaves version-control history out of the ranking (for
	// tests over trees inside another repository, whose history moves).
	NoHistory bool
	SkipTests bool
	// Ignore is asked about every repository path before it is analysed.
	Ignore func(rel string, isDir bool) bool
	// Generated, when set, marks the files it reports as generated, so
	// that the ranker demotes them (vendored files stay vendored), and
	// IgnoreProblems is asked after loading for the problems met reading
	// ignore rules. ignore.Matcher's MatchGenerated and Problems fit.
	Generated      func(rel string) bool
	IgnoreProblems func() []analyze.Problem
	// AllowNetwork lets the Go loader download missing modules.
	AllowNetwork bool
	Logf         func(format string, args ...any)
	// Logger, when set, receives the structured log of the run (log.go);
	// the Go loader's lines go to it when Logf is nil.
	Logger *slog.Logger

	// Backend is BackendBuiltin (the default when empty) or BackendLSP:
	// ask a language server first and fall back to the built-in analysis,
	// with a problem saying why, when it fails.
	Backend string
	// LSPCmd is the language server's command line for BackendLSP; empty
	// means gopls for Go and rust-analyzer for Rust.
	LSPCmd string

	// SCIP lists SCIP index files (absolute, or relative to the root) whose
	// exact edges replace our by-name ones and which bring in languages we
	// have no loader for; index.scip at the root is read too when present,
	// unless NoSCIP (scip.go).
	SCIP   []string
	NoSCIP bool

	// Index, when set, is the on-disk index: unchanged inputs load from
	// it and what is computed is stored in it (indexed.go). IndexKey must
	// then name everything besides the files that changes what Ignore and
	// Generated say (the ignore rules' sources), since functions cannot
	// be fingerprinted.
	Index    *index.Store
	IndexKey string
	// Notice receives index notices (a corrupt entry rebuilt).
	Notice func(msg string)
	// OnIndexed is told what a load through the index did.
	OnIndexed func(IndexedLoad)
	// Progress, when set, is told each loader's phase and how far it is
	// ("go: type-checking packages", 120, 600); it is called from several
	// goroutines.
	Progress func(phase string, done, total int)

	// Resident marks a session that a long-running process keeps and
	// reopens when files change (reopen.go): it keeps the text of every
	// file its facts hold, as the load read it, so that its answers never
	// show a file saved since (source.go), and token counts stay in the
	// process instead of the index.
	Resident bool
	// TokenMemo, when set, remembers the token counts of whole texts
	// (sections of bundles, documents) across the queries of every
	// session opened with it: the resident server holds one for its
	// life, so that a query repeated or refined counts only what it has
	// not shown before. Counts, and so output, are the same with it.
	TokenMemo *tokenize.Memo

	packs    *packs         // set by loadIndexed for the loaders
	state    *indexedState  // filled by loadIndexed for Open
	resident *residentIndex // a resident session chain's memory (residentload.go)
	sources  *sourceSet     // the text a resident load read (source.go)
	changes  Changes        // what changed since the previous resident session
}

// Key names the options that change what a load holds besides the
// files: the configured ignore rules (IndexKey), the history prior and
// the SCIP indexes. A resident server answers only the queries whose
// load options have its key.
func (opt LoadOptions) Key() string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%q %v %q %v", opt.IndexKey, opt.NoHistory, opt.SCIP, opt.NoSCIP))
	return hex.EncodeToString(sum[:8])
}

// goOptions are the Go loader's options.
func (opt LoadOptions) goOptions() golang.Options {
	return golang.Options{SkipTests: opt.SkipTests, Ignore: opt.Ignore, AllowNetwork: opt.AllowNetwork,
		Logf: loaderLogf(opt, analyze.LangGo), Progress: opt.Progress, OnSource: opt.sources.hook()}
}

// loader is a language loader as the pipeline sees it.
type loader struct {
	lang analyze.Lang
	load func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error)
}

var loaders = []loader{
	{analyze.LangGo, func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
		return golang.Load(ctx, root, opt.packs.goOptions(opt.goOptions()))
	}},
	{analyze.LangRust, func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
		return rust.Load(ctx, root, opt.packs.rustOptions(rust.Options{SkipTests: opt.SkipTests, Ignore: opt.Ignore, Progress: opt.Progress, OnSource: opt.sources.hook()}))
	}},
}

// Load analyses every language present under root and merges the facts.
// It fails only when root cannot be read at all; a loader that fails is
// recorded as a problem and the other languages still load. A repository
// with neither Go nor Rust files gives empty facts and a problem saying so.
func Load(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
	loadStart := time.Now()
	if err := opt.checkBackend(); err != nil {
		return nil, err
	}
	if opt.Index != nil {
		return loadIndexed(ctx, root, opt)
	}
	files, probs, err := opt.packs.walked().ListFiles(ctx, root, "engine "+root, analyze.WalkOptions{Ignore: opt.Ignore})
	if err != nil && len(files) == 0 {
		if ctx.Err() != nil {
			return stoppedEarly(root, probs), nil
		}
		return nil, fmt.Errorf("reading %s: %w", root, err)
	}
	present := map[analyze.Lang]bool{}
	for _, f := range files {
		present[analyze.LangOf(f)] = true
	}
	merged := &analyze.Facts{Root: root}
	indexes := opt.scipIndexes(root)
	if len(present) == 0 {
		merged.Problems = append(merged.Problems, probs...)
		if len(indexes) == 0 {
			merged.Problemf(analyze.ProblemSkipped, "", 0, "no Go or Rust source files and no SCIP index found; nothing to analyse")
			applyIgnoreRules(merged, opt)
			return merged, nil
		}
	}
	results := make([]*analyze.Facts, len(loaders))
	errs := make([]error, len(loaders))
	var wg sync.WaitGroup
	for i, l := range loaders {
		if !present[l.lang] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			results[i], errs[i] = loadLang(ctx, l, root, opt)
			logPhase(ctx, opt.Logger, "load", start, append([]any{"lang", l.lang.String()}, factsAttrs(results[i])...)...)
		}()
	}
	wg.Wait()
	for i, l := range loaders {
		if errs[i] != nil {
			merged.Problemf(analyze.ProblemLoad, "", 0, "%s loader failed: %v", l.lang, errs[i])
		}
		if results[i] != nil {
			merged.Merge(results[i])
		}
	}
	applySCIP(ctx, root, merged, opt, indexes) // scip.go
	if ctx.Err() != nil {
		merged.Partial = true
	}
	applyIgnoreRules(merged, opt)
	merged.Normalize()
	logPhase(ctx, opt.Logger, "load", loadStart, append([]any{"lang", "all"}, factsAttrs(merged)...)...)
	return merged, nil
}

// applyIgnoreRules marks configured generated files and records the
// problems met reading ignore rules.
func applyIgnoreRules(facts *analyze.Facts, opt LoadOptions) {
	if opt.Generated != nil {
		for i := range facts.Files {
			f := &facts.Files[i]
			if f.Category != analyze.CatGenerated && f.Category != analyze.CatVendored && opt.Generated(f.Path) {
				f.Category = analyze.CatGenerated
			}
		}
	}
	if opt.IgnoreProblems != nil {
		facts.Problems = append(facts.Problems, opt.IgnoreProblems()...)
	}
}

// FindRoot is the repository that dir is in: the nearest ancestor of dir
// (dir included) holding go.mod, Cargo.toml, .git, go.work or index.scip;
// dir itself when none does.
func FindRoot(dir string) string {
	d := dir
	for {
		for _, marker := range []string{"go.mod", "Cargo.toml", ".git", "go.work", "index.scip"} {
			if _, err := os.Stat(d + string(os.PathSeparator) + marker); err == nil {
				return d
			}
		}
		parent := parentDir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func parentDir(d string) string {
	i := strings.LastIndexByte(strings.TrimRight(d, string(os.PathSeparator)), os.PathSeparator)
	if i <= 0 {
		if strings.HasPrefix(d, string(os.PathSeparator)) {
			return string(os.PathSeparator)
		}
		return d
	}
	return d[:i]
}
