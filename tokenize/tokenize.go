package tokenize

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Counter counts the tokens of text. Implementations are safe for
// concurrent use.
type Counter interface {
	// Count returns the number of tokens s costs. It never fails: invalid
	// UTF-8 is counted as the U+FFFD it would be shown as, and special-token
	// text is ordinary text.
	Count(s string) int
	// Name says which tokenizer (and calibration factor) counts, for
	// reports: "o200k_base", "cl100k_base*1.1", "estimate".
	Name() string
}

// Default is the counter New uses for an empty name.
const Default = "o200k"

// Errors returned by New; check them with errors.Is.
var (
	ErrUnknownTokenizer = errors.New("unknown tokenizer")
	ErrBadMargin        = errors.New("token margin out of range")
)

// MinMargin and MaxMargin bound the calibration factor of WithMargin.
const (
	MinMargin = 1.0
	MaxMargin = 4.0
)

// DefaultCacheSize is the number of cached chunk counts an exact counter
// keeps (about 3 MiB at most).
const DefaultCacheSize = 1 << 16

type options struct {
	margin    float64 // 0: none given
	cacheSize int     // 0: DefaultCacheSize; < 0: no cache
}

// Option configures New.
type Option func(*options)

// WithMargin multiplies every count by f (rounding up), the calibration
// factor for a model whose tokenizer is not public. f must lie in
// [MinMargin, MaxMargin]; 1 means no margin and 0 keeps the profile's
// factor. It replaces the factor of a profile such as "claude".
func WithMargin(f float64) Option { return func(o *options) { o.margin = f } }

// WithCacheSize sets how many chunk counts an exact counter caches; a
// negative n disables the cache, 0 means DefaultCacheSize.
func WithCacheSize(n int) Option { return func(o *options) { o.cacheSize = n } }

type profile struct {
	names    []string // accepted spellings, canonical first
	base     string   // canonical encoding name, "" for the estimate
	margin   float64  // default calibration factor, 1 for none
	display  string   // prefix of Name() for a profile ("claude")
	describe string
}

var profiles = []profile{
	{names: []string{"o200k", "o200k_base"}, base: "o200k_base", margin: 1, describe: "OpenAI o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5), exact"},
	{names: []string{"cl100k", "cl100k_base"}, base: "cl100k_base", margin: 1, describe: "OpenAI cl100k_base (GPT-4, GPT-3.5), exact"},
	{names: []string{"estimate"}, margin: 1, describe: "fast character-class heuristic, an upper-bound-ish estimate"},
	{names: []string{"claude"}, base: "o200k_base", margin: 1.2, display: "claude", describe: "o200k_base x 1.20, a conservative calibration for a tokenizer that is not public"},
}

// Names returns the names New accepts, in a stable order.
func Names() []string {
	var out []string
	for _, p := range profiles {
		out = append(out, p.names...)
	}
	return out
}

// Describe returns one line per counter name for help texts:
// "o200k, o200k_base: OpenAI o200k_base (...), exact".
func Describe() []string {
	var out []string
	for _, p := range profiles {
		out = append(out, strings.Join(p.names, ", ")+": "+p.describe)
	}
	return out
}

// New returns the counter called name (see Names; "" means Default,
// case and surrounding space do not matter). An unknown name is an
// ErrUnknownTokenizer error that lists the valid ones.
func New(name string, opts ...Option) (Counter, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	key := strings.ToLower(strings.TrimSpace(name))
	if key == "" {
		key = Default
	}
	var prof *profile
	for i := range profiles {
		for _, n := range profiles[i].names {
			if n == key {
				prof = &profiles[i]
			}
		}
	}
	if prof == nil {
		return nil, fmt.Errorf("%w %q: use one of %s", ErrUnknownTokenizer, name, strings.Join(Names(), ", "))
	}
	margin := prof.margin
	if o.margin != 0 {
		if math.IsNaN(o.margin) || o.margin < MinMargin || o.margin > MaxMargin {
			return nil, fmt.Errorf("%w: %v; use a factor from %v to %v (1 means none)", ErrBadMargin, o.margin, MinMargin, MaxMargin)
		}
		margin = o.margin
	}
	var c Counter
	if prof.base == "" {
		c = estimator{}
	} else {
		size := o.cacheSize
		if size == 0 {
			size = DefaultCacheSize
		}
		var err error
		c, err = newBPE(prof.base, size)
		if err != nil {
			return nil, err
		}
	}
	if margin == 1 && prof.display == "" {
		return c, nil
	}
	name = c.Name()
	if margin != 1 {
		name += "*" + strconv.FormatFloat(margin, 'f', -1, 64)
	}
	if prof.display != "" {
		name = prof.display + ":" + name
	}
	return &scaled{base: c, factor: margin, name: name}, nil
}

// scaled multiplies a base counter's counts by a calibration factor.
type scaled struct {
	base   Counter
	factor float64
	name   string
}

func (s *scaled) Name() string { return s.name }

func (s *scaled) Count(text string) int {
	n := s.base.Count(text)
	if s.factor == 1 {
		return n
	}
	// Round up, but do not let float error turn an exact product (10*1.2)
	// into the next integer.
	v := float64(n) * s.factor
	r := math.Round(v)
	if math.Abs(v-r) < 1e-9 {
		return int(r)
	}
	return int(math.Ceil(v))
}
