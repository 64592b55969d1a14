package config

import (
	"time"

	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/ignore"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Defaults of the expand settings; the CLI's flag defaults must agree
// (its tests check).
const (
	DefaultBudget    = 16000
	DefaultTokenizer = "o200k"
	DefaultFormat    = "markdown"
	DefaultStrategy  = "auto"
	DefaultMaxFiles  = 30
	MaxDepth         = expand.MaxDepth
)

// OriginDefault is the origin of a value nobody set.
const OriginDefault = "default"

// Settings are the effective values of every configurable setting, each
// with its origin: OriginDefault, the name of the configuration file, or
// whatever label the caller gives flags ("flag --budget").
type Settings struct {
	Budget    int
	Tokenizer string
	Format    string
	Strategy  string
	Depth     int
	MaxFiles  int
	NoTests   bool
	Timeout   time.Duration
	// SCIP lists SCIP index files (relative to the root) to read besides
	// index.scip at the root, which is read when present.
	SCIP []string

	Exclude       []string
	Include       []string
	Generated     []string
	SkipGenerated bool
	SkipVendored  bool

	Weights rank.Weights

	// File is the configuration file applied, as named to Load; "" when none.
	File string

	origins map[string]string
}

// Defaults returns the settings used when no file or flag says otherwise.
func Defaults() Settings {
	return Settings{
		Budget:    DefaultBudget,
		Tokenizer: DefaultTokenizer,
		Format:    DefaultFormat,
		Strategy:  DefaultStrategy,
		MaxFiles:  DefaultMaxFiles,
		Weights:   rank.DefaultWeights,
	}
}

// Origin says where the value of key ("budget", "files.exclude",
// "weights.seed"; see Keys) came from.
func (s *Settings) Origin(key string) string {
	if o, ok := s.origins[key]; ok {
		return o
	}
	return OriginDefault
}

// SetOrigin records where the value of key came from; callers that set a
// field from a flag call it with a label such as "flag --budget".
func (s *Settings) SetOrigin(key, origin string) {
	if s.origins == nil {
		s.origins = map[string]string{}
	}
	s.origins[key] = origin
}

// IgnoreOptions are the ignore rules the settings ask for.
func (s *Settings) IgnoreOptions() ignore.Options {
	return ignore.Options{
		Exclude:       append([]string(nil), s.Exclude...),
		Include:       append([]string(nil), s.Include...),
		Generated:     append([]string(nil), s.Generated...),
		SkipGenerated: s.SkipGenerated,
		SkipVendored:  s.SkipVendored,
	}
}

// weightFields maps the keys of the [weights] table to the fields of
// rank.Weights, in the order of the documentation.
var weightFields = []struct {
	key      string
	field    func(w *rank.Weights) *float64
	evidence bool // an evidence weight (not a category factor)
}{
	{"seed", func(w *rank.Weights) *float64 { return &w.Seed }, true},
	{"explicit", func(w *rank.Weights) *float64 { return &w.Explicit }, true},
	{"graph", func(w *rank.Weights) *float64 { return &w.Graph }, true},
	{"lexical", func(w *rank.Weights) *float64 { return &w.Lexical }, true},
	{"symbol_lexical", func(w *rank.Weights) *float64 { return &w.SymLexical }, true},
	{"path", func(w *rank.Weights) *float64 { return &w.Path }, true},
	{"test", func(w *rank.Weights) *float64 { return &w.Test }, false},
	{"generated", func(w *rank.Weights) *float64 { return &w.Generated }, false},
	{"vendored", func(w *rank.Weights) *float64 { return &w.Vendored }, false},
	{"example", func(w *rank.Weights) *float64 { return &w.Example }, false},
	{"history", func(w *rank.Weights) *float64 { return &w.History }, false},
	{"commits", func(w *rank.Weights) *float64 { return &w.Commits }, false},   // needs history, so it cannot be the only evidence
	{"cochange", func(w *rank.Weights) *float64 { return &w.CoChange }, false}, // reviews only, and needs history
}

// Keys lists every key of the file format, dotted, in the order ctxexpand
// config prints them.
func Keys() []string {
	keys := []string{"budget", "tokenizer", "format", "strategy", "depth", "max_files", "no_tests", "timeout", "scip",
		"files.exclude", "files.include", "files.generated", "files.skip_generated", "files.skip_vendored"}
	for _, wf := range weightFields {
		keys = append(keys, "weights."+wf.key)
	}
	return keys
}
