package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// counters keeps one token counter per tokenizer for the life of the
// process, so that the per-content count cache is shared across queries:
// by the name and margin asked for, and by the counter's own name, which
// two spellings of one tokenizer ("", "o200k", "o200k_base") share.
var counters sync.Map // name*margin or "="+Counter.Name() → tokenize.Counter

// counterCacheSize is how many chunk counts an engine's counter keeps
// (tokenize.WithCacheSize): four times the package's default, room for
// the text of a tree of about 20 MB counted as it is and escaped, which
// a server primes (prime.go). The cache grows only as it fills.
const counterCacheSize = 4 * tokenize.DefaultCacheSize

// CounterName is the name of the counter a request's Tokenizer and
// TokenMargin select (tokenize.Counter.Name): the same for every
// spelling of one tokenizer.
func CounterName(tokenizer string, margin float64) (string, error) {
	c, err := counterFor(tokenizer, margin)
	if err != nil {
		return "", err
	}
	return c.Name(), nil
}

func counterFor(name string, margin float64) (tokenize.Counter, error) {
	key := fmt.Sprintf("%s*%g", name, margin)
	if c, ok := counters.Load(key); ok {
		return c.(tokenize.Counter), nil
	}
	c, err := tokenize.New(name, tokenize.WithMargin(margin), tokenize.WithCacheSize(counterCacheSize))
	if err != nil {
		return nil, err
	}
	actual, _ := counters.LoadOrStore("="+c.Name(), c)
	counters.Store(key, actual)
	return actual.(tokenize.Counter), nil
}

// bundleRequest turns a query's outcome into a bundle request.
func (s *Session) bundleRequest(out *Output, req Request) (bundle.Request, error) {
	format, err := bundle.ParseFormat(req.Format)
	if err != nil {
		return bundle.Request{}, err
	}
	counter, err := counterFor(req.Tokenizer, req.TokenMargin)
	if err != nil {
		return bundle.Request{}, err
	}
	counter = s.tokens.counter(counter) // tokens.go
	counter = s.loadOpts.TokenMemo.Wrap(counter)
	trunc, err := bundle.ParseTruncation(req.Truncation)
	if err != nil {
		return bundle.Request{}, err
	}
	br := bundle.Request{
		Query:    out.Plan.Text,
		Strategy: strings.Join(out.Result.Strategies, "+"),
		Commit:   s.Commit(),
		Root:     s.Root,
		Budget:   req.Budget,
		Counter:  counter,
		Format:   format,
		Options: bundle.Options{
			Read:         func(_ context.Context, p string) ([]byte, error) { return s.content.ByPath(p) },
			Truncation:   trunc,
			ContextLines: req.ContextLines,
		},
	}
	for _, e := range out.Extras {
		br.Extras = append(br.Extras, bundle.Extra{Kind: e.Kind, Title: e.Title, Content: e.Content, Lang: e.Lang})
	}
	underReview := make(map[string]bool, len(req.Changed))
	for _, p := range req.Changed {
		underReview[p] = true
	}
	// The best-ranked tests of the files under review, by name or by the
	// module path of a Rust integration test, are planned right after
	// them: the reviewer reads them beside the diff. When they leave room,
	// so is the test that best spells the change's words.
	companion := map[string]bool{}
	if len(req.Changed) > 0 {
		spelled := false // the best-spelling test is ranked, and not explicit
		for _, f := range out.Result.Files {
			if f.Explicit || f.Category != analyze.CatTest {
				continue
			}
			spelled = spelled || f.Path == out.spelledBest
			if len(companion) < reviewCompanions && testsOf(f.Path, f.Lang.String(), req.Changed) {
				companion[f.Path] = true
			}
		}
		if spelled && len(companion) < reviewCompanions {
			companion[out.spelledBest] = true
		}
	}
	for _, f := range out.Result.Files {
		bf := bundle.File{
			Path:     f.Path,
			Lang:     f.Lang,
			Score:    f.Score,
			Reasons:  f.Reasons,
			Explicit: f.Explicit,
			Category: f.Category.String(),
			ReadAt:   f.ReadAt,
			// The diff shows the change: its files are shown as their
			// changed symbols, not whole, and so are the tests planned
			// with them (their tests of the change, not the file).
			SpansOnly: underReview[f.Path] || companion[f.Path],
			Companion: companion[f.Path],
		}
		for _, sp := range f.Spans {
			bf.Spans = append(bf.Spans, bundle.Span{Start: sp.Start, End: sp.End, Symbol: sp.Symbol, Rank: sp.Rank})
		}
		bf.Symbols = s.bundleSymbols(f.File)
		br.Files = append(br.Files, bf)
	}
	if out.Partial {
		// First, so that the cap on notes never drops it.
		br.Notes = append(br.Notes, "partial result: a time limit cut the analysis short")
	}
	br.Notes = append(br.Notes, out.Notes...)
	return br, nil
}

// bundleSymbols are a file's symbols as the bundle shows them.
func (s *Session) bundleSymbols(file analyze.FileID) []bundle.Symbol {
	var out []bundle.Symbol
	for _, sid := range s.Facts.SymbolsIn(file) {
		sym := &s.Facts.Symbols[sid]
		out = append(out, bundle.Symbol{
			Name: sym.Name, Container: sym.Container, Kind: sym.Kind.String(),
			Start: sym.Start, End: sym.End, DeclLine: sym.DeclLine,
			Signature: sym.Signature, Doc: sym.Doc,
		})
	}
	return out
}

// reviewCompanions is how many tests of the files under review a review's
// bundle plans with them (bundle.File.Companion), the best-ranked first:
// enough for the tests of a change to two or three files, few enough that
// a file with a dozen tests named after it (tests/route.rs,
// tests/route_fail.rs, …) does not take the bundle from the code.
const reviewCompanions = 2

// assemble builds the bundle of a query's outcome.
func (s *Session) assemble(ctx context.Context, out *Output, req Request) (*bundle.Result, error) {
	br, err := s.bundleRequest(out, req)
	if err != nil {
		return nil, err
	}
	res, err := bundle.Build(ctx, br)
	if err != nil {
		return nil, fmt.Errorf("assembling the bundle: %w", err)
	}
	s.tokens.flush(s.index, s.Root)
	return res, nil
}

// IncludedAt is the list of files whose relevant content is in the bundle
// of a query's outcome at the given budget (for the benchmark's inc@B): a
// file counts when it got its full text or its relevant spans. It also
// returns, per included file, the lines the bundle shows.
func (s *Session) IncludedAt(ctx context.Context, out *Output, req Request, budget int) ([]string, map[string][]bundle.LineRange, error) {
	req.Budget = budget
	if req.Format == "" {
		req.Format = "markdown"
	}
	res, err := s.assemble(ctx, out, req)
	if err != nil {
		return nil, nil, err
	}
	var inc []string
	lines := map[string][]bundle.LineRange{}
	for _, f := range res.Files {
		if f.Rung >= bundle.RungSpans {
			inc = append(inc, f.Path)
			lines[f.Path] = f.Lines
		}
	}
	return inc, lines, nil
}
