package bundle

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// Format is the output format of a bundle.
type Format uint8

const (
	Markdown Format = iota // the zero value
	XML
	JSON
	Plain
)

var formatNames = [...]string{Markdown: "markdown", XML: "xml", JSON: "json", Plain: "plain"}

func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("format(%d)", f)
}

// ErrUnknownFormat is returned by ParseFormat.
var ErrUnknownFormat = errors.New("unknown format")

// ParseFormat parses a format name: markdown (md), xml, json, plain (text,
// txt). Case does not matter.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "markdown", "md", "":
		return Markdown, nil
	case "xml":
		return XML, nil
	case "json":
		return JSON, nil
	case "plain", "text", "txt":
		return Plain, nil
	}
	return 0, fmt.Errorf("%w %q: use markdown, xml, json or plain", ErrUnknownFormat, s)
}

// Rung is the level of detail a file gets in a bundle: the ladder runs
// from full down to omitted.
type Rung uint8

const (
	RungOmitted  Rung = iota // not in the bundle
	RungSummary              // one line: the path and its symbol names
	RungSkeleton             // signatures, type definitions and doc comments; bodies elided
	RungSpans                // the relevant spans with imports and context lines
	RungFull                 // the whole file
	numRungs
)

var rungNames = [...]string{"omitted", "summary", "skeleton", "spans", "full"}

func (r Rung) String() string {
	if int(r) < len(rungNames) {
		return rungNames[r]
	}
	return fmt.Sprintf("rung(%d)", r)
}

// Truncation is how a single span (or file, or extra) that alone exceeds
// what is left of the budget is cut down.
type Truncation uint8

const (
	// SignatureFirst keeps the declaration lines (doc comment and
	// signature) of every span, then as many body lines as fit, in span
	// order. The zero value.
	SignatureFirst Truncation = iota
	// Bookend keeps the head and the tail of every span with an elision
	// marker in between.
	Bookend
)

func (t Truncation) String() string {
	if t == Bookend {
		return "bookend"
	}
	return "signature-first"
}

// ErrUnknownTruncation is returned by ParseTruncation.
var ErrUnknownTruncation = errors.New("unknown truncation mode")

// ParseTruncation parses "signature-first" (or "signature") and "bookend".
func ParseTruncation(s string) (Truncation, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "signature-first", "signature", "":
		return SignatureFirst, nil
	case "bookend":
		return Bookend, nil
	}
	return 0, fmt.Errorf("%w %q: use signature-first or bookend", ErrUnknownTruncation, s)
}

// Span is a relevant region of a file: lines Start to End, 1-based and
// inclusive, usually one symbol's declaration.
type Span struct {
	Start, End int
	Symbol     string // the symbol the span shows, "" if none
	// Rank is the span's place in relevance order, 0 the most relevant.
	// When ranks differ, a file whose spans do not all fit may show only
	// its most relevant ones; spans of equal rank go together.
	Rank int
}

// Symbol is a declaration of a file, as the skeleton and summary rungs need
// it. Kind is an analyze.SymbolKind name ("func", "method", "struct",
// "impl", "trait", ...).
type Symbol struct {
	Name, Container, Kind string
	Start, End, DeclLine  int // lines, 1-based; Start includes the doc comment
	Signature, Doc        string
}

// File is one ranked file to put in the bundle.
type File struct {
	Path     string // repository-relative, slash-separated
	Lang     analyze.Lang
	Score    float64
	Reasons  []string // why the file is relevant, best first
	Explicit bool     // named by an @reference: placed first, cut last
	Spans    []Span   // relevant spans; none means the whole file is the unit
	Symbols  []Symbol // the file's symbols (top-level at least)
	Category string   // analyze.Category name: "source", "test", ...
	// ReadAt is the file's place in the reading order, from 1: when any
	// file has one, the bundle shows its files in that order (explicit
	// ones first), while what fits the budget is still chosen in the
	// order of Request.Files. 0 keeps the order of Request.Files.
	ReadAt int
	// SpansOnly shows the file at most as its spans (with context): the
	// whole file is not an option when the spans are a part of it. A
	// review sets it for the files under review, whose change the diff
	// already shows, so that their whole text does not crowd out the
	// tests and the code around the change.
	SpansOnly bool
	// Companion plans the file right after the explicit items, with what
	// they leave and before any implicit file, although no @reference
	// named it. A review sets it for the tests of the files under review,
	// which a reviewer reads beside the diff: planned with the implicit
	// files, they lost what the diff and the changed code left to
	// smaller, lower-ranked files.
	Companion bool
}

