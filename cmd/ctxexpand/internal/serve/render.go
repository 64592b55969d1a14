package serve

import (
	"bytes"
	"encoding/json"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/pipeline"
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

// PipelineRequest is the pipeline's form of q for root.
func (q *Query) PipelineRequest(root string) pipeline.Request {
	r := pipeline.Request{
		Root: root, Query: q.Text, Budget: q.Budget, MaxFiles: q.MaxFiles, Depth: q.Depth,
		Strategy: q.Strategy, Format: q.Format, Tokenizer: q.Tokenizer, NoTests: q.NoTests,
		NoNetwork: q.NoNetwork, Planner: q.Planner, OllamaHost: q.OllamaHost, OllamaModel: q.OllamaModel,
		Truncation: q.Truncation, TokenMargin: q.TokenMargin, ContextLines: q.ContextLines,
	}
	if q.Weights != nil {
		r.Weights = *q.Weights
	}
	return r
}

// render fills resp with what the command prints for out.
func render(resp *Response, out *pipeline.Output, q *Query) {
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
