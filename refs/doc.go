// Package refs owns resolving the explicit @references of a query against
// a repository: files (with line ranges), literal and regular-expression
// searches, and web pages. Symbol references are passed through for
// ranking to resolve against the symbol graph.
//
// # Files
//
// A file reference is forgiving: an exact path, then a case-insensitive
// match, then a unique basename or path suffix from the repository's
// listing. Several candidates make it fail with the candidates as
// suggestions; none makes it fail with the closest names. Paths that leave
// the repository ("..", absolute paths outside it, symbolic links pointing
// out) are refused outright, with no guessing. Binary and oversized files
// are refused, and so are paths the repository's ignore rules exclude
// ([Options.Ignore]) and anything in git's own .git, which can hold the
// credentials of a CI checkout: a query must not pull a git-ignored secret
// into a bundle by naming it.
//
// # Searches
//
// @search text is literal and smart-case (case-insensitive unless it holds
// a capital); @grep patterns are Go RE2 regular expressions, matched line
// by line as grep does, so no pattern can take more than linear time.
// Patterns have a size cap; a line is matched on its first 8 KiB; results
// are capped per file and in total; a search stops at its time and byte
// budgets (marked Truncated); binary or oversized files are skipped. One
// query runs at most 16 searches and fetches at most 8 pages (Options
// MaxSearches, MaxFetches); further references of those kinds fail with
// [ErrTooMany], so that no query can keep a run busy for hours.
//
// # Web pages
//
// @url references are fetched through a [Fetcher] (package urlfetch); with
// none, they fail as if the network were off.
package refs
