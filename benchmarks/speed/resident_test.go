package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppendDecl: the declaration edit leaves a Go file that still parses
// with the new function in it, and gives each round its own name.
func TestAppendDecl(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.go")
	if err := os.WriteFile(p, []byte("package a\n\nfunc A() {}\n// a trailing comment"), 0o644); err != nil {
		t.Fatal(err)
	}
	var names []string
	for round := 0; round < 2; round++ {
		name, ok := appendDecl(p, "go", round)
		if !ok {
			t.Fatalf("round %d: no declaration appended", round)
		}
		names = append(names, name)
	}
	if names[0] == names[1] {
		t.Errorf("two rounds added the same name %s", names[0])
	}
	f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
	if err != nil {
		t.Fatalf("the edited file does not parse: %v", err)
	}
	declared := map[string]bool{}
	for _, d := range f.Scope.Objects {
		declared[d.Name] = true
	}
	for _, n := range names {
		if !declared[n] {
			t.Errorf("%s is not declared in the edited file", n)
		}
	}
	rs := filepath.Join(dir, "a.rs")
	if err := os.WriteFile(rs, []byte("fn a() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	name, ok := appendDecl(rs, "rust", 3)
	data, _ := os.ReadFile(rs)
	if !ok || !strings.Contains(string(data), "pub fn "+name+"()") {
		t.Errorf("the Rust file lacks fn %s:\n%s", name, data)
	}
	py := filepath.Join(dir, "a.py")
	if err := os.WriteFile(py, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := appendDecl(py, "python", 0); ok {
		t.Errorf("a declaration was appended to a file of another language")
	}
}

func TestFirstFile(t *testing.T) {
	for bundle, want := range map[string]string{
		`{"version":1,"files":[{"path":"hugolib/site.go","rung":"full"},{"path":"b.go"}]}`: "hugolib/site.go",
		`{"version":1,"files":[]}`: "",
		`not json`:                 "",
	} {
		if got := firstFile(bundle); got != want {
			t.Errorf("firstFile(%q) = %q, want %q", bundle, got, want)
		}
	}
}
