package lsp

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Options configures Load. The zero value runs the usual server for the
// language (gopls for Go, rust-analyzer for Rust) with the default limits.
type Options struct {
	// Command is the server's program and arguments; empty means
	// DefaultCommand(Lang). A program without a directory is looked up on
	// PATH and then in $GOBIN and $GOPATH/bin.
	Command []string

	// Lang is the language to load. LangUnknown means the language
	// CommandLang recognises in Command, else the one with more files
	// under the root.
	Lang analyze.Lang

	// SkipTests leaves test files out.
	SkipTests bool

	// Ignore, when set, is asked about every path (slash-separated,
	// relative to the root) before it is listed or descended into.
	Ignore func(rel string, isDir bool) bool

	// MaxFileSize skips larger files; 0 means analyze.MaxFileSize.
	MaxFileSize int64

	// MaxRequests caps the requests sent after the handshake; 0 means
	// DefaultMaxRequests. Symbols are asked for first, then calls,
	// implementations and references; what the cap cuts off is reported
	// as a ProblemLimit.
	MaxRequests int

	// Concurrency is the number of requests in flight; 0 means 4.
	Concurrency int

	// RequestTimeout bounds each request; 0 means 30 s. A request that
	// times out is recorded and the load goes on, but several in a row
	// with no answer in between end it with ErrUnresponsive.
	RequestTimeout time.Duration

	// StartTimeout bounds starting the server and the initialize
	// handshake, and (for servers that report it) waiting for the
	// workspace to finish loading; 0 means 60 s.
	StartTimeout time.Duration

	// NoReferences skips the references requests, the most numerous
	// kind: calls, implementations and containment edges remain.
	NoReferences bool

	// AllowNetwork lets the server's tools download missing
	// dependencies; by default gopls runs with GOPROXY=off.
	AllowNetwork bool

	// Env is added to the server's environment.
	Env []string

	// Logf, when set, receives progress and timing lines.
	Logf func(format string, args ...any)
}

// Defaults of Options.
const (
	DefaultMaxRequests    = 50000
	DefaultConcurrency    = 4
	DefaultRequestTimeout = 30 * time.Second
	DefaultStartTimeout   = 60 * time.Second
	maxConsecutiveTimeout = 4
)

// ErrBadCommand means a server command line could not be parsed.
var ErrBadCommand = errors.New("bad language server command")

// DefaultCommand is the server run for a language: gopls for Go,
// rust-analyzer for Rust, nil for anything else.
func DefaultCommand(lang analyze.Lang) []string {
	switch lang {
	case analyze.LangGo:
		return []string{"gopls"}
	case analyze.LangRust:
		return []string{"rust-analyzer"}
	}
	return nil
}

// CommandLang is the language a server command is known to serve, by its
// program name (gopls, rust-analyzer), or LangUnknown.
func CommandLang(argv []string) analyze.Lang {
	if len(argv) == 0 {
		return analyze.LangUnknown
	}
	name := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	switch {
	case strings.HasPrefix(name, "gopls"):
		return analyze.LangGo
	case strings.HasPrefix(name, "rust-analyzer"), strings.HasPrefix(name, "ra_lsp"):
		return analyze.LangRust
	}
	return analyze.LangUnknown
}

// ParseCommand splits a --lsp-cmd value into a program and arguments on
// white space; single or double quotes keep an argument with spaces whole.
// Bytes are kept as they are, valid UTF-8 or not.
func ParseCommand(s string) ([]string, error) {
	var out []string
	var cur []byte
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur = append(cur, c)
			}
		case c == '\'' || c == '"':
			quote = c
			inWord = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				out = append(out, string(cur))
				cur = cur[:0]
				inWord = false
			}
		default:
			cur = append(cur, c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("%w: unclosed %c quote in %q", ErrBadCommand, quote, s)
	}
	if inWord {
		out = append(out, string(cur))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: it is empty; give a program such as gopls", ErrBadCommand)
	}
	return out, nil
}

func (o *Options) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
	}
}

func (o *Options) maxRequests() int {
	if o.MaxRequests > 0 {
		return o.MaxRequests
	}
	return DefaultMaxRequests
}

func (o *Options) concurrency() int {
	if o.Concurrency > 0 {
		return o.Concurrency
	}
	return DefaultConcurrency
}

func (o *Options) requestTimeout() time.Duration {
	if o.RequestTimeout > 0 {
		return o.RequestTimeout
	}
	return DefaultRequestTimeout
}

func (o *Options) startTimeout() time.Duration {
	if o.StartTimeout > 0 {
		return o.StartTimeout
	}
	return DefaultStartTimeout
}

func (o *Options) maxFileSize() int64 {
	if o.MaxFileSize > 0 {
		return o.MaxFileSize
	}
	return analyze.MaxFileSize
}

// serverEnv is what the server's environment adds to ours: no toolchain
// switches and, unless allowed, no module downloads.
func (o *Options) serverEnv(lang analyze.Lang) []string {
	var env []string
	if lang == analyze.LangGo {
		env = append(env, "GOTOOLCHAIN=local", "GOPACKAGESDRIVER=off")
		if !o.AllowNetwork {
			env = append(env, "GOPROXY=off")
		}
	}
	return append(env, o.Env...)
}

// serverSettings are the initializationOptions (and the answer to
// workspace/configuration). rust-analyzer is told not to run build scripts,
// proc macros or cargo check: they execute the repository's code and take
// minutes, and symbols and references do not need them.
func serverSettings(lang analyze.Lang) any {
	if lang != analyze.LangRust {
		return nil
	}
	return map[string]any{
		"cargo":       map[string]any{"buildScripts": map[string]any{"enable": false}},
		"procMacro":   map[string]any{"enable": false},
		"checkOnSave": false,
		"check":       map[string]any{"enable": false},
		"cachePriming": map[string]any{
			"enable": false,
		},
	}
}
