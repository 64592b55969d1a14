package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Request is one query against a repository.
//
// Its JSON form is what a client sends the resident server (ctxexpand
// serve): every field travels but Load, whose functions, loggers and
// index cannot, and which the server's own session replaces. Slices and
// structs are omitted when zero (omitzero), so that a request survives a
// trip through JSON unchanged.
type Request struct {
	// Root is the repository; a server answers with its own spelling of
	// the root it serves.
	Root      string `json:"root,omitempty"`
	Query     string `json:"query,omitempty"`
	Budget    int    `json:"budget,omitempty"`
	MaxFiles  int    `json:"max_files,omitempty"`
	Depth     int    `json:"depth,omitempty"`
	Strategy  string `json:"strategy,omitempty"`
	Format    string `json:"format,omitempty"`
	Tokenizer string `json:"tokenizer,omitempty"`
	NoTests   bool   `json:"no_tests,omitempty"`
	NoNetwork bool   `json:"no_network,omitempty"`
	// Planner is "heuristic" (the default) or "ollama", which asks a local
	// model (OllamaHost, OllamaModel; empty means $OLLAMA_HOST and
	// $OLLAMA_MODEL) and falls back to the heuristic plan with a warning.
	Planner     string `json:"planner,omitempty"`
	OllamaHost  string `json:"ollama_host,omitempty"`
	OllamaModel string `json:"ollama_model,omitempty"`

	// Explicit places to pin first, besides the query's @references (diff
	// mode passes the changed spans here), and Extras to lead the bundle
	// (diff hunks).
	Explicit []expand.Explicit `json:"explicit,omitzero"`
	Extras   []Extra           `json:"extras,omitzero"`
	// Notes from the caller (what diff mode skipped or found deleted),
	// shown before the run's own on stderr and in the bundle.
	Notes []string `json:"notes,omitzero"`

	// Truncation ("signature-first" or "bookend"), TokenMargin (a factor
	// for model families whose tokenizer is not public) and ContextLines
	// (around each span; 0 means the default) tune the bundle.
	Truncation   string  `json:"truncation,omitempty"`
	TokenMargin  float64 `json:"token_margin,omitempty"`
	ContextLines int     `json:"context_lines,omitempty"`
	// Weights of the hand-weighted ranking; the zero value means
	// rank.DefaultWeights.
	Weights rank.Weights `json:"weights,omitzero"`
	// Ranker is expand.RankerAuto (by the query's kind), RankerLearned
	// (the shipped model, see model.go) or RankerHand; empty means
	// expand.DefaultRanker.
	Ranker string `json:"ranker,omitempty"`
	// Changed are the files a review's change touches (set by
	// ReviewRequest); past commits that touched them say which other
	// files change with them, and the bundle shows them as their changed
	// code.
	Changed []string `json:"changed,omitzero"`
	// ChangedLines are a review's added and removed lines (set by
	// ReviewRequest): the tests that spell their words are likely the
	// tests of the change.
	ChangedLines []string `json:"changed_lines,omitzero"`
	// Kind, when set, is the query's kind instead of the one the planner
	// reads from its text (diff review sets query.KindDiff).
	Kind query.Kind `json:"kind,omitempty"`
	// Features asks for the candidates' feature vectors in
	// Output.Result.Candidates (training data).
	Features bool `json:"features,omitempty"`
	// TextWeights are the heuristic planner's weights for issue-shaped
	// text; the zero value means query.DefaultTextWeights (the benchmark
	// sets others to fit them).
	TextWeights query.TextWeights `json:"text_weights,omitzero"`
	// Load is how Run loads the repository (Session.Query ignores it). It
	// holds functions and open handles, so it never travels as JSON.
	Load LoadOptions `json:"-"`

	// Backend and LSPCmd choose the analysis, as in LoadOptions (Run
	// only).
	Backend string `json:"backend,omitempty"`
	LSPCmd  string `json:"lsp_cmd,omitempty"`
}

// ErrNoQuery says a request names nothing to look for: no query text, no
// explicit place, and it is not a diff review.
var ErrNoQuery = errors.New("empty query")

