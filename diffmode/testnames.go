package diffmode

import (
	"path"
	"strings"
)

// NamesTest reports whether the test file test is named after the source
// file src (both repository-relative and slash-separated), the convention
// a reviewer reads the tests of a changed file by:
//
//   - Go: foo.go → foo_test.go, or foo_*_test.go, in the same directory.
//   - Rust: the module of foo.rs, or of foo/mod.rs, foo/lib.rs and
//     foo/main.rs, is foo; a test file whose name has foo as a whole
//     "_"- or "-"-separated part names it (tests/foo.rs, tests/foo_tests.rs,
//     src/foo/tests.rs does not: that is the crate's own layout and the
//     graph links it).
//
// lang is "go" or "rust" (analyze.Lang's names); others never match.
func NamesTest(src, test, lang string) bool {
	stem := strings.TrimSuffix(path.Base(src), path.Ext(src))
	tstem := strings.TrimSuffix(path.Base(test), path.Ext(test))
	switch lang {
	case "go":
		return path.Dir(src) == path.Dir(test) && (tstem == stem+"_test" ||
			strings.HasPrefix(tstem, stem+"_") && strings.HasSuffix(tstem, "_test"))
	case "rust":
		if stem == "mod" || stem == "lib" || stem == "main" {
			stem = path.Base(path.Dir(src))
		}
		if stem == "" || stem == "." || stem == "/" || stem == "src" {
			return false
		}
		words := "_" + strings.ReplaceAll(tstem, "-", "_") + "_"
		return strings.Contains(words, "_"+strings.ReplaceAll(stem, "-", "_")+"_")
	}
	return false
}
