// Package factcodec encodes the facts model ([analyze.Facts]) for the
// on-disk index, which stores bytes under keys and knows nothing of what
// they mean: [Encode] and [Decode] turn a whole repository's facts into
// one record (the snapshot a warm run loads instead of analysing
// anything) and back, and [WriteProblems] and [ReadProblems] serve the
// loaders' own records that carry problems. Records are written with
// package [github.com/ctxexpand/ctxexpand/index/wire].
//
// # Safety
//
// Decode checks every table index and count against the record, so a
// damaged record gives an error wrapping wire.ErrCorrupt, never a panic
// and never facts with dangling IDs (FuzzDecodeFacts). A record starts
// with [Version]; one of another version is refused the same way.
//
// # Costs
//
// BenchmarkFactsCodec measures the codec against encoding/gob on facts
// of 20k symbols and 100k edges: 7 ms to encode and 18 ms to decode a
// 1.1 MB record, against 85 ms, 28 ms and 3.4 MB for gob (the figures
// recorded when the codec was written, then in package index).
package factcodec
