package serve

import (
	"bytes"
	"encoding/json"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
)

// decodeStrict reads JSON that must be exactly one value.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return ErrBadRequest
	}
	return nil
}

// QueryFrom is the protocol's form of a pipeline request. The fields it
// leaves out are the server's own (Root, Load, Backend, LSPCmd) or set by
// other commands (Explicit, Extras, Notes, Features); TestQueryCoversRequest fails
// when a field of engine.Request is neither carried nor listed there.
func QueryFrom(r engine.Request) *Query {
	q := &Query{
		Text: r.Query, Budget: r.Budget, MaxFiles: r.MaxFiles, Depth: r.Depth, Strategy: r.Strategy,
		Format: r.Format, Tokenizer: r.Tokenizer, NoTests: r.NoTests, NoNetwork: r.NoNetwork,
		Planner: r.Planner, OllamaHost: r.OllamaHost, OllamaModel: r.OllamaModel, Truncation: r.Truncation,
		TokenMargin: r.TokenMargin, ContextLines: r.ContextLines, Ranker: r.Ranker, Kind: string(r.Kind),
	}
	if r.Weights != (rank.Weights{}) {
		w := r.Weights
		q.Weights = &w
	}
	return q
}

// PipelineRequest is the pipeline's form of q for root.
func (q *Query) PipelineRequest(root string) engine.Request {
	r := engine.Request{
		Root: root, Query: q.Text, Budget: q.Budget, MaxFiles: q.MaxFiles, Depth: q.Depth,
		Strategy: q.Strategy, Format: q.Format, Tokenizer: q.Tokenizer, NoTests: q.NoTests,
		NoNetwork: q.NoNetwork, Planner: q.Planner, OllamaHost: q.OllamaHost, OllamaModel: q.OllamaModel,
		Truncation: q.Truncation, TokenMargin: q.TokenMargin, ContextLines: q.ContextLines,
		Ranker: q.Ranker, Kind: query.Kind(q.Kind),
	}
	if q.Weights != nil {
		r.Weights = *q.Weights
	}
	return r
}

// render fills resp with what the command prints for out.
func render(resp *Response, out *engine.Output, q *Query) {
	if q.FilesOnly {
		resp.Output = string(out.FilesOnly())
	} else {
		resp.Output = string(out.Bundle)
	}
	var notes bytes.Buffer
	out.WriteNotes(&notes)
	resp.Notes = notes.String()
	if q.Explain {
		var ex bytes.Buffer
		out.WriteExplain(&ex)
		resp.Explain = ex.String()
	}
	resp.Partial = out.Partial
}
