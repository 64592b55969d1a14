package query

import "context"

// Planner turns a task description into a Plan. [Heuristic] is the
// built-in planner; query/ollama asks a local model and falls back to it.
// A Planner returns an error only when it cannot produce any plan (the
// context was cancelled, say); degraded plans carry Plan.Warnings instead.
type Planner interface {
	Plan(ctx context.Context, text string) (*Plan, error)
}

// Heuristic is the Planner that uses [Analyze]: no model, no I/O.
type Heuristic struct{}

// Plan analyses text with [Analyze]. It fails only if ctx is already done.
func (Heuristic) Plan(ctx context.Context, text string) (*Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return Analyze(text), nil
}
