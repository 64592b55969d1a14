// Package varied makes the queries the speed benchmarks ask of a tree:
// queries built from the tree's own declarations, in a handful of shapes,
// so that each seeds and expands differently. benchmarks/speed and the
// resident server's Go benchmarks ask the same ones.
package varied

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var declName = regexp.MustCompile(`^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:func|fn|type|struct|trait|enum)\s+(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)`)

// Queries makes n queries from the declarations of sources (paths
// relative to root, slash-separated), spread over the files: a fix, a
// question, a pinned file, a symbol that panics, a directory to refactor.
// It takes the first declaration of each file it reads whose name is
// longer than three characters.
func Queries(root string, sources []string, n int) []string {
	var names, paths []string
	step := max(1, len(sources)/(2*n))
	for i := 0; i < len(sources) && len(names) < 2*n; i += step {
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(sources[i])))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if m := declName.FindStringSubmatch(sc.Text()); m != nil && len(m[1]) > 3 {
				names = append(names, m[1])
				paths = append(paths, sources[i])
				break
			}
		}
		f.Close()
	}
	shapes := []func(name, path string) string{
		func(n, _ string) string { return "fix " + n + " returning the wrong result" },
		func(n, _ string) string { return "how does " + n + " work" },
		func(n, p string) string { return "@" + p + " why does " + n + " fail" },
		func(n, _ string) string { return n + " panics on empty input" },
		func(_, p string) string { return "refactor the code in " + filepath.ToSlash(filepath.Dir(p)) },
	}
	var out []string
	for i := 0; i < len(names) && len(out) < n; i++ {
		out = append(out, shapes[i%len(shapes)](names[i], paths[i]))
	}
	return out
}

// Sources lists the Go and Rust files of root that Queries reads from:
// neither tests nor under hidden, vendor, testdata or target directories;
// relative, slash-separated and sorted.
func Sources(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "vendor" || n == "testdata" || n == "target") {
				return filepath.SkipDir
			}
			return nil
		}
		if (strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go")) || strings.HasSuffix(p, ".rs") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}
