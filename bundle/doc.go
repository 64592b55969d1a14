// Package bundle owns the last step of ctxexpand: turning ranked files and
// explicit extras into one context document that never exceeds a token
// budget, in Markdown, XML, JSON or plain text, saying for every file how
// much of it is shown and why it is there.
//
// [Build] takes a [Request] (ranked [File] values with their relevant
// spans and symbols, [Extra] content, notes, a budget and a
// tokenize.Counter) and returns a [Result]: the output bytes, their exact
// token count and a [FileResult] per file. [BudgetReport] turns a result
// whose budget was too small into a short text for stderr. The package
// reads files through analyze.ReadSource and imports nothing else of
// ctxexpand but analyze and tokenize.
//
// # The detail ladder
//
// Every file can be shown at one of five rungs ([Rung]):
//
//   - full: the whole file;
//   - spans: the relevant spans, widened by [Options.ContextLines] lines,
//     with the file's package and import lines, overlapping ranges merged,
//     and an elision marker ("// … lines 11-49 elided") for every hidden
//     run of lines; the header names the shown ranges ("a.go:3-10,50-70").
//     When the spans carry different ranks ([Span.Rank]), the rung also
//     comes smaller: the most relevant span alone, then the best two, up
//     to three (spans of equal rank always together);
//   - skeleton: declarations without bodies. For Go it comes from the
//     syntax tree (go/parser): package doc and clause, imports, type
//     declarations whole, const and var declarations with function literal
//     bodies and large composite literals elided, functions and methods as
//     doc comment and signature with the body written "{ /* … */ }", so the
//     skeleton is still valid Go. For Rust (and Go that does not parse) it
//     comes from the file's symbols and a scan of the text with comments
//     and literals masked: use lines kept, struct, enum, union, trait and
//     type definitions whole, functions as attributes, doc comment and
//     signature with "{ … }", impl blocks as their header and members
//     (each function elided the same way), inline modules and macro
//     definitions elided;
//   - summary: one line, the path and its symbol names;
//   - omitted.
//
// Extras have full, summary (their title only) and omitted.
//
// # Selection
//
// Each rung of each item has a cost, the exact token count of its rendered
// section, and a value, the file's weight times the rung's share (full 1,
// spans 0.8, skeleton 0.3, summary 0.05). Weights are the scores of the
// implicit files normalised to the best one. Choosing one rung per item is
// a multiple-choice knapsack, solved by a greedy pass over upgrade steps
// in order of value per token (on each item's convex hull), followed by
// upgrades the leftover pays for and value-improving exchanges (see
// plan.go). A smaller spans option is worth half of all the spans for the
// best one, three quarters for the best two, and so on. It is not traded
// by value per token: the five best-ranked implicit files
// take, as their floor, all their spans if they fit in half of what is
// left, else the most valuable smaller option that does, else their
// skeleton; and any file below its spans may take one with the leftover
// at the end. A file ranked near the top whose spans are too large (a
// 600-line test table beside the test functions that matter) shows its
// best spans instead of only its outline. The smaller options are
// rendered only when cover or the leftover fill considers them.
//
// Explicit items come first: extras and files marked Explicit (from
// @references) are planned with the whole budget before any implicit file
// gets a token, so an implicit file only ever uses what no explicit item
// could. Files marked Companion (a review's tests of the changed files)
// are planned next, with what the explicit items' full rungs leave and
// before their truncated versions take the rest. When what is left cannot hold an item's spans (or whole text),
// a truncated version is cut to fit, by [Options.Truncation]:
// signature-first keeps every span's doc comment and signature, then body
// lines in the order of the request's spans; bookend keeps each span's
// first and last lines around an elision marker.
//
// # The budget is exact
//
// The budget bounds the whole emitted output, framing and summary
// included, counted with the request's counter. Every piece of a document
// ends in a line break and the next piece starts with a character that is
// neither white space nor "/", where the exact counters of package tokenize
// add up (see tokenize.SafeStart), so planning with section costs is exact;
// the final document is counted again all the same and re-planned with a
// smaller allowance in the unexpected case it is over. The frame states the
// total of the document it belongs to, which is computed to a fixed point.
// When the budget is short the frame sheds, in order, the notes, most of
// the query and the commit, and finally everything but the file counts and
// the token figures. [ErrBudgetTooSmall] is returned only when even that
// minimal document does not fit (it costs a few dozen tokens: any budget
// from 50 up works with the counters of package tokenize).
//
// Counting is most of what a bundle costs. A section is counted around
// its content (tokenize.CountAround, where the format says the content
// lies: escaped in JSON, in CDATA in XML), so that a counter that
// remembers whole texts finds a file's code again under any header.
// Go skeletons, import lines and a text's escaping as a JSON string are
// kept per text for the process.
// [Prime] prepares files as Build would, and keeps only what those
// caches keep: a server primes its files in idle time, and its queries'
// first sight of a file costs about what a second does.
//
// Output is deterministic: the same request gives the same bytes whatever
// GOMAXPROCS, and invalid UTF-8 in sources is replaced by U+FFFD.
//
// # Formats
//
// Markdown: a "# Context: query" title, the summary block, notes, then a
// "## path:ranges (rung, score s)" section per extra and file with a "Why:"
// line and the content in a fenced block whose fence is longer than any run
// of backticks inside it, tagged with the language.
//
// XML: one <context version query strategy commit tokenizer budget
// total_tokens> element holding a <summary> element (counts as attributes),
// <note> elements, an <extra kind title mode> per extra and a <file path
// score mode [truncated] [explicit] [lang] [lines] [reasons]> per file with
// the content in CDATA; "]]>" inside content is split across two CDATA
// sections and characters XML forbids become U+FFFD. Omitted files are
// listed as empty <file mode="omitted"/> elements while the leftover of
// the budget allows.
//
// Plain: the summary block, then each item under a "==> title <==" line.
//
// # JSON schema, version 1
//
// One object. Keys marked optional are absent when empty or zero; the
// smallest budgets keep only version, budget, total_tokens, summary.files
// and files.
//
//	{
//	  "version": 1,                  // schema version; changes only incompatibly
//	  "query": "…",                  // optional; cut with "…" when the budget is short
//	  "strategy": "focused",         // optional
//	  "commit": "4d4e02d…",          // optional; the git commit, shortened when the budget is short
//	  "tokenizer": "o200k_base",     // optional; the counter's name
//	  "budget": 8000,                // the token budget
//	  "total_tokens": 7421,          // the counter's count of this whole document
//	  "summary": {
//	    "files": 12,                 // files in the request
//	    "included": 8,               // optional; files shown at any rung
//	    "omitted": 4,                // optional
//	    "full": 2, "spans": 3, "skeleton": 2, "summary": 1, // optional; files per rung
//	    "truncated": 1,              // optional; included files whose content was cut
//	    "extras": 1,                 // optional; extras in the request
//	    "extras_included": 1,        // optional
//	    "notes_omitted": 0           // optional; notes left out for the budget
//	  },
//	  "notes": ["…"],                // optional; problems and warnings
//	  "extras": [                    // optional; present when an extra is included
//	    {"kind": "url", "title": "@https://…", "included": true,
//	     "rung": "full",             // "full" or "summary" (title only)
//	     "truncated": "bookend",     // optional; how the content was cut
//	     "tokens": 812,              // the counter's count of content
//	     "content": "…"}
//	  ],
//	  "files": [                     // ranked, best first, explicit files before the rest
//	    {"path": "service/user.go",
//	     "lang": "go",               // optional: "go", "rust" or "text"
//	     "category": "source",       // optional
//	     "explicit": true,           // optional
//	     "score": 0.92,              // rounded to 4 decimals
//	     "included": true,
//	     "rung": "spans",            // "full", "spans", "skeleton", "summary" or "omitted"
//	     "truncated": "signature-first", // optional; "signature-first" or "bookend"
//	     "tokens": 640,              // the counter's count of content
//	     "tokens_needed": 424,       // optional; omitted files only: what including it would cost (below)
//	     "lines": "3-10,50-70",      // optional; the line ranges content shows
//	     "reasons": ["seed: UserService.FindByEmail"],
//	     "spans": [{"start_line": 53, "end_line": 67, "symbol": "FindByEmail"}],
//	     "content": "…"}             // "" when omitted; "Symbols: …" at the summary rung
//	  ]
//	}
//
// "files" is the whole ranked list, the files that did not fit included:
// those appear with "included": false, "rung": "omitted", "tokens": 0,
// empty content, their score and reasons, and "tokens_needed": the tokens
// the file's element would take in this document at the cheapest rung
// that shows its relevant content (its spans when the ranking gave it
// relevant spans, else the whole file), so raising the budget by about
// that much brings it in. "tokens_needed" is absent when that cannot be
// measured: a file that could not be read, or one too large for the budget
// ever to hold.
//
// An omitted file's element is compact: its path, score, first reason
// and "tokens_needed", with "spans" empty and no "content". The elements
// count against the budget like everything else, and are paid for before
// the implicit files' content: leaving a file out costs its element, so
// content never crowds one out. They take at most a tenth of what the
// frame and the explicit items leave; past that, "files" stops after the
// best-ranked omitted files that fit, and summary counts them all. Each element of
// "extras" and "files" is written on a line of its own.
package bundle
