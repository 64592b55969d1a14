package refs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/urlfetch"
)

// Errors a Resolved may carry; check them with errors.Is. Containment,
// size and binary refusals carry analyze.ErrOutsideRoot, ErrTooLarge and
// ErrBinary; a missing Fetcher carries urlfetch.ErrDisabled.
var (
	ErrNotFound       = errors.New("no such file in the repository")
	ErrAmbiguous      = errors.New("several files match")
	ErrLineRange      = errors.New("line range outside the file")
	ErrPatternTooLong = errors.New("pattern too long")
	ErrBadPattern     = errors.New("invalid regular expression")
	ErrNoMatches      = errors.New("no matches")
	ErrNotSource      = errors.New("no source files there")
	ErrTooMany        = errors.New("too many references of this kind in one query")
	ErrIgnored        = errors.New("excluded by the repository's ignore rules")
)

// Status is the outcome of resolving one reference.
type Status uint8

const (
	StatusOK       Status = iota + 1 // resolved; see the kind's fields
	StatusFailed                     // see Err and Suggestions
	StatusDeferred                   // a symbol: ranking resolves it
)

func (s Status) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusFailed:
		return "failed"
	case StatusDeferred:
		return "deferred"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Fetcher fetches web pages; *urlfetch.Fetcher is one.
type Fetcher interface {
	Fetch(ctx context.Context, rawURL string) (*urlfetch.Page, error)
}

// Options configures Resolve. The zero value means the defaults below and
// no network.
type Options struct {
	MaxFileSize       int64         // per file read; 0 means analyze.MaxFileSize
	MaxMatchesPerFile int           // 0 means 10
	MaxMatches        int           // per search, in total; 0 means 100
	ContextLines      int           // lines around a match each side; 0 means 2, negative none
	MaxPatternLen     int           // bytes of a search text or pattern; 0 means 1024
	MaxSearchBytes    int64         // bytes read by one search; 0 means 256 MiB
	SearchTimeout     time.Duration // time one search may take; 0 means 10 s
	MaxSuggestions    int           // 0 means 5
	MaxDirFiles       int           // files listed for a directory reference; 0 means 200
	MaxSearches       int           // @search and @grep references run per query; 0 means 16
	MaxFetches        int           // @url references fetched per query; 0 means 8
	// Ignore, when set, is asked about a file or directory a reference
	// names by its exact path (as analyze.WalkOptions.Ignore); what it
	// ignores is refused with ErrIgnored. git's own .git is refused
	// whatever it says: it can hold credentials.
	Ignore  func(rel string, isDir bool) bool
	Fetcher Fetcher
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = analyze.MaxFileSize
	}
	def(&o.MaxMatchesPerFile, 10)
	def(&o.MaxMatches, 100)
	def(&o.ContextLines, 2)
	if o.ContextLines < 0 {
		o.ContextLines = 0
	}
	def(&o.MaxPatternLen, 1024)
	if o.MaxSearchBytes <= 0 {
		o.MaxSearchBytes = 256 << 20
	}
	if o.SearchTimeout <= 0 {
		o.SearchTimeout = 10 * time.Second
	}
	def(&o.MaxSuggestions, 5)
	def(&o.MaxDirFiles, 200)
	def(&o.MaxSearches, 16)
	def(&o.MaxFetches, 8)
	return o
}

// LineRange is a 1-based, inclusive range of lines.
type LineRange struct{ Start, End int }

// Match is one matching line of a search, with context.
type Match struct {
	Path         string
	Line         int      // 1-based
	Text         string   // the matching line (long lines cut)
	ContextStart int      // line number of Context[0]
	Context      []string // the lines around the match, the match included
}

// Resolved is the outcome of one reference.
type Resolved struct {
	Ref         query.Ref
	Status      Status
	Err         error    // why it failed
	Suggestions []string // for a failed file: candidates or close names

	// Files: the repository-relative path, its line count and the range
	// asked for, clamped to the file (zero: the whole file). A directory
	// gives the listed files under it in Files.
	Path  string
	Lines int
	Range LineRange
	Files []string

	// Searches: matches in path and line order; Truncated when a cap cut
	// them short. Searched and Skipped count files.
	Matches   []Match
	Truncated bool
	Searched  int
	Skipped   int

	// Web pages.
	Page *urlfetch.Page
}

// Resolve resolves refs against the repository at root, whose
// repository-relative, slash-separated listing is files (as from
// analyze.ListFiles). It returns one Resolved per ref, in order, and never
// fails as a whole: each reference carries its own error.
func Resolve(ctx context.Context, root string, files []string, refs []query.Ref, opt Options) []Resolved {
	return ResolveListed(ctx, root, func() []string { return files }, refs, opt)
}

