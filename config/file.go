package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	toml "github.com/pelletier/go-toml/v2"
)

// FileName is the configuration file looked for at the repository root.
const FileName = ".ctxexpand.toml"

// maxFileSize bounds what Load reads; a configuration file is a few lines.
const maxFileSize = 1 << 20

// ErrNotFound is returned by Load for a file that does not exist.
var ErrNotFound = errors.New("configuration file not found")

// File is a parsed, validated configuration file. Only the keys it sets
// are applied over other settings.
type File struct {
	// Name is the file as named to Load or Parse, for messages and origins.
	Name string
	raw  rawFile
}

// rawFile is the TOML layout; nil means "not set".
type rawFile struct {
	Budget    *int      `toml:"budget"`
	Tokenizer *string   `toml:"tokenizer"`
	Format    *string   `toml:"format"`
	Strategy  *string   `toml:"strategy"`
	Depth     *int      `toml:"depth"`
	MaxFiles  *int      `toml:"max_files"`
	NoTests   *bool     `toml:"no_tests"`
	Timeout   *Duration `toml:"timeout"`
	SCIP      *[]string `toml:"scip"`

	Files   *rawFiles   `toml:"files"`
	Weights *rawWeights `toml:"weights"`
}

type rawFiles struct {
	Exclude       *[]string `toml:"exclude"`
	Include       *[]string `toml:"include"`
	Generated     *[]string `toml:"generated"`
	SkipGenerated *bool     `toml:"skip_generated"`
	SkipVendored  *bool     `toml:"skip_vendored"`
}

type rawWeights struct {
	Seed          *float64 `toml:"seed"`
	Explicit      *float64 `toml:"explicit"`
	Graph         *float64 `toml:"graph"`
	Lexical       *float64 `toml:"lexical"`
	SymbolLexical *float64 `toml:"symbol_lexical"`
	Path          *float64 `toml:"path"`
	Test          *float64 `toml:"test"`
	Generated     *float64 `toml:"generated"`
	Vendored      *float64 `toml:"vendored"`
	Example       *float64 `toml:"example"`
	History       *float64 `toml:"history"`
	Commits       *float64 `toml:"commits"`
	CoChange      *float64 `toml:"cochange"`
}

// byKey returns the [weights] values by key, nil for unset ones.
func (w *rawWeights) byKey() map[string]*float64 {
	if w == nil {
		return nil
	}
	return map[string]*float64{
		"seed": w.Seed, "explicit": w.Explicit, "graph": w.Graph, "lexical": w.Lexical,
		"symbol_lexical": w.SymbolLexical, "path": w.Path, "test": w.Test,
		"generated": w.Generated, "vendored": w.Vendored, "example": w.Example,
		"history": w.History, "commits": w.Commits, "cochange": w.CoChange,
	}
}

// Duration is a time.Duration written as a string ("30s", "2m").
type Duration struct{ time.Duration }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return &durationError{fmt.Sprintf("want a duration such as \"30s\" or \"2m\", got %q", b)}
	}
	d.Duration = v
	return nil
}

// Load reads and parses the configuration file at path. A file that does
// not exist gives an error wrapping ErrNotFound.
func Load(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrNotFound)
		}
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes; is this really a configuration file?", path, maxFileSize)
	}
	return Parse(data, path)
}

// Find returns the path of the configuration file at root, or "" when
// there is none.
func Find(root string) string {
	p := filepath.Join(root, FileName)
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return p
	}
	return ""
}

