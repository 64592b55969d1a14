// Package query owns query understanding: it turns a task written in words
// ("fix UserService.find_by_email", a pasted panic trace, "@file.go#L10-20
// why does login fail") into a [Plan] — action, weighted search terms,
// named entities, paths, error strings, stack frames, explicit @references,
// scope, and the expansion strategy and depth it recommends.
//
// It also owns the text normalisation that ranking must apply to documents
// in the same way as to queries ([Stem], stop words), so that a query term
// and a document term meet.
package query
