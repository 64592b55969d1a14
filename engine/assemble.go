package engine

import (
	"context"

	"github.com/ctxexpand/ctxexpand/bundle"
)

// Assemble builds the bundle of a query's outcome with the budget, format
// and tokenizer of req, whatever out.Bundle holds. Callers that reshape an
// outcome before it is bundled (the MCP server's pages drop the files an
// earlier page showed) go through it.
func (s *Session) Assemble(ctx context.Context, out *Output, req Request) (*bundle.Result, error) {
	return s.assemble(ctx, out, req)
}
