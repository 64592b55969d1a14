// Package tokenize owns token counting: how many tokens a piece of text
// costs in a model's context window. Everything that enforces a token budget
// (the bundle assembler above all) counts through a [Counter] made by [New].
//
// # Counters
//
// Counters are selected by name; [Names] lists them:
//
//   - "o200k" or "o200k_base": OpenAI's o200k_base byte-pair encoding
//     (GPT-4o, GPT-4.1, o-series, GPT-5). Exact. The default.
//   - "cl100k" or "cl100k_base": OpenAI's cl100k_base encoding (GPT-4,
//     GPT-3.5). Exact.
//   - "estimate": a fast character-class heuristic, no vocabulary needed.
//   - "claude": a calibration profile, o200k_base counts times 1.20.
//
// The exact counters use the vocabularies of github.com/tiktoken-go/tokenizer,
// compiled into the binary: counting never touches the network or the
// disk. They count with the library's codec at first and, once a counter
// has counted 64 KiB (or Preload asked for it), with a native counter of
// our own (native.go, pretoken.go): the same pieces found without the
// library's backtracking regular-expression engine, the same byte-pair
// merges, 10 to 40 times faster on source code (BenchmarkNativeCount).
// FuzzNativeCount holds it to the codec's counts, quirks included: the
// codec's expression, as regexp2 runs it, ends white space at the first
// line break of a run rather than the last, and never matches DEL. Special-token text such as "<|endoftext|>" is counted
// as the ordinary text it is, never rejected: a source file that mentions a
// special token is just a source file.
//
// # Calibration for tokenizers that are not public
//
// Some model families (Anthropic's Claude among them) do not publish their
// tokenizer, so no offline count can be exact for them. The design is one
// exact counter scaled by a calibration factor: [WithMargin] multiplies every
// count by a factor f ≥ 1 and rounds up, so a budget planned with the scaled
// counter leaves headroom of (f-1) for a tokenizer that splits the same text
// into more pieces. The "claude" profile is o200k_base with f = 1.20: a
// deliberately conservative default for code, which such tokenizers tend to
// split more finely than o200k_base does. It is an estimate, not a
// measurement of any particular model; users who measure the real ratio on
// their own code (for instance with the vendor's token-counting endpoint)
// should pass it as the margin, which replaces the profile's factor. The
// counter's [Counter.Name] carries the factor ("o200k_base*1.15",
// "claude:o200k_base*1.2") so a bundle says how it was counted.
//
// # The estimate
//
// [Estimate] walks the text once and charges each run of characters by its
// class, a model of how byte-pair encoders split code:
//
//   - a run of ASCII letters: ceil(len/4) tokens, at least one per camel-case
//     hump ("FindByEmail" is 3);
//   - a run of digits: ceil(len/3) (the encoders split numbers in threes);
//   - a run of other ASCII punctuation: ceil(len/2);
//   - a run of spaces or tabs: 1, except a single space, which encoders fold
//     into the following word;
//   - each line break: 1;
//   - each non-ASCII letter: 1; any other non-ASCII rune: half its UTF-8
//     length, rounded up over the run.
//
// It is meant as an upper bound of the exact encoders on code. Measured on
// 865 files (Go standard library; Rust, C, JavaScript and Markdown from the
// module cache) it was at or above both the o200k_base and the cl100k_base
// count for 98% of them, with a median of 1.36 and a 99th percentile of
// 1.61 times the o200k_base count. The files it undercounts are random
// data (hex tables, base64 blobs), by at most 11% (14% against
// cl100k_base). Use it when speed matters more than exactness: it is about
// a hundred times faster than the exact counters without their cache.
//
// # Additivity, chunking and the cache
//
// Byte-pair encoders first split text with a regular expression and encode
// each piece alone, so the count of a concatenation is the sum of the
// counts of its parts whenever no piece can span the seam. For o200k_base
// and cl100k_base that holds at a seam right after a line break when the
// next line is not blank and does not start with "/" (SafeStart: a
// punctuation piece swallows the line breaks and slashes that follow it,
// and a white-space piece reaches no further than the line breaks that end
// it), and between an ASCII letter and a backslash (where the JSON strings
// of a bundle hold their escaped line breaks). The exact counters split
// long input at such seams, group the chunks (about four to a group, where
// a group ends decided by the content of its last chunk, so the same lines
// group alike in every text that holds them), and count each group once,
// caching counts by content hash in a bounded, sharded cache that is safe
// for concurrent use (groups under 48 bytes are counted, not looked up).
// Grouping took a fifth off the CPU of a first-time resident query on
// hugo (BenchmarkResidentQuery), where a line alone was mostly too short
// to be worth a lookup and was counted again each time. Counting a
// bundle whose sections were already counted is then mostly cache hits, and
// callers that build text from blocks ending in a line break and starting
// with such a character can add block counts exactly. The estimate is
// additive at every line break by construction.
//
// A bundle counts each file's section, whose header (a score, reasons)
// differs from query to query around the same code. [CountAround] counts
// such a text in three parts, split at the first and the last seam
// inside the code, when the counter adds up ([AddsUp]: the exact
// encodings and the estimate, bare or through a [Memo]; not a calibrated
// counter, which rounds each count up): the middle part is the same text
// under any header, so a Memo finds its count with one lookup, where the
// chunk cache would hash every group of it. [Memo.WrapUncounted] lets a
// server count ahead of its queries without its lookups in the queries'
// hit rate.
package tokenize