// RequestError says which field of a Request is out of range. Its
// message names fields by their JSON names ("max_files must be positive,
// got 0"); [RequestError.Text] names them as a door's users know them
// (the command line's --max-files).
type RequestError struct {
	// Field is the JSON name of the field at fault.
	Field string
	// Err, when set, is the error behind the fault (an unknown strategy,
	// ErrNoQuery), whose words stand on their own.
	Err error

	format string // the message, with {field} where a field is named
	args   []any
}

func (e *RequestError) Error() string { return e.Text(func(f string) string { return f }) }

// Unwrap returns the error behind the fault, if any.
func (e *RequestError) Unwrap() error { return e.Err }

// Text is the message with each field it names called name(field).
func (e *RequestError) Text(name func(field string) string) string {
	var b strings.Builder
	f := e.format
	for {
		i := strings.IndexByte(f, '{')
		j := strings.IndexByte(f, '}')
		if i < 0 || j < i {
			b.WriteString(f)
			break
		}
		b.WriteString(f[:i])
		b.WriteString(name(f[i+1 : j]))
		f = f[j+1:]
	}
	return fmt.Sprintf(b.String(), e.args...)
}

func badField(field, format string, args ...any) *RequestError {
	return &RequestError{Field: field, format: format, args: args}
}

// Validate checks the request's settings before anything is loaded, in
// the order the command line's flags are listed, and returns the first
// fault as a *RequestError. Zero values are the defaults: a zero Budget
// ranks without a bundle, a zero MaxFiles keeps 30 files, empty names
// choose the default strategy, format, planner and ranker. The tokenizer
// and its margin, the truncation and the context lines are checked when
// the bundle is made. [Run] and
// [Session.Query] validate every request; a caller validates first to
// refuse a request before paying for a load.
func (r *Request) Validate() error { return r.validate(false) }

// ValidateBundle is Validate for a request that must end in a bundle of a
// chosen length, as the command line's does (its flags have no unset
// value): a zero Budget or MaxFiles is refused too.
func (r *Request) ValidateBundle() error { return r.validate(true) }

func (r *Request) validate(bundled bool) error {
	if r.Budget < 0 || (bundled && r.Budget == 0) {
		return badField("budget", "{budget} must be a positive number of tokens, got %d", r.Budget)
	}
	if r.MaxFiles < 0 || (bundled && r.MaxFiles == 0) {
		return badField("max_files", "{max_files} must be positive, got %d", r.MaxFiles)
	}
	if expand.CheckDepth(r.Depth) != nil {
		return badField("depth", "{depth} must be between 0 and %d, got %d", expand.MaxDepth, r.Depth)
	}
	if _, err := expand.Lookup(r.Strategy, "focused"); err != nil {
		e := badField("strategy", "{strategy}: %v", err)
		e.Err = err
		return e
	}
	if r.Format != "" {
		if _, err := bundle.ParseFormat(r.Format); err != nil {
			return badField("format", "{format} must be markdown, xml, json or plain, got %q", r.Format)
		}
	}
	switch r.Planner {
	case "", "heuristic", "ollama":
	default:
		return badField("planner", "{planner} must be heuristic or ollama, got %q", r.Planner)
	}
	switch r.Ranker {
	case "", expand.RankerAuto, expand.RankerLearned, expand.RankerHand:
	default:
		return badField("ranker", "{ranker} must be %s, %s or %s, got %q", expand.RankerAuto, expand.RankerLearned, expand.RankerHand, r.Ranker)
	}
	kind := r.Kind
	if kind != "" {
		k, ok := query.ParseKind(string(kind))
		if !ok {
			return badField("kind", "unknown query {kind} %q: use one of %v", r.Kind, query.Kinds)
		}
		kind = k
	}
	if strings.TrimSpace(r.Query) == "" && len(r.Explicit) == 0 && kind != query.KindDiff {
		e := badField("query", "%v", ErrNoQuery)
		e.Err = ErrNoQuery
		return e
	}
	return nil
}