// ResolveListed is Resolve with the listing read from list, only if a
// reference needs it: a directory, a search, a path that does not exist
// as written. References to existing files then cost no walk of the tree.
func ResolveListed(ctx context.Context, root string, list func() []string, refs []query.Ref, opt Options) []Resolved {
	opt = opt.withDefaults()
	ix := newListing(list)
	out := make([]Resolved, len(refs))
	// Each search reads the repository and each fetch may wait for its
	// time limit: a query holding hundreds of them would take hours.
	searches, fetches := 0, 0
	for i, ref := range refs {
		r := &out[i]
		r.Ref = ref
		if err := ctx.Err(); err != nil {
			r.fail(err)
			continue
		}
		switch ref.Kind {
		case query.RefFile:
			resolveFile(root, ix, ref, opt, r)
		case query.RefSearch, query.RefGrep:
			if searches++; searches > opt.MaxSearches {
				r.fail(fmt.Errorf("%w: only the first %d @search and @grep references run", ErrTooMany, opt.MaxSearches))
				continue
			}
			sorted, _ := ix.files()
			search(ctx, root, sorted, ref, opt, r)
		case query.RefURL:
			if fetches++; fetches > opt.MaxFetches {
				r.fail(fmt.Errorf("%w: only the first %d @url references are fetched", ErrTooMany, opt.MaxFetches))
				continue
			}
			fetch(ctx, ref, opt, r)
		case query.RefSymbol:
			r.Status = StatusDeferred
		default:
			r.fail(fmt.Errorf("unknown reference kind %d", ref.Kind))
		}
	}
	return out
}

func (r *Resolved) fail(err error) {
	r.Status, r.Err = StatusFailed, err
}

func fetch(ctx context.Context, ref query.Ref, opt Options, r *Resolved) {
	if opt.Fetcher == nil {
		r.fail(fmt.Errorf("%s: %w", ref.Value, urlfetch.ErrDisabled))
		return
	}
	p, err := opt.Fetcher.Fetch(ctx, ref.Value)
	if err != nil {
		r.fail(err)
		return
	}
	r.Status, r.Page = StatusOK, p
}

// Summary renders the outcome for stderr: a count line, then one line per
// reference saying what it loaded or why it failed and what might have
// been meant.
func Summary(rs []Resolved) string {
	if len(rs) == 0 {
		return ""
	}
	var ok, failed, deferred int
	for _, r := range rs {
		switch r.Status {
		case StatusOK:
			ok++
		case StatusFailed:
			failed++
		case StatusDeferred:
			deferred++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "@references: %d loaded, %d failed", ok, failed)
	if deferred > 0 {
		fmt.Fprintf(&b, ", %d symbol(s) left to ranking", deferred)
	}
	b.WriteString("\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "  %-8s %s", r.Status, r.Ref.Raw)
		if d := r.describe(); d != "" {
			b.WriteString(": " + d)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// describe says in a few words what the reference gave or why it failed.
func (r *Resolved) describe() string {
	if r.Status == StatusFailed {
		s := "unknown error"
		if r.Err != nil {
			// The line starts with the reference; do not say it twice.
			s = r.Err.Error()
			s = strings.TrimPrefix(s, r.Ref.Raw+": ")
			s = strings.TrimPrefix(s, r.Ref.Value+": ")
		}
		if len(r.Suggestions) > 0 {
			lead := "did you mean"
			if errors.Is(r.Err, ErrAmbiguous) {
				lead = "candidates"
			}
			s += "; " + lead + ": " + strings.Join(r.Suggestions, ", ")
		}
		return s
	}
	switch r.Ref.Kind {
	case query.RefFile:
		switch {
		case r.Files != nil:
			return fmt.Sprintf("%s/ (%d files)", strings.TrimSuffix(r.Path, "/"), len(r.Files))
		case r.Range.Start > 0:
			return fmt.Sprintf("%s lines %d-%d of %d", r.Path, r.Range.Start, r.Range.End, r.Lines)
		}
		return fmt.Sprintf("%s (%d lines)", r.Path, r.Lines)
	case query.RefSearch, query.RefGrep:
		files := map[string]bool{}
		for _, m := range r.Matches {
			files[m.Path] = true
		}
		s := fmt.Sprintf("%d matches in %d files (%d searched", len(r.Matches), len(files), r.Searched)
		if r.Skipped > 0 {
			s += fmt.Sprintf(", %d skipped", r.Skipped)
		}
		s += ")"
		if r.Truncated {
			s += ", capped"
		}
		return s
	case query.RefURL:
		if r.Page != nil {
			s := fmt.Sprintf("%s, %d bytes of text", r.Page.ContentType, len(r.Page.Text))
			if r.Page.FromCache {
				s += ", cached"
			}
			return s
		}
	case query.RefSymbol:
		return "resolved by ranking"
	}
	return ""
}
