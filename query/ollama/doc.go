// Package ollama owns the optional local-model query planner: a
// query.Planner that asks an Ollama server (its chat API, JSON mode,
// non-streaming) for a plan, validates the answer strictly, merges it
// onto the heuristic plan and falls back to the heuristic plan, with a
// warning, whenever anything goes wrong: no server, a timeout, an HTTP
// error, malformed or hostile output.
//
// # Trust
//
// The model's answer is untrusted input. [ParsePlan] accepts exactly one
// JSON object with the known fields and types, within size caps; keywords
// must be single words, symbols must be identifier paths, file patterns
// must be relative globs without "..", the strategy must be a known one
// and the depth 1 to 3. Anything else rejects the whole answer, so that
// text smuggled into a field (a prompt injection echoed back) never
// reaches the plan. The model can narrow a plan (turn tests off, change
// the strategy, add terms, symbols and globs) but never removes what the
// user wrote.
//
// # Configuration
//
// The host and model come from [Options], else from OLLAMA_HOST and
// OLLAMA_MODEL, else http://127.0.0.1:11434 and [DefaultModel].
package ollama
