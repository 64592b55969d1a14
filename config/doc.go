// Package config owns ctxexpand's configuration file, .ctxexpand.toml at
// the repository root (or a file named with --config): its format, its
// validation, and the effective settings that result from defaults, the
// file and flags, each value with its origin.
//
// # Format
//
// The file sets defaults for expand (budget, tokenizer, format, strategy,
// depth, max_files, no_tests, timeout), ignore rules in a [files] table
// (exclude, include, generated, skip_generated, skip_vendored) and the
// ranker's weights in a [weights] table (the fields of rank.Weights).
// docs/config.md describes every key with an example.
//
// # Errors
//
// [Parse] and [Load] refuse unknown keys and values of the wrong type or
// out of range. Problems are reported together, as an [Errors] list
// sorted by position whose items ([*Error]) name the file, the line and
// column when known, and the key; all wrap [ErrInvalid]. Every unknown key
// and every value out of range is listed; of values of the wrong type, the
// first (the decoder stops there). Parsing never panics, whatever the
// input (FuzzParseConfig).
//
// # Precedence
//
// Flags beat the file, which beats [Defaults]. The caller applies them in
// that order: Defaults, then [File.Apply], then each flag the user set,
// recording its origin with [Settings.SetOrigin]. [Settings.WriteTOML]
// prints the result as a valid configuration file with the origin of each
// value as a trailing comment (what `ctxexpand config` shows).
//
// The TOML decoder is github.com/pelletier/go-toml/v2: strict decoding
// reports unknown keys with their line and column, and type errors with
// the key and position, which github.com/BurntSushi/toml's
// MetaData.Undecoded does not give.
package config
