package ollama

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/query"
)

// Caps on a model's plan. The answer is rejected whole past any of them.
const (
	MaxPlanBytes    = 16 << 10
	MaxKeywords     = 24
	MaxSymbols      = 16
	MaxFilePatterns = 16
	maxKeywordLen   = 48
	maxSymbolLen    = 128
	maxPatternLen   = 160
)

// ErrInvalidPlan is wrapped by every validation failure of ParsePlan.
var ErrInvalidPlan = errors.New("invalid model plan")

// ModelPlan is the JSON a model is asked for. Absent fields leave the
// heuristic plan's values alone.
type ModelPlan struct {
	Keywords     []string `json:"keywords"`
	Symbols      []string `json:"symbols"`
	FilePatterns []string `json:"file_patterns"`
	Strategy     string   `json:"strategy"`
	Depth        *int     `json:"depth"`
	IncludeTests *bool    `json:"include_tests"`
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidPlan, fmt.Sprintf(format, args...))
}

// ParsePlan decodes and validates a model's plan strictly: exactly one
// JSON object, no unknown fields, the right types, and every value within
// its caps and character rules. It never returns a partly valid plan.
func ParsePlan(data []byte) (*ModelPlan, error) {
	if len(data) > MaxPlanBytes {
		return nil, invalid("%d bytes, the limit is %d", len(data), MaxPlanBytes)
	}
	if !utf8.Valid(data) {
		return nil, invalid("not valid UTF-8")
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, invalid("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	var mp ModelPlan
	if err := dec.Decode(&mp); err != nil {
		return nil, invalid("%v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, invalid("trailing data after the JSON object")
	}
	if err := mp.validate(); err != nil {
		return nil, err
	}
	return &mp, nil
}

func (mp *ModelPlan) validate() error {
	if err := checkList("keywords", mp.Keywords, MaxKeywords, maxKeywordLen, validKeyword); err != nil {
		return err
	}
	if err := checkList("symbols", mp.Symbols, MaxSymbols, maxSymbolLen, func(s string) bool {
		return query.SplitSymbol(s) != nil
	}); err != nil {
		return err
	}
	if err := checkList("file_patterns", mp.FilePatterns, MaxFilePatterns, maxPatternLen, validPattern); err != nil {
		return err
	}
	if mp.Strategy != "" && !query.ValidStrategy(mp.Strategy) {
		return invalid("strategy %q: want one of %s, or a + combination", clip(mp.Strategy), strings.Join(query.Strategies, ", "))
	}
	if mp.Depth != nil && (*mp.Depth < 1 || *mp.Depth > 3) {
		return invalid("depth %d: want 1 to 3", *mp.Depth)
	}
	return nil
}

func checkList(field string, items []string, maxItems, maxLen int, ok func(string) bool) error {
	if len(items) > maxItems {
		return invalid("%s: %d items, the limit is %d", field, len(items), maxItems)
	}
	for _, s := range items {
		if len(s) > maxLen {
			return invalid("%s: an item of %d bytes, the limit is %d", field, len(s), maxLen)
		}
		if !ok(s) {
			return invalid("%s: %q is not acceptable", field, clip(s))
		}
	}
	return nil
}

// validKeyword accepts one word: letters, digits, "_", "-" and ".", no
// spaces, so that a sentence (an instruction smuggled into the list)
// cannot pass.
func validKeyword(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' {
			return false
		}
	}
	return true
}

// validPattern accepts a relative, slash-separated glob that stays inside
// the repository.
func validPattern(s string) bool {
	if s == "" || strings.HasPrefix(s, "/") || strings.Contains(s, "//") || strings.HasPrefix(s, "~") {
		return false
	}
	for _, seg := range strings.Split(s, "/") {
		if seg == ".." {
			return false
		}
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-./*?[]{},", r) {
			return false
		}
	}
	return true
}

// clip shortens a hostile value for an error message.
func clip(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
