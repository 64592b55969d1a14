package golang

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	modpath "golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
	"golang.org/x/tools/txtar"
)

// scenarioModule is a module a scenario's archive carries for its private
// module cache: "module MODPATH VERSION DIR".
type scenarioModule struct {
	path, version, dir string
}

// scenarioModules reads the module directives of a scenario's comment.
func scenarioModules(t *testing.T, ar *txtar.Archive) []scenarioModule {
	t.Helper()
	var mods []scenarioModule
	_, spec, _ := strings.Cut(string(ar.Comment), "\n\n") // prose, then directives
	for _, line := range strings.Split(spec, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "module" {
			continue
		}
		if len(f) != 4 {
			t.Fatalf("module directive %q: want module MODPATH VERSION DIR", line)
		}
		mods = append(mods, scenarioModule{path: f[1], version: f[2], dir: strings.TrimSuffix(f[3], "/") + "/"})
	}
	return mods
}

// withoutModules is ar without the files of mods, which belong to the
// module cache, not to the repository.
func withoutModules(ar *txtar.Archive, mods []scenarioModule) *txtar.Archive {
	out := &txtar.Archive{Comment: ar.Comment}
	for _, f := range ar.Files {
		if moduleOf(f.Name, mods) == nil {
			out.Files = append(out.Files, f)
		}
	}
	return out
}

func moduleOf(name string, mods []scenarioModule) *scenarioModule {
	for i := range mods {
		if strings.HasPrefix(name, mods[i].dir) {
			return &mods[i]
		}
	}
	return nil
}

// privateModuleCache serves mods from a file:// proxy in a temporary
// directory, downloads them into a module cache of the test's own, the way
// `go mod download` fills a user's, and returns the environment that
// points the loader at that cache. Nothing is asked of the network or of
// this machine's module cache, and the checksum database is never
// consulted while filling it (GONOSUMDB covers the modules).
func privateModuleCache(t *testing.T, ar *txtar.Archive, mods []scenarioModule) []string {
	t.Helper()
	tmp := t.TempDir()
	proxy, cache := filepath.Join(tmp, "proxy"), filepath.Join(tmp, "modcache")
	var paths, args []string
	for _, m := range mods {
		src := filepath.Join(tmp, "src", m.path)
		for _, f := range ar.Files {
			if rel, ok := strings.CutPrefix(f.Name, m.dir); ok {
				writeFile(t, src, rel, f.Data)
			}
		}
		writeProxyModule(t, proxy, m, src)
		paths = append(paths, m.path)
		args = append(args, m.path+"@"+m.version)
	}
	env := append(os.Environ(),
		"GOMODCACHE="+cache,
		"GOFLAGS=-modcacherw", // t.TempDir must be able to remove it
		"GOTOOLCHAIN=local",
		"GOWORK=off",
	)
	fill := append(append([]string(nil), env...),
		"GOPROXY=file://"+filepath.ToSlash(proxy),
		"GONOSUMDB="+strings.Join(paths, ","),
	)
	cmd := exec.Command("go", append([]string{"mod", "download"}, args...)...)
	cmd.Dir, cmd.Env = tmp, fill
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("filling the scenario's module cache: %v\n%s", err, out)
	}
	return env
}

// writeProxyModule lays out one module version in a GOPROXY directory:
// list, .info, .mod and .zip under PATH/@v/.
func writeProxyModule(t *testing.T, proxy string, m scenarioModule, src string) {
	t.Helper()
	esc, err := modpath.EscapePath(m.path)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(proxy, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatalf("module %s has no go.mod in the archive: %v", m.path, err)
	}
	var zip bytes.Buffer
	if err := modzip.CreateFromDir(&zip, modpath.Version{Path: m.path, Version: m.version}, src); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"list":              []byte(m.version + "\n"),
		m.version + ".info": []byte(`{"Version":"` + m.version + `","Time":"2024-01-01T00:00:00Z"}`),
		m.version + ".mod":  gomod,
		m.version + ".zip":  zip.Bytes(),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
