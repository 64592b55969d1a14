package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// errLoad marks a repository that could not be loaded.
var errLoad = errors.New("the repository could not be loaded")

// openRepo returns the resident repository, starting it on first use: the
// repository is loaded when the first tool call arrives, and kept current
// from then on. The caller holds s.work.
func (s *Server) openRepo(ctx context.Context) (*resident.Repo, error) {
	if s.repo != nil {
		return s.repo, nil
	}
	configure := s.opts.Configure
	if configure == nil {
		load := s.opts.Load
		configure = func() (engine.LoadOptions, error) { return load, nil }
	}
	repo, err := resident.Start(ctx, resident.Options{Root: s.opts.Root, Configure: configure, Poll: s.opts.Poll,
		Logf: s.logf, Open: s.opts.open, Reopen: s.opts.reopen})
	if err != nil {
		return nil, fmt.Errorf("%w: %v; check that --root names a Go or Rust repository the server can read", errLoad, err)
	}
	s.repo = repo
	return repo, nil
}

// loadError says what a failed wait for the repository means to an agent.
func loadError(ctx context.Context, root string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: loading %s was cancelled or timed out (%v); call again, or start the server with a larger --timeout", errLoad, root, ctx.Err())
	}
	return fmt.Errorf("%w: %v; check that --root names a Go or Rust repository the server can read", errLoad, err)
}
