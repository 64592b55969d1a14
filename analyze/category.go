package analyze

import (
	"bytes"
	"path"
	"strings"
)

// Category classifies a file by what kind of code it holds. Ranking demotes
// tests, generated, vendored and example code; benchmarks score only source.
type Category uint8

const (
	CatSource    Category = iota // ordinary source
	CatTest                      // tests and test helpers
	CatGenerated                 // machine-written code
	CatVendored                  // vendored or third-party code
	CatExample                   // examples, benchmarks, docs, tooling
)

var catNames = [...]string{"source", "test", "generated", "vendored", "example"}

func (c Category) String() string {
	if int(c) < len(catNames) {
		return catNames[c]
	}
	return "unknown"
}

// LangOf returns the language of a path by its extension.
func LangOf(p string) Lang {
	switch path.Ext(p) {
	case ".go":
		return LangGo
	case ".rs":
		return LangRust
	case ".ts", ".tsx", ".mts", ".cts":
		return LangTypeScript
	case ".js", ".jsx", ".mjs", ".cjs":
		return LangJavaScript
	case ".py", ".pyi":
		return LangPython
	}
	return LangUnknown
}

var vendoredDirs = map[string]bool{"vendor": true, "third_party": true, "third-party": true, "node_modules": true}

var exampleDirs = map[string]bool{
	"examples": true, "example": true, "_examples": true, "bench": true, "benches": true,
	"benchmark": true, "benchmarks": true, "fuzz": true, "docs": true, ".github": true,
	"scripts": true, "hack": true, "xtask": true, "tools": true, "contrib": true,
}

var testDirs = map[string]bool{
	"test": true, "tests": true, "testdata": true, "testutil": true, "testutils": true,
	"integration": true, "e2e": true, "snapshots": true, "mock": true, "mocks": true,
	"fixture": true, "fixtures": true, "__tests__": true,
}

var rustTestFiles = map[string]bool{
	"tests.rs": true, "test.rs": true, "test_utils.rs": true, "testutil.rs": true,
}

// Classify puts a repository-relative, slash-separated path in a Category by
// its name alone. Content-based generated detection is [IsGeneratedContent].
func Classify(p string) Category {
	dirs := strings.Split(path.Dir(p), "/")
	base := path.Base(p)
	for _, d := range dirs {
		if vendoredDirs[d] {
			return CatVendored
		}
	}
	for _, d := range dirs {
		if testDirs[d] || (strings.Contains(d, "-test-") || strings.HasSuffix(d, "-testing")) {
			return CatTest
		}
	}
	if strings.HasSuffix(base, "_test.go") || rustTestFiles[base] ||
		strings.HasSuffix(base, "_test.rs") || strings.HasSuffix(base, "_tests.rs") || isScriptTest(base) {
		return CatTest
	}
	if isGeneratedName(base) {
		return CatGenerated
	}
	for _, d := range dirs {
		if exampleDirs[d] {
			return CatExample
		}
	}
	return CatSource
}

// isScriptTest reports whether a TypeScript, JavaScript or Python file name
// is a test by the usual conventions: user.test.ts, user.spec.js,
// test_user.py, user_test.py, conftest.py.
func isScriptTest(base string) bool {
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch LangOf(base) {
	case LangTypeScript, LangJavaScript:
		return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
	case LangPython:
		return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || stem == "conftest"
	}
	return false
}

func isGeneratedName(base string) bool {
	switch {
	case strings.HasSuffix(base, ".pb.go"), strings.HasSuffix(base, "_gen.go"),
		strings.HasSuffix(base, ".gen.go"), strings.HasSuffix(base, "_generated.go"),
		strings.HasPrefix(base, "zz_generated"), base == "bindata.go",
		strings.HasSuffix(base, "_string.go"):
		return true
	}
	return false
}

var generatedMarker = []byte("DO NOT EDIT")

// IsGeneratedContent reports whether src carries the standard marker of
// generated Go code ("// Code generated … DO NOT EDIT.") or Rust's
// equivalent ("// @generated" or a "DO NOT EDIT" banner) before the first
// declaration.
func IsGeneratedContent(src []byte) bool {
	head := src
	if len(head) > 4096 {
		head = head[:4096]
	}
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !bytes.HasPrefix(line, []byte("//")) && !bytes.HasPrefix(line, []byte("/*")) && !bytes.HasPrefix(line, []byte("#!")) {
			return false
		}
		if bytes.HasPrefix(line, []byte("// Code generated ")) && bytes.Contains(line, generatedMarker) {
			return true
		}
		if bytes.Contains(line, []byte("@generated")) || bytes.Contains(line, generatedMarker) {
			return true
		}
	}
	return false
}
