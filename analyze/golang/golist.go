package golang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// listMode asks go list for the package graph only: no export data (which
// would compile every dependency) and no cgo processing.
const listMode = packages.NeedName | packages.NeedFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedModule | packages.NeedForTest

// list runs go list for a unit. When the module's go.sum lacks entries (or
// go.mod needs updating) it tries once more with -mod=mod on a temporary
// copy of go.mod and go.sum, so that modules already in the module cache
// resolve without the repository's files being touched.
func (l *loader) list(u *unit) ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode:    listMode,
		Context: l.ctx,
		Dir:     u.dir,
		Env:     u.env,
		Tests:   !l.opt.SkipTests,
	}
	pkgs, err := packages.Load(cfg, u.patterns...)
	if u.modfile == nil || l.ctx.Err() != nil {
		return pkgs, err
	}
	retry := (err != nil && needsModUpdate(err.Error())) || (err == nil && missingSums(pkgs))
	if !retry {
		return pkgs, err
	}
	tmp, cleanup, terr := tempModfile(u.modfile.dir)
	if terr != nil {
		return pkgs, err
	}
	defer cleanup()
	cfg.BuildFlags = []string{"-mod=mod", "-modfile=" + tmp}
	pkgs2, err2 := packages.Load(cfg, u.patterns...)
	if err2 == nil && (err != nil || countErrors(pkgs2) < countErrors(pkgs)) {
		l.opt.logf("golang: go list %s: retried with -mod=mod on a copy of go.mod", u.dir)
		return pkgs2, nil
	}
	return pkgs, err
}

func needsModUpdate(msg string) bool {
	return strings.Contains(msg, "updates to go.mod needed") || strings.Contains(msg, "missing go.sum entry")
}

func missingSums(pkgs []*packages.Package) bool {
	found := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if strings.Contains(e.Msg, "missing go.sum entry") {
				found = true
			}
		}
	})
	return found
}

func countErrors(pkgs []*packages.Package) int {
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) { n += len(p.Errors) })
	return n
}

// tempModfile copies dir's go.mod and go.sum into a temporary directory and
// returns the copy of go.mod.
func tempModfile(dir string) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "ctxexpand-gomod-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			if name == "go.sum" && os.IsNotExist(err) {
				continue
			}
			cleanup()
			return "", nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			cleanup()
			return "", nil, err
		}
	}
	return filepath.Join(tmp, "go.mod"), cleanup, nil
}

// goListMessage turns a go list failure into one line a user can act on.
func goListMessage(err error) string {
	msg := err.Error()
	if strings.Contains(msg, "executable file not found") {
		return "the go command is not installed or not on PATH"
	}
	// go/packages wraps go list's stderr: "err: exit status 1: stderr: go: …".
	if i := strings.Index(msg, "stderr: "); i >= 0 {
		msg = msg[i+len("stderr: "):]
	}
	var lines []string
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		lines = append(lines, strings.TrimPrefix(line, "go: "))
		if len(lines) == 2 {
			break
		}
	}
	return capText(strings.Join(lines, "; "), 300)
}

// listErrorHint adds what to do to a go list error about modules.
func (l *loader) listErrorHint(msg string) string {
	if l.opt.AllowNetwork {
		return msg
	}
	for _, s := range []string{"missing go.sum entry", "no required module provides", "module lookup disabled", "cannot find module"} {
		if strings.Contains(msg, s) {
			return msg + " (offline: run `go mod download` or `go mod tidy` in the module, or allow network access)"
		}
	}
	return msg
}

// parsePos splits a go list position "file:line:col" (file relative to
// dir or absolute).
func parsePos(pos, dir string) (file string, line int) {
	if pos == "" || pos == "-" {
		return "", 0
	}
	parts := strings.Split(pos, ":")
	file = parts[0]
	if len(parts) > 1 {
		fmt.Sscanf(parts[1], "%d", &line)
	}
	if file != "" && !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	return file, line
}
