package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// schemaFor infers the input schema of an argument struct (property
// descriptions come from the jsonschema tags; fields without omitempty
// are required; unknown properties are refused). It panics on a type the
// inference cannot handle, which is a programming error caught by tests.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err))
	}
	return s
}

func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic("mcpserver: schema has no property " + name)
	}
	return p
}

// setInt bounds an integer property and gives its default.
func setInt(s *jsonschema.Schema, name string, lo, hi, def int) {
	p := prop(s, name)
	l, h := float64(lo), float64(hi)
	p.Minimum, p.Maximum = &l, &h
	p.Default = mustJSON(def)
}

// setEnum lists the values a string property takes, with its default.
func setEnum(s *jsonschema.Schema, name string, values []any, def string) {
	p := prop(s, name)
	p.Enum = values
	p.Default = mustJSON(def)
}

func setDefault(s *jsonschema.Schema, name string, def any) {
	prop(s, name).Default = mustJSON(def)
}

// setMinLength requires a non-empty string.
func setMinLength(s *jsonschema.Schema, name string, n int) {
	prop(s, name).MinLength = &n
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// readOnly annotates a tool that reads the repository and changes
// nothing; openWorld says whether it may also reach the network.
func readOnly(openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &openWorld}
}

// withJSON puts the JSON of a structured answer first in a successful
// result's content, before any notes, as the MCP specification asks of
// tools with structured output (clients that do not read
// structuredContent read the same data as text).
func withJSON(res *mcp.CallToolResult, out any) *mcp.CallToolResult {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return errorResult(fmt.Errorf("encoding the answer: %v", err))
	}
	res.Content = append([]mcp.Content{&mcp.TextContent{Text: strings.TrimRight(b.String(), "\n")}}, res.Content...)
	return res
}
