package golang

import (
	"os"
	"runtime"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Options configures Load. The zero value analyses every Go file under the
// root, tests included, with go list run offline.
type Options struct {
	// SkipTests leaves _test.go files out of the analysis entirely.
	SkipTests bool

	// SyntaxOnly skips go list and type checking: every package is
	// analysed from syntax, as when no go command is available.
	SyntaxOnly bool

	// MaxFileSize skips larger files with a ProblemSkipped; 0 means
	// analyze.MaxFileSize. Larger files of a type-checked package are
	// still parsed (up to 4×) so that the rest of it type-checks.
	MaxFileSize int64

	// Ignore, when set, is asked about every path (slash-separated,
	// relative to the root) before it is listed or descended into, as in
	// analyze.WalkOptions.
	Ignore func(rel string, isDir bool) bool

	// AllDirs also analyses vendor and testdata directories and those
	// whose name starts with "_", which the go command leaves out of
	// "./..." (they are analysed from syntax only).
	AllDirs bool

	// Env is the environment of the go command; nil means os.Environ().
	// Whatever it says, the loader sets GOTOOLCHAIN=local (never switch
	// toolchains), GOPACKAGESDRIVER=off, GOPROXY=off unless AllowNetwork,
	// drops -mod=mod from GOFLAGS (go list must not edit go.mod), and sets
	// CGO_ENABLED=1 unless Env itself sets it, so the files chosen do not
	// depend on whether a C compiler happens to be installed (cgo files are
	// type-checked with a fake "C" package). The go command itself is found
	// through this process's PATH, as os/exec does.
	Env []string

	// AllowNetwork lets go list download missing modules through the
	// configured GOPROXY. Off by default: missing dependencies degrade
	// the analysis instead.
	AllowNetwork bool

	// Logf, when set, receives progress and timing lines.
	Logf func(format string, args ...any)

	// Cache, when set, keeps the result of each extracted package between
	// loads, keyed by everything its extraction read (cache.go);
	// CacheSalt is added to every key (the caller's program version).
	// FileHash, when set, gives the content hash (hex SHA-256) of a file
	// under the root without reading it.
	Cache     Cache
	CacheSalt string
	FileHash  func(rel string) (string, bool)

	// Results, when set with Cache, keeps the package results a load
	// decodes from Cache for the next load with the same Results, which
	// then reuses those whose records it reads again instead of decoding
	// them (a resident session, reloaded after every edit: ResultMemo).
	Results *ResultMemo

	// Walks, when set, keeps the load's walks of the tree (the Go files
	// and the .go entries that are not regular files) for the next load
	// with the same Walks and options, until its owner forgets them
	// (analyze.Walks).
	Walks *analyze.Walks

	// ListSalt, when set with Cache, lets a load reuse go list's answer
	// from an earlier load while no Go file's header changed
	// (typecache.Listings). It must describe everything else that answer
	// depends on: the [Fingerprint] of this load.
	ListSalt string

	// Progress, when set, is told how far the load is: a phase and, for
	// phases with a known size, the units done and the total. It is called
	// from several goroutines.
	Progress func(phase string, done, total int)

	// OnSource, when set, is given the text of every repository file the
	// load extracts facts from, as read, with the content hash its file
	// record holds (a file whose record comes from Cache is not read and
	// not given). It is called from several goroutines; src must not be
	// changed.
	OnSource func(rel, hash string, src []byte)
}

// source tells OnSource about a file extracted from src.
func (o *Options) source(f analyze.File, src []byte) {
	if o.OnSource != nil {
		o.OnSource(f.Path, f.Hash, src)
	}
}

func (o *Options) progress(phase string, done, total int) {
	if o.Progress != nil {
		o.Progress(phase, done, total)
	}
}

func (o *Options) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
	}
}

func (o *Options) maxFileSize() int64 {
	if o.MaxFileSize > 0 {
		return o.MaxFileSize
	}
	return analyze.MaxFileSize
}

// goEnv is the environment go list runs in.
func (o *Options) goEnv() []string {
	base := o.Env
	if base == nil {
		base = os.Environ()
	}
	env := append([]string(nil), base...)
	env = append(env, "GOTOOLCHAIN=local", "GOPACKAGESDRIVER=off")
	if !o.AllowNetwork {
		env = append(env, "GOPROXY=off")
	}
	if flags, ok := envValue(env, "GOFLAGS"); ok {
		env = append(env, "GOFLAGS="+sanitizeGoflags(flags))
	}
	if _, ok := envValue(o.Env, "CGO_ENABLED"); !ok {
		env = append(env, "CGO_ENABLED=1")
	}
	return env
}

// goarch is the target architecture, for type sizes.
func goarch(env []string) string {
	if v, ok := envValue(env, "GOARCH"); ok && v != "" {
		return v
	}
	return runtime.GOARCH
}

// envValue returns the last value of name in env, as exec does.
func envValue(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// sanitizeGoflags removes the flags that would let go list rewrite go.mod
// or read another one.
func sanitizeGoflags(flags string) string {
	var keep []string
	for _, f := range strings.Fields(flags) {
		if f == "-mod=mod" || strings.HasPrefix(f, "-modfile") {
			continue
		}
		keep = append(keep, f)
	}
	return strings.Join(keep, " ")
}
