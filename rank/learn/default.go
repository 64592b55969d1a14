package learn

import (
	_ "embed"
	"fmt"
)

// defaultModel is the model trained by benchmarks/learn on the training
// split (benchmarks/README.md says how to rebuild it).
//
//go:embed default.json
var defaultModel []byte

// Default returns the shipped model, or nil when the build ships none.
func Default() (*Model, error) {
	if len(defaultModel) == 0 {
		return nil, nil
	}
	m, err := Parse(defaultModel)
	if err != nil {
		return nil, fmt.Errorf("the shipped model: %w", err)
	}
	return m, nil
}
