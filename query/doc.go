// Package query owns query understanding: it turns a task written in words
// ("fix UserService.find_by_email", a pasted panic trace, "@file.go#L10-20
// why does login fail") into a [Plan] — action, weighted search terms,
// named entities, paths, error strings, stack frames, explicit @references,
// scope, and the expansion strategy and depth it recommends.
//
// It also owns the text normalisation that ranking must apply to documents
// in the same way as to queries ([Stem], stop words), so that a query term
// and a document term meet.
//
// # Analysis
//
// [Analyze] is heuristic and never fails. It reads, in order: explicit
// @references ([ParseRefs]); pasted Go panic traces and Rust backtraces
// (frames innermost first, runtime and dependency frames marked
// External); an area prefix written the way Go and Rust projects write
// commit subjects ("xdsclient: …", "tsdb/wlog: …", "nu-command: …", or a
// conventional "fix(auth): …"); quoted error strings and "error: …"
// lines; back-ticked code; and the prose, where code-style names
// ("UserService.find_by_email", "a::b::C", "(*T).M", "FindByEmail",
// "find_by_email") become entities and paths become paths. The rest are
// words, minus stop words. A small concept table adds low-weight synonyms
// (login → auth, session, token…). The action, scope, complexity,
// strategy and depth follow from what was found.
//
// # Reports
//
// A text of several lines — a bug report, a pull request's description,
// what an agent pastes — is cut into blocks first (segment.go): its title
// line, prose, markdown headings, fenced and indented code (Go, Rust or a
// diff; code of other languages, which is the program's input; terminal
// output and logs) and version lists. Each block is read for what it
// holds: the title and the prose as above; code for its names, line by
// line, without the names every program uses; foreign code for its
// identifiers only, weakly; output for its commands and error lines, the
// rest weakly and without numbers; headings for names in code style only
// (their words are a template's); version lists not at all. Commit
// hashes, timestamps and durations give no terms anywhere, and "@" in
// code or output is not a reference. The weights are [TextWeights],
// fitted on benchmarks/data/issues-train.jsonl: how much each block
// counts, how much repetition adds, the salience ([Entity.Salience]) of
// names mentioned outside the title, which seeds use, and when synonyms
// stop. When there are more terms than a plan keeps, the heaviest stay.
// A report's scope and strategy follow from its title alone. A one-line
// task is all title: the weights do not change it (only the filter of
// hashes, timestamps and durations applies to it too).
//
// [Planner] is the interface a model-backed planner implements too
// (query/ollama); [Heuristic] adapts Analyze to it.
//
// # Terms
//
// Term texts are matching keys, not display words:
//
//   - TermWord, TermIdentPart, TermArea parts, TermPath and TermSynonym
//     texts are [NormTerm] forms (lower case, [Stem]med): "expired" →
//     "expir". Index documents with [TermsOf], which gives the same forms
//     for identifier parts.
//   - TermIdent texts (and the whole-area TermArea texts) are
//     analyze.NormName forms, not stemmed: "find_by_email" →
//     "findbyemail". Match them against the NormName of symbol names.
//
// # References
//
// "@path/file.go#L10-20", "@search:\"text\"", "@grep:'regex'",
// "@url:https://…" and "@Symbol" are parsed here and resolved by package
// refs (symbols by ranking).
package query
