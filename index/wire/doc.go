// Package wire is the binary encoding of the records kept in the on-disk
// index, written by the packages that own them: unsigned and signed
// varints, fixed-width integers, length-prefixed strings and byte slices,
// and booleans, appended to a byte slice by [Writer] and read back by
// [Reader].
//
// It is deliberately small and reflection-free. Decoding a loader's
// records with it is several times faster than encoding/gob (see
// analyze/factcodec's BenchmarkFactsCodec), and it lets each package
// encode its own unexported types without exporting them.
//
// # Errors
//
// A [Reader] never panics on malformed input: the first problem (a
// truncated value, a length past the end, an overlong varint) is kept,
// every later read returns a zero value, and [Reader.Err] reports it.
// Callers read a whole record, then check Err once.
package wire