// Extra is explicit content that is not a repository file: the text of an
// @url, the results of an @grep or @search, a placeholder for a reference
// that failed. Extras come first in the bundle, before every file.
type Extra struct {
	Kind    string // "url", "grep", "search", "ref", ...
	Title   string // what the user wrote, e.g. "@https://example.com/doc"
	Content string
	Lang    string // language tag for the content, "" for plain text
}

// Options tune assembly. The zero value means the defaults.
type Options struct {
	// ContextLines is how many lines around each span are shown; 0 means
	// DefaultContextLines, a negative value none.
	ContextLines int
	// Truncation says how an item too large for what is left is cut.
	Truncation Truncation
	// MaxFileSize caps what is read of a file; 0 means analyze.MaxFileSize.
	MaxFileSize int64
	// Read, when set, replaces reading Request.Root with
	// analyze.ReadSource (for content from a git object store, say).
	Read func(ctx context.Context, path string) ([]byte, error)
	// Workers bounds the files prepared at once; 0 means GOMAXPROCS.
	Workers int
}

// DefaultContextLines is the number of context lines around a span.
const DefaultContextLines = 3

// Request is everything Build needs.
type Request struct {
	Query, Strategy string
	Commit          string // the git commit the bundle was made from, "" if none
	Root            string // repository root; files are read with analyze.ReadSource
	Budget          int    // tokens; the emitted output, counted by Counter, never exceeds it
	Counter         tokenize.Counter
	Format          Format
	Files           []File   // ranked, best first
	Extras          []Extra  // explicit non-file content, always first
	Notes           []string // problems and warnings to show in the summary
	Options         Options
}

// Result is an assembled bundle and the account of what went into it.
type Result struct {
	Output      []byte
	TotalTokens int // the Counter's count of Output
	Budget      int
	Tokenizer   string // Counter.Name()
	Format      Format
	Files       []FileResult  // one per Request.Files entry, in request order
	Extras      []ExtraResult // one per Request.Extras entry
	Counts      Counts
	Omitted     []string // paths of omitted files, in rank order
}

// FileResult says what a file got.
type FileResult struct {
	Path      string
	Score     float64
	Explicit  bool
	Rung      Rung
	Truncated bool       // the rung's content was cut to fit (see Truncation)
	Mode      Truncation // how, when Truncated
	Included  bool       // Rung > RungOmitted
	Tokens    int        // tokens of the file's section in Output
	// Reason says why the file is below the full rung (or omitted): "budget",
	// "no spans", "unreadable: ...". Empty at the full rung.
	Reason string
	// Costs[r] is what the file's section would cost at rung r, 0 when the
	// rung was not available or not measured (too large to ever fit).
	Costs [numRungs]int
	// Lines are the line ranges of the file whose text is shown, sorted:
	// every line at the full rung, the shown spans at the spans rung (a
	// truncated rung shows less); none at the other rungs.
	Lines []LineRange
}

// LineRange is a range of lines, 1-based, inclusive.
type LineRange struct{ Start, End int }

// ExtraResult says what an extra got: RungFull, RungSummary (its title
// only) or RungOmitted, possibly Truncated.
type ExtraResult struct {
	Title     string
	Rung      Rung
	Truncated bool
	Tokens    int
}

// Counts summarises a bundle.
type Counts struct {
	Files, Included, Omitted int
	ByRung                   [numRungs]int // files per rung (RungOmitted included)
	Truncated                int           // included files whose content was cut
	Extras, ExtrasIncluded   int
	NotesOmitted             int // request notes left out for the budget
}
