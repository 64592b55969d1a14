package typecache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	modpath "golang.org/x/mod/module"
)

// Fingerprints.
//
// A load's records are keyed by the content of the .go files under the
// root and by everything else it depends on, which the caller describes
// as text: the loader's Fingerprint, made of the options, the go
// environment ([GoEnv]) and the module files ([ModuleFiles]). A module
// downloaded since (go mod download) changes it.

// EnvVars are the go env variables a load depends on.
var EnvVars = []string{"GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED",
	"GOEXPERIMENT", "GOWORK", "GOMODCACHE", "GOAMD64", "GOARM64", "GOINSECURE", "GONOSUMDB", "GOPRIVATE"}

// GoEnv asks the go command, run with env, for the values of EnvVars;
// without a go command every value is empty but GOVERSION, which says so
// (and loads are syntax-only).
func GoEnv(ctx context.Context, env []string) map[string]string {
	cmd := exec.CommandContext(ctx, "go", append([]string{"env", "-json"}, EnvVars...)...)
	cmd.Env = env
	out, err := cmd.Output()
	vals := map[string]string{}
	if err != nil {
		vals["GOVERSION"] = "go command unavailable"
		return vals
	}
	_ = json.Unmarshal(out, &vals)
	return vals
}

// ModuleFiles describes the module files a load under root depends on:
// for each module directory, its go.mod, go.sum and vendor/modules.txt by
// content and which required module versions the module cache (modcache)
// holds; then the go.work file and its go.work.sum, when work names one.
func ModuleFiles(root string, modDirs []string, work, modcache string) string {
	var b strings.Builder
	for _, dir := range modDirs {
		for _, name := range []string{"go.mod", "go.sum", filepath.Join("vendor", "modules.txt")} {
			fmt.Fprintf(&b, "file %s %s\n", relOr(root, filepath.Join(dir, name)), fileDigest(filepath.Join(dir, name)))
		}
		modulePresence(&b, root, dir, modcache)
	}
	if work != "" {
		for _, p := range []string{work, work + ".sum"} {
			fmt.Fprintf(&b, "file %s %s\n", relOr(root, p), fileDigest(p))
		}
	}
	return b.String()
}

// modulePresence records, for each requirement of the go.mod in dir
// (after replacements), whether the module cache holds it, and for local
// replacements outside root the size and time of their Go files.
func modulePresence(b *strings.Builder, root, dir, modcache string) {
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return
	}
	// Parse, not ParseLax: ParseLax reads a go.mod as a dependency's and
	// drops its replace directives, which apply here. A go.mod Parse
	// rejects (a directive from a newer Go, say) is still read for its
	// requirements.
	f, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		if f, err = modfile.ParseLax(gomod, data, nil); err != nil {
			return
		}
	}
	replaced := map[string]*modfile.Replace{}
	for _, r := range f.Replace {
		replaced[r.Old.Path+"@"+r.Old.Version] = r
		if r.Old.Version == "" {
			replaced[r.Old.Path] = r
		}
	}
	var lines []string
	for _, req := range f.Require {
		mv := req.Mod
		r := replaced[mv.Path+"@"+mv.Version]
		if r == nil {
			r = replaced[mv.Path]
		}
		if r != nil {
			if r.New.Version == "" {
				local := filepath.FromSlash(r.New.Path)
				if !filepath.IsAbs(local) {
					local = filepath.Join(dir, local)
				}
				lines = append(lines, fmt.Sprintf("replace %s => %s", mv.Path, localDigest(root, filepath.Clean(local))))
				continue
			}
			mv = r.New
		}
		lines = append(lines, fmt.Sprintf("require %s@%s %v", mv.Path, mv.Version, inModCache(modcache, mv.Path, mv.Version)))
	}
	sort.Strings(lines)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// inModCache reports whether the module cache holds a module's go.mod and
// its extracted source.
func inModCache(modcache, path, version string) string {
	if modcache == "" {
		return "no-cache"
	}
	ep, err := modpath.EscapePath(path)
	if err != nil {
		return "bad-path"
	}
	ev, err := modpath.EscapeVersion(version)
	if err != nil {
		return "bad-version"
	}
	state := ""
	if _, err := os.Stat(filepath.Join(modcache, "cache", "download", filepath.FromSlash(ep), "@v", ev+".mod")); err == nil {
		state += "mod"
	}
	if _, err := os.Stat(filepath.Join(modcache, filepath.FromSlash(ep)+"@"+ev)); err == nil {
		state += "+src"
	}
	if state == "" {
		state = "absent"
	}
	return state
}

// localDigest describes a local replacement: inside root its files are
// the caller's to hash; outside, the size and modification time of its Go
// files and module files stand for their content.
func localDigest(root, dir string) string {
	if rel, ok := relUnder(root, dir); ok {
		return "root:" + rel
	}
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); p != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if name := d.Name(); strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" {
			if info, err := d.Info(); err == nil {
				fmt.Fprintf(h, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
			}
		}
		return nil
	})
	return dir + " " + hex.EncodeToString(h.Sum(nil)[:12])
}

// fileDigest is a short hash of a file's content, or "absent".
func fileDigest(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return "absent"
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

func relOr(root, p string) string {
	if rel, ok := relUnder(root, p); ok {
		return rel
	}
	return p
}

// relUnder returns target relative to base, slash-separated, when target
// is base or below it.
func relUnder(base, target string) (string, bool) {
	rel, err := filepath.Rel(base, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
