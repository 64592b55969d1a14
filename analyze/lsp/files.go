package lsp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// fileData is what the loader keeps of a file besides its analyze.File.
type fileData struct {
	abs   string
	uri   string
	lines []string
}

// readFiles reads the listed files into the facts' file table: size,
// lines, hash, category, and the package as well as it can be told from
// the source and the nearest go.mod or Cargo.toml. Go files also get their
// imports. Unreadable files become ProblemSkipped.
func (l *loader) readFiles(paths []string) {
	for _, rel := range paths {
		src, err := analyze.ReadSource(l.root, rel, l.opt.maxFileSize())
		if err != nil {
			l.facts.Problemf(analyze.ProblemSkipped, rel, 0, "not analysed: %v", err)
			continue
		}
		sum := sha256.Sum256(src)
		f := analyze.File{
			Path:     rel,
			Lang:     l.lang,
			Category: analyze.Classify(rel),
			Size:     int64(len(src)),
			Hash:     hex.EncodeToString(sum[:]),
		}
		if f.Category == analyze.CatSource && analyze.IsGeneratedContent(src) {
			f.Category = analyze.CatGenerated
		}
		lines := splitLines(src)
		f.Lines = len(lines)
		var imports []analyze.Import
		switch l.lang {
		case analyze.LangGo:
			imports = l.goPackage(&f, src)
		case analyze.LangRust:
			l.rustPackage(&f)
		}
		id := l.facts.AddFile(f)
		for _, im := range imports {
			im.File = id
			l.facts.Imports = append(l.facts.Imports, im)
		}
		abs := filepath.Join(l.root, filepath.FromSlash(rel))
		l.files = append(l.files, fileData{abs: abs, uri: fileURI(abs), lines: lines})
		l.byURI[l.files[id].uri] = id
		l.byPath[rel] = id
	}
}

// goPackage fills in the package name (from the package clause), the
// import path (module path plus directory; external test packages get a
// "_test" suffix, as go list names them) and returns the imports.
func (l *loader) goPackage(f *analyze.File, src []byte) []analyze.Import {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, f.Path, src, parser.ImportsOnly|parser.ParseComments)
	if af == nil {
		if err != nil {
			f.Errors++
		}
		return nil
	}
	if err != nil {
		f.Errors++
	}
	f.PkgName = af.Name.Name
	dir := path.Dir(f.Path)
	if mod, modDir, ok := l.goModule(dir); ok {
		rel := strings.TrimPrefix(strings.TrimPrefix(dir, modDir), "/")
		if modDir == "." {
			rel = dir
		}
		f.Package = mod
		if rel != "." && rel != "" {
			f.Package = mod + "/" + rel
		}
	} else {
		f.Package = dir
	}
	if strings.HasSuffix(f.PkgName, "_test") && strings.HasSuffix(f.Path, "_test.go") {
		f.Package += "_test"
	}
	var out []analyze.Import
	for _, spec := range af.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		out = append(out, analyze.Import{Path: p, Line: fset.Position(spec.Pos()).Line})
	}
	return out
}

// goModule returns the module path and the root-relative directory of the
// go.mod that governs dir, looking upward no further than the root.
func (l *loader) goModule(dir string) (mod, modDir string, ok bool) {
	for d := dir; ; d = path.Dir(d) {
		if m, seen := l.modules[d]; seen {
			if m != "" {
				return m, d, true
			}
		} else {
			data, err := os.ReadFile(filepath.Join(l.root, filepath.FromSlash(d), "go.mod"))
			m = ""
			if err == nil {
				m = modfile.ModulePath(data)
			}
			l.modules[d] = m
			if m != "" {
				return m, d, true
			}
		}
		if d == "." || d == "/" {
			return "", "", false
		}
	}
}

// rustPackage fills in the crate name (from the nearest Cargo.toml's
// [package] name) and the module path the file's place in the crate
// suggests: src/lib.rs is the crate, src/store/mem.rs crate::store::mem,
// src/main.rs and src/bin/x.rs binaries, tests/, examples/ and benches/
// their own targets.
func (l *loader) rustPackage(f *analyze.File) {
	crate, crateDir := l.rustCrate(path.Dir(f.Path))
	f.PkgName = crate
	rel := f.Path
	if crateDir != "." {
		rel = strings.TrimPrefix(f.Path, crateDir+"/")
	}
	f.Package = rustModulePath(crate, rel)
}

// rustModulePath is the module path of the file at rel (relative to its
// crate's directory) in crate.
func rustModulePath(crate, rel string) string {
	segs := strings.Split(strings.TrimSuffix(rel, ".rs"), "/")
	prefix := ""
	switch {
	case len(segs) >= 3 && segs[0] == "src" && segs[1] == "bin":
		prefix, segs = "bin:", segs[2:]
		crate, segs = segs[0], segs[1:]
	case len(segs) >= 2 && segs[0] == "src":
		segs = segs[1:]
		if len(segs) == 1 && segs[0] == "main" {
			return "bin:" + crate
		}
	case len(segs) >= 2 && (segs[0] == "tests" || segs[0] == "examples" || segs[0] == "benches"):
		prefix = map[string]string{"tests": "test:", "examples": "example:", "benches": "bench:"}[segs[0]]
		crate, segs = segs[1], segs[2:]
	case len(segs) == 1 && segs[0] == "build":
		return "build:build_script_build"
	}
	var mods []string
	for i, s := range segs {
		if i == len(segs)-1 && (s == "mod" || s == "lib" || s == "main") {
			break
		}
		mods = append(mods, s)
	}
	return prefix + strings.Join(append([]string{crate}, mods...), "::")
}

// rustCrate returns the crate name and root-relative directory of the
// nearest Cargo.toml with a [package] name above dir; without one the
// crate is named after the root directory.
func (l *loader) rustCrate(dir string) (string, string) {
	for d := dir; ; d = path.Dir(d) {
		name, seen := l.modules[d]
		if !seen {
			data, err := os.ReadFile(filepath.Join(l.root, filepath.FromSlash(d), "Cargo.toml"))
			if err == nil {
				name = cargoPackageName(data)
			}
			l.modules[d] = name
		}
		if name != "" {
			return name, d
		}
		if d == "." || d == "/" {
			return rustIdent(filepath.Base(l.root)), "."
		}
	}
}

// cargoPackageName reads name = "…" from the [package] table of a
// Cargo.toml, as a Rust identifier (dashes become underscores), or "".
// It understands just enough TOML for that one key.
func cargoPackageName(data []byte) string {
	section := ""
	for _, raw := range bytes.Split(data, []byte("\n")) {
		t := strings.TrimSpace(string(raw))
		if strings.HasPrefix(t, "[") {
			section = strings.TrimSpace(strings.Trim(t, "[]"))
			continue
		}
		if section != "package" {
			continue
		}
		key, val, ok := strings.Cut(t, "=")
		if !ok || strings.TrimSpace(key) != "name" {
			continue
		}
		val = strings.TrimSpace(val)
		if i := strings.Index(val, "#"); i > 0 && (val[0] != '"' && val[0] != '\'') {
			val = strings.TrimSpace(val[:i])
		}
		if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') {
			if end := strings.IndexByte(val[1:], val[0]); end >= 0 {
				return rustIdent(val[1 : end+1])
			}
		}
		return ""
	}
	return ""
}

// rustIdent turns a package name into the crate name Rust code uses.
func rustIdent(s string) string { return strings.ReplaceAll(s, "-", "_") }
