package golang

import (
	"path/filepath"
	"testing"
)

// FuzzModuleFiles: go.mod and go.work are whatever the repository holds.
// Reading them for the layout (module paths, Go versions, workspace uses)
// and planning the go list runs never panics, and every planned run is in
// the repository.
func FuzzModuleFiles(f *testing.F) {
	f.Add("module example.com/m\n\ngo 1.22\n\nrequire example.com/x v1.0.0\n", "go 1.22\n\nuse ./sub\n")
	f.Add("module example.com/m\ngo 1.99\ntoolchain go1.99.1\nreplace example.com/x => ../../outside\n", "use (\n\t.\n\t../elsewhere\n\t/abs\n)\n")
	f.Add("this is not a go.mod {{{", "go 1.22\nuse")
	f.Add("module \"quoted path\"\nretract [v1.0.0, v1.9.9]\nexclude example.com/x v1.0.0\n", "")
	f.Add("", "go 1.22\nreplace x => y\n")
	// One directory for every input of this process, and only the module
	// files written (the layout reads the listing, not the .go files):
	// writing files is most of the time an input takes.
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, gomod, gowork string) {
		writeFile(t, root, "go.mod", []byte(gomod))
		writeFile(t, root, "go.work", []byte(gowork))
		writeFile(t, root, "sub/go.mod", []byte(gomod))
		lay := discoverLayout(root, []string{"a.go", "sub/b.go"}, []string{"GOWORK=" + filepath.Join(root, "go.work")})
		for _, u := range lay.units(root, nil) {
			if _, ok := relUnder(root, u.dir); !ok {
				t.Fatalf("a go list run in %s, outside the root %s", u.dir, root)
			}
		}
		for _, d := range []string{".", "sub", "sub/x"} {
			_ = lay.importPath(d, "")
		}
	})
}
