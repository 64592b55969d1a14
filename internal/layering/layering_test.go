package layering

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/ctxexpand/ctxexpand"

// layers orders the top-level directories that the one-way rule covers;
// a package may import from its own layer's directory or a lower layer,
// never a higher one. Directories not listed (query, bundle, tokenize…)
// are libraries the layers share and are not ordered here.
var layers = map[string]int{"index": 0, "analyze": 1, "graph": 2, "rank": 2, "expand": 3, "engine": 4, "cmd": 5}

func goList(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list %v: %v\n%s", args, err, ee.Stderr)
		}
		t.Fatalf("go list %v: %v", args, err)
	}
	return string(out)
}

func layerOf(path string) (string, int, bool) {
	rel, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return "", 0, false
	}
	top, _, _ := strings.Cut(rel, "/")
	l, ok := layers[top]
	return top, l, ok
}

func TestDependenciesPointOneWay(t *testing.T) {
	out := goList(t, "-test", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...")
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		// An external test package (x_test) belongs to its package's layer.
		pkg := strings.TrimSuffix(f[0], "_test")
		from, lf, ok := layerOf(pkg)
		if !ok {
			continue
		}
		checked++
		for _, imp := range f[1:] {
			if to, li, ok := layerOf(imp); ok && li > lf {
				t.Errorf("%s (%s) imports %s (%s): dependencies point from the doors down to index, never up", pkg, from, imp, to)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d packages of the layers; go list's output changed?\n%s", checked, out)
	}
}

func TestBuildsWithoutCgo(t *testing.T) {
	pkgs := []string{"graph", "expand", "rank", "analyze/rust/resolve"}
	args := []string{"-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}"}
	for _, p := range pkgs {
		args = append(args, module+"/"+p)
	}
	if out := strings.TrimSpace(goList(t, args...)); out != "" {
		t.Errorf("%v must build without cgo, but they reach packages with cgo files:\n%s", pkgs, out)
	}
	// The check can fail: the Rust loader does need cgo.
	if out := goList(t, "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", module+"/analyze/rust"); !strings.Contains(out, "tree-sitter") {
		t.Errorf("go list finds no cgo below analyze/rust, which parses with tree-sitter; the check above proves nothing:\n%s", out)
	}
}
