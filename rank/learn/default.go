package learn

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
)

// shipped holds the models trained by benchmarks/learn
// (benchmarks/README.md says how to rebuild each): default.json on the
// training split's fixes, question.json on questions mined from the
// training repositories' doc comments.
//
//go:embed *.json
var shipped embed.FS

// Default returns the shipped model for fixes and reports, or nil when the
// build ships none.
func Default() (*Model, error) { return load("default.json") }

// Question returns the shipped model for questions, or nil when the build
// ships none.
func Question() (*Model, error) { return load("question.json") }

func load(name string) (*Model, error) {
	data, err := shipped.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) || len(data) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("the shipped model %s: %w", name, err)
	}
	return m, nil
}
