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

// TestsModule reports whether the Rust integration test file test tests a
// module that encloses src, or src's own module, by its path: a crate's
// tests/ directory often mirrors its module tree, so that the tests of
// src/dfa/sparse.rs are in tests/dfa/*.rs, those of src/clone/fetch/mod.rs
// in tests/clone.rs, and those of src/routes/search.rs in
// tests/search/*.rs. It returns the module's name.
//
// Both files must be in the same package (the directory above src/ is the
// one above tests/), test must be under its tests/ directory and src under
// src/; a module matches a directory of test below tests/, or its stem or
// whole "_"- or "-"-separated parts of it (tests/async_impl_redirect.rs). NamesTest is the stronger
// relation (the test file is named after src's own module); callers try it
// first. Crate roots (lib.rs, main.rs) and mod.rs name no module of their
// own: their directory does.
func TestsModule(src, test, lang string) (string, bool) {
	if lang != "rust" {
		return "", false
	}
	spkg, srest, ok := splitAt(src, "src")
	if !ok || len(srest) == 0 {
		return "", false
	}
	tpkg, trest, ok := splitAt(test, "tests")
	if !ok || len(trest) == 0 || spkg != tpkg {
		return "", false
	}
	words := map[string]bool{}
	for _, d := range trest[:len(trest)-1] {
		words[norm(d)] = true
	}
	stem := "_" + norm(strings.TrimSuffix(trest[len(trest)-1], path.Ext(trest[len(trest)-1]))) + "_"
	// The innermost module first: src's own, then those enclosing it.
	for i := len(srest) - 1; i >= 0; i-- {
		m := srest[i]
		if i == len(srest)-1 {
			m = strings.TrimSuffix(m, path.Ext(m))
			if m == "mod" || m == "lib" || m == "main" {
				continue
			}
		}
		if m = norm(m); m != "" && (words[m] || strings.Contains(stem, "_"+m+"_")) {
			return m, true
		}
	}
	return "", false
}

// splitAt splits the slash-separated path p at its last element named dir:
// the path above it and the elements below it.
func splitAt(p, dir string) (string, []string, bool) {
	parts := strings.Split(p, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] == dir {
			return strings.Join(parts[:i], "/"), parts[i+1:], true
		}
	}
	return "", nil, false
}

// norm writes a module or file name's "-" as "_", as Cargo does for crate
// names.
func norm(s string) string { return strings.ReplaceAll(s, "-", "_") }
