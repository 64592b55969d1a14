package golang

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
)

// listMode asks go list for the package graph only: no export data (which
// would compile every dependency) and no cgo processing.
const listMode = packages.NeedName | packages.NeedFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedModule | packages.NeedForTest

// maxModRetries bounds the go list reruns that drop unavailable modules.
const maxModRetries = 3

// list runs go list for a unit. Offline, two module problems would
// otherwise cost the typed load: go.sum lacking entries for modules that
// are in the module cache, and requirements whose go.mod is not in the
// cache at all, which make go list fail outright before listing a single
// package. Both are retried with -mod=mod on a temporary copy of go.mod
// and go.sum (never the repository's own files), dropping the unavailable
// requirements from the copy; packages that import them then report the
// import as missing and keep partial types.
//
// It may run while another unit is being checked: it reads only the
// loader's immutable fields and returns its problems instead of recording
// them.
func (l *loader) list(u *unit) ([]*packages.Package, []analyze.Problem, error) {
	cfg := &packages.Config{
		Mode:    listMode,
		Context: l.ctx,
		Dir:     u.dir,
		Env:     u.env,
		Tests:   !l.opt.SkipTests,
		Overlay: l.overlay,
	}
	pkgs, err := packages.Load(cfg, u.patterns...)
	if u.modfile == nil {
		return pkgs, nil, err
	}
	var probs []analyze.Problem
	var dropped []string
	for attempt := 0; attempt < maxModRetries && l.ctx.Err() == nil; attempt++ {
		var drop []string
		if err != nil {
			drop = unavailableModules(err.Error(), u.modfile.path)
			if len(drop) == 0 && !needsModUpdate(err.Error()) {
				break
			}
		} else if !missingSums(pkgs) {
			break
		}
		drop = append(drop, dropped...)
		tmp, cleanup, terr := tempModfile(u.modfile.dir, drop)
		if terr != nil {
			break
		}
		cfg.BuildFlags = []string{"-mod=mod", "-modfile=" + tmp}
		if !l.opt.AllowNetwork {
			// Offline (GOPROXY=off), nothing can be downloaded: the copy's
			// missing go.sum entries come from the module cache, which
			// verified each module when it was downloaded. GOPROXY=off
			// does not stop go from asking the checksum database about
			// them, and that lookup failed the retry.
			cfg.Env = append(append([]string(nil), u.env...), "GOSUMDB=off")
		}
		pkgs2, err2 := packages.Load(cfg, u.patterns...)
		cleanup()
		if err2 != nil {
			if more := unavailableModules(err2.Error(), u.modfile.path); len(more) > 0 && err != nil {
				dropped, err = append(drop, more...), err2
				continue
			}
			break
		}
		if err == nil && countErrors(pkgs2) >= countErrors(pkgs) {
			break
		}
		l.opt.logf("golang: go list %s: retried with -mod=mod on a copy of go.mod without %v", u.dir, drop)
		pkgs, err, dropped = pkgs2, nil, drop
		for _, m := range drop {
			p := analyze.Problem{Kind: analyze.ProblemLoad, Msg: "module " + m + " is not in the module cache (offline); " +
				"packages importing it are partially typed (run `go mod download` to fix)"}
			if rel, ok := l.relOf(filepath.Join(u.modfile.dir, "go.mod")); ok {
				p.Path = rel
			}
			probs = append(probs, p)
		}
		break
	}
	return pkgs, probs, err
}

// unavailableModules picks the requirements go list could not read out of
// its error ("go: example.com/m@v1.2.3: module lookup disabled by
// GOPROXY=off"), leaving out the main module itself.
func unavailableModules(msg, mainPath string) []string {
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "go: "); i >= 0 {
			line = line[i+len("go: "):]
		}
		mod, rest, ok := strings.Cut(line, ": ")
		if !ok || rest == "" || strings.HasPrefix(mod, "downloading ") {
			continue
		}
		path, _, ok := strings.Cut(mod, "@")
		if !ok || path == "" || path == mainPath || strings.ContainsAny(path, " \t") {
			continue
		}
		out = append(out, path)
	}
	return out
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

// tempModfile copies dir's go.mod, without the requirements on the
// modules in drop, and its go.sum into a temporary directory, and returns
// the copy of go.mod.
func tempModfile(dir string, drop []string) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "ctxexpand-gomod-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	if len(drop) > 0 {
		f, err := modfile.Parse(gomod, data, nil)
		if err != nil {
			cleanup()
			return "", nil, err
		}
		for _, m := range drop {
			_ = f.DropRequire(m)
		}
		f.Cleanup()
		if data, err = f.Format(); err != nil {
			cleanup()
			return "", nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), data, 0o644); err != nil {
		cleanup()
		return "", nil, err
	}
	if sum, err := os.ReadFile(filepath.Join(dir, "go.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(tmp, "go.sum"), sum, 0o644); err != nil {
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
		if line == "" || strings.HasPrefix(line, "go: downloading ") {
			continue
		}
		lines = append(lines, strings.TrimPrefix(line, "go: "))
		if len(lines) == 2 {
			break
		}
	}
	return extract.CapText(strings.Join(lines, "; "), 300)
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

// listedNothing returns the error of a go list run that listed no package
// at all, only the pseudo-package go list reports a failure of the whole
// run in (a go.work naming a missing module: "cannot load module gone
// listed in go.work file"), so that the failure is reported as such
// instead of every package going unlisted without a word.
func listedNothing(roots []*packages.Package) error {
	var msgs []string
	for _, p := range roots {
		if len(p.GoFiles) > 0 || len(p.CompiledGoFiles) > 0 || len(p.IgnoredFiles) > 0 || p.Name != "" {
			return nil
		}
		for _, e := range p.Errors {
			msgs = append(msgs, e.Msg)
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "\n"))
}
