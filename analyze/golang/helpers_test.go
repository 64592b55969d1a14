package golang

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGoEnv(t *testing.T) {
	opt := Options{Env: []string{"PATH=/bin", "GOFLAGS=-mod=mod -tags=x -modfile=other.mod", "GOPROXY=https://proxy.example"}}
	env := opt.goEnv()
	for name, want := range map[string]string{
		"GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "-tags=x", "CGO_ENABLED": "1", "GOPACKAGESDRIVER": "off",
	} {
		if got, _ := envValue(env, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	opt = Options{Env: []string{"CGO_ENABLED=0", "GOPROXY=https://proxy.example"}, AllowNetwork: true}
	env = opt.goEnv()
	if got, _ := envValue(env, "CGO_ENABLED"); got != "0" {
		t.Errorf("CGO_ENABLED = %q, want the caller's 0", got)
	}
	if got, _ := envValue(env, "GOPROXY"); got != "https://proxy.example" {
		t.Errorf("GOPROXY = %q with AllowNetwork, want the caller's", got)
	}
}

func TestLayoutImportPath(t *testing.T) {
	lay := &layout{mods: []*module{
		{rel: ".", path: "example.com/root"},
		{rel: "tools", path: "example.com/root/tools"},
		{rel: "x/y", path: "example.com/xy"},
	}}
	tests := map[string]string{
		".":         "example.com/root",
		"a/b":       "example.com/root/a/b",
		"tools":     "example.com/root/tools",
		"tools/gen": "example.com/root/tools/gen",
		"toolsx":    "example.com/root/toolsx",
		"x/y/z":     "example.com/xy/z",
	}
	for dir, want := range tests {
		if got := lay.importPath(dir, ""); got != want {
			t.Errorf("importPath(%q) = %q, want %q", dir, got, want)
		}
	}
	std := &layout{enclosing: &module{path: "std"}}
	if got := std.importPath("cookiejar", "net/http"); got != "net/http/cookiejar" {
		t.Errorf("std importPath = %q", got)
	}
	if got := std.importPath(".", "net/http"); got != "net/http" {
		t.Errorf("std root importPath = %q", got)
	}
}

func TestUnavailableModules(t *testing.T) {
	msg := "err: exit status 1: stderr: go: downloading github.com/google/go-cmp v0.6.0\n" +
		"go: downloading golang.org/x/telemetry v0.0.0-20261009151841-97e8ea77aa2a\n" +
		"go: github.com/google/go-cmp@v0.6.0: module lookup disabled by GOPROXY=off\n" +
		"go: example.com/main@v1.0.0: whatever\n"
	got := unavailableModules(msg, "example.com/main")
	if diff := cmp.Diff([]string{"github.com/google/go-cmp"}, got); diff != "" {
		t.Errorf("unavailableModules (-want +got):\n%s", diff)
	}
	if got := goListMessage(errors.New(msg)); got != "github.com/google/go-cmp@v0.6.0: module lookup disabled by GOPROXY=off; example.com/main@v1.0.0: whatever" {
		t.Errorf("goListMessage = %q", got)
	}
}

func TestTempModfileDrops(t *testing.T) {
	dir := t.TempDir()
	gomod := "module example.com/m\n\ngo 1.22\n\nrequire (\n\texample.com/a v1.0.0\n\texample.com/b v1.0.0\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), []byte("example.com/a v1.0.0 h1:x=\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp, cleanup, err := tempModfile(dir, []string{"example.com/a"})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	data, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "example.com/a") || !strings.Contains(string(data), "example.com/b v1.0.0") {
		t.Errorf("temporary go.mod:\n%s", data)
	}
	if sum, err := os.ReadFile(filepath.Join(filepath.Dir(tmp), "go.sum")); err != nil || string(sum) != "example.com/a v1.0.0 h1:x=\n" {
		t.Errorf("go.sum copy = %q, %v", sum, err)
	}
	if orig, _ := os.ReadFile(filepath.Join(dir, "go.mod")); string(orig) != gomod {
		t.Error("original go.mod changed")
	}
}
