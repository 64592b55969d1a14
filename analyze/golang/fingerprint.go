package golang

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
)

// Fingerprint describes, as text, everything besides the content of the
// repository's .go files that a Load of root with these options depends
// on: the options, the go command and its environment (version, GOROOT,
// target, flags, module cache location), the go.mod, go.sum, go.work and
// vendor/modules.txt files that apply, which of the required module
// versions the module cache holds, and the Go files (by size and
// modification time) of local replacements outside root. goFiles are the
// repository-relative paths of the .go files under root.
//
// Two loads whose fingerprints and .go file contents are equal give equal
// facts, which is what lets a cache reuse them; a module downloaded since
// (go mod download) changes the fingerprint. It runs `go env` once and
// reads only module metadata, never source files under root.
func Fingerprint(ctx context.Context, root string, goFiles []string, opt Options) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	var b strings.Builder
	fmt.Fprintf(&b, "options skip-tests=%v syntax-only=%v all-dirs=%v max-size=%d network=%v\n",
		opt.SkipTests, opt.SyntaxOnly, opt.AllDirs, opt.maxFileSize(), opt.AllowNetwork)
	env := opt.goEnv()
	vals := typecache.GoEnv(ctx, env)
	for _, k := range typecache.EnvVars {
		fmt.Fprintf(&b, "env %s=%s\n", k, vals[k])
	}
	if opt.SyntaxOnly {
		return b.String(), nil
	}
	lay := discoverLayout(abs, goFiles, env)
	var dirs []string
	for _, m := range lay.mods {
		dirs = append(dirs, m.dir)
	}
	if lay.enclosing != nil {
		dirs = append(dirs, lay.enclosing.dir)
	}
	b.WriteString(typecache.ModuleFiles(abs, dirs, lay.work, vals["GOMODCACHE"]))
	return b.String(), nil
}