// Parse parses and validates a configuration file's content; name is used
// in messages. The error is an [Errors] list sorted by position, each item
// naming the file, the line when known, and the key: every unknown key,
// the first value of the wrong type, and every value out of range.
func Parse(data []byte, name string) (*File, error) {
	f := &File{Name: name}
	// First the layout alone (any value fits), so that every unknown key
	// is reported even when a value has the wrong type; then the types.
	var errs Errors
	var shape rawShape
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&shape); err != nil {
		var strict *toml.StrictMissingError
		if !errors.As(err, &strict) {
			return nil, decodeErrors(name, data, err) // a syntax error: nothing more to say
		}
		errs = decodeErrors(name, data, err)
	}
	if err := toml.NewDecoder(bytes.NewReader(data)).Decode(&f.raw); err != nil {
		errs = append(errs, decodeErrors(name, data, err)...)
	} else {
		errs = append(errs, f.validate(data)...)
	}
	if len(errs) > 0 {
		errs.sort()
		return nil, errs
	}
	return f, nil
}

// rawShape is rawFile with room for a value of any type under each key,
// for finding the unknown keys.
type rawShape struct {
	Budget    any `toml:"budget"`
	Tokenizer any `toml:"tokenizer"`
	Format    any `toml:"format"`
	Strategy  any `toml:"strategy"`
	Depth     any `toml:"depth"`
	MaxFiles  any `toml:"max_files"`
	NoTests   any `toml:"no_tests"`
	Timeout   any `toml:"timeout"`
	SCIP      any `toml:"scip"`
	Files     *struct {
		Exclude       any `toml:"exclude"`
		Include       any `toml:"include"`
		Generated     any `toml:"generated"`
		SkipGenerated any `toml:"skip_generated"`
		SkipVendored  any `toml:"skip_vendored"`
	} `toml:"files"`
	Weights *struct {
		Seed          any `toml:"seed"`
		Explicit      any `toml:"explicit"`
		Graph         any `toml:"graph"`
		Lexical       any `toml:"lexical"`
		SymbolLexical any `toml:"symbol_lexical"`
		Path          any `toml:"path"`
		Test          any `toml:"test"`
		Generated     any `toml:"generated"`
		Vendored      any `toml:"vendored"`
		Example       any `toml:"example"`
		History       any `toml:"history"`
		Commits       any `toml:"commits"`
		CoChange      any `toml:"cochange"`
	} `toml:"weights"`
}

// Apply sets, in s, every value the file sets, recording the file as their
// origin.
func (f *File) Apply(s *Settings) {
	r := &f.raw
	set := func(key string) { s.SetOrigin(key, f.Name) }
	setFrom(&s.Budget, r.Budget, "budget", set)
	setFrom(&s.Tokenizer, r.Tokenizer, "tokenizer", set)
	setFrom(&s.Format, r.Format, "format", set)
	setFrom(&s.Strategy, r.Strategy, "strategy", set)
	setFrom(&s.Depth, r.Depth, "depth", set)
	setFrom(&s.MaxFiles, r.MaxFiles, "max_files", set)
	setFrom(&s.NoTests, r.NoTests, "no_tests", set)
	if r.Timeout != nil {
		s.Timeout = r.Timeout.Duration
		set("timeout")
	}
	setFrom(&s.SCIP, r.SCIP, "scip", set)
	if fs := r.Files; fs != nil {
		setFrom(&s.Exclude, fs.Exclude, "files.exclude", set)
		setFrom(&s.Include, fs.Include, "files.include", set)
		setFrom(&s.Generated, fs.Generated, "files.generated", set)
		setFrom(&s.SkipGenerated, fs.SkipGenerated, "files.skip_generated", set)
		setFrom(&s.SkipVendored, fs.SkipVendored, "files.skip_vendored", set)
	}
	vals := r.Weights.byKey()
	for _, wf := range weightFields {
		if v := vals[wf.key]; v != nil {
			*wf.field(&s.Weights) = *v
			set("weights." + wf.key)
		}
	}
	s.File = f.Name
}

// setFrom copies *v into *dst when the file set it (v is not nil),
// recording key's origin; slices are copied, so the settings never share
// the file's.
func setFrom[T any](dst *T, v *T, key string, set func(string)) {
	if v == nil {
		return
	}
	*dst = *v
	if sl, ok := any(*v).([]string); ok {
		*dst = any(append([]string(nil), sl...)).(T)
	}
	set(key)
}
