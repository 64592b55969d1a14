package engine

import (
	"cmp"
	"context"
	"slices"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bundle"
)

// PrimeOptions says what Session.Prime warms, and how far.
type PrimeOptions struct {
	// Tokenizer, TokenMargin and Format are the queries' (Request's);
	// Format "" is JSON, whose sections hold a file's text both as it is
	// and escaped, so that one pass warms the counts every format uses.
	Tokenizer   string
	TokenMargin float64
	Format      string
	// Budget bounds the texts counted, as a query's budget does
	// (DefaultPrimeBudget when 0): a text too long to fit it is not.
	Budget int
	// MaxBytes bounds the text read, in files' order
	// (DefaultPrimeBytes when 0): priming more than the caches hold
	// would only push out what the first files left.
	MaxBytes int64
	// Batch is how many files are prepared between two calls of Pause
	// (8 when 0), on one goroutine each (bundle.Options.Workers).
	Batch, Workers int
	// Pause, when set, is called before each batch; a server waits in it
	// while queries run, so that priming takes only idle time. Its error
	// ends the priming.
	Pause func(context.Context) error
}

// Defaults of PrimeOptions.
const (
	DefaultPrimeBudget = 64000
	// DefaultPrimeBytes fits the process's caches: the engine's chunk
	// cache (counterCacheSize) holds about 20 MB of text counted as it is
	// and escaped, and the bundle's memo of escaped texts 48 MB, a
	// file's whole text and skeleton among them.
	DefaultPrimeBytes = 16 << 20
)

// Prime warms what a query's bundle would otherwise count and build on
// first sight of a file: it prepares the session's files as bundle.Build
// does (bundle.Prime), ordinary source first, then tests, then the rest,
// each group in path order, and keeps only what the process-wide caches
// keep (token counts, in LoadOptions.TokenMemo and the counter's own
// cache, and skeletons). Answers do not change, only their cost: the
// caches hold exact results. It returns how many files it prepared, and
// ctx's or Pause's error when either ended it early.
func (s *Session) Prime(ctx context.Context, opt PrimeOptions) (int, error) {
	if s.Facts == nil {
		return 0, nil
	}
	if opt.Budget <= 0 {
		opt.Budget = DefaultPrimeBudget
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultPrimeBytes
	}
	if opt.Batch <= 0 {
		opt.Batch = 8
	}
	if opt.Format == "" {
		opt.Format = "json"
	}
	format, err := bundle.ParseFormat(opt.Format)
	if err != nil {
		return 0, err
	}
	counter, err := counterFor(opt.Tokenizer, opt.TokenMargin)
	if err != nil {
		return 0, err
	}
	// Not through the on-disk token pack (tokens.go): a query looks in
	// the memo first, and a pack flushed with every file of the tree
	// would push out the counts queries stored. The memo's figures stay
	// the queries'.
	counter = s.loadOpts.TokenMemo.WrapUncounted(counter)
	files := primeOrder(s.Facts.Files, opt.MaxBytes)
	var read func(context.Context, string) ([]byte, error) // from disk, for a Session made by hand
	if s.content != nil {
		read = func(_ context.Context, p string) ([]byte, error) { return s.content.Peek(p) }
	}

	done := 0
	for len(files) > 0 {
		if opt.Pause != nil {
			if err := opt.Pause(ctx); err != nil {
				return done, err
			}
		}
		n := min(opt.Batch, len(files))
		req := bundle.Request{Root: s.Root, Budget: opt.Budget, Counter: counter, Format: format,
			Options: bundle.Options{Read: read, Workers: opt.Workers}}
		for _, id := range files[:n] {
			f := &s.Facts.Files[id]
			req.Files = append(req.Files, bundle.File{Path: f.Path, Lang: f.Lang, Category: f.Category.String(),
				Symbols: s.bundleSymbols(id)})
		}
		if err := bundle.Prime(ctx, req); err != nil {
			return done, err
		}
		done += n
		files = files[n:]
	}
	return done, nil
}

// primeOrder is the files Prime prepares, in its order, up to maxBytes
// of their text.
func primeOrder(all []analyze.File, maxBytes int64) []analyze.FileID {
	ids := make([]analyze.FileID, len(all))
	for i := range all {
		ids[i] = analyze.FileID(i)
	}
	group := func(c analyze.Category) int {
		switch c {
		case analyze.CatSource:
			return 0
		case analyze.CatTest:
			return 1
		}
		return 2
	}
	slices.SortFunc(ids, func(a, b analyze.FileID) int {
		fa, fb := &all[a], &all[b]
		return cmp.Or(cmp.Compare(group(fa.Category), group(fb.Category)), cmp.Compare(fa.Path, fb.Path))
	})
	var total int64
	for i, id := range ids {
		if total += all[id].Size; total > maxBytes {
			return ids[:i]
		}
	}
	return ids
}
