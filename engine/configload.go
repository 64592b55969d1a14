package engine

import (
	"fmt"

	"github.com/ctxexpand/ctxexpand/config"
	"github.com/ctxexpand/ctxexpand/ignore"
)

// ConfigLoad gives the load options that settings s ask for at root: the
// ignore rules (read from root's ignore files, and s's own), the key that
// names them in the on-disk index, and s's SCIP indexes. Every door that
// loads a repository with a configuration gets its load options here and
// adds its own (the index, a logger, the history prior). A bad ignore
// rule is an error.
func ConfigLoad(root string, s config.Settings) (LoadOptions, error) {
	m, err := ignore.Load(root, s.IgnoreOptions())
	if err != nil {
		return LoadOptions{}, err
	}
	// The key names the configured rules: what the ignore files under the
	// root say is fingerprinted with the files; what the configuration
	// adds is not a file there.
	return LoadOptions{Ignore: m.Match, Generated: m.MatchGenerated, IgnoreProblems: m.Problems,
		SCIP: s.SCIP, IndexKey: fmt.Sprintf("%#v", s.IgnoreOptions())}, nil
}
