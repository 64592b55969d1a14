package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/analyze/lsp"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/expand"
)

// expandOptions are the flags of the root (and expand) command.
type expandOptions struct {
	Query string
	// QueryIn is --query-file (query.go).
	QueryIn   queryInput
	Root      string
	Budget    int
	MaxFiles  int
	Depth     int
	Strategy  string
	Format    string
	Tokenizer string
	FilesOnly bool
	Explain   bool
	NoTests   bool
	Timeout   time.Duration
	Output    string
	NoNetwork bool
	Quiet     bool
	Planner   string
	Ollama    string
	Model     string
	Truncate  string
	Margin    float64
	Context   int

	// Config names the configuration file (--config); changed reports
	// which flags the user set, for precedence over it (config.go).
	Config  string
	changed func(flag string) bool
	Backend string
	LSPCmd  string
	// NoHistory leaves the version-control prior out of the ranking.
	NoHistory bool
	// SCIP lists SCIP index files (--scip, repeatable); NoSCIP turns SCIP
	// import off, index.scip at the root included.
	SCIP   []string
	NoSCIP bool
	// Ranker is "auto" (the default: by the query's kind), "learned" (the
	// shipped model) or "hand".
	Ranker string
	// NoServer answers locally even when a server runs for the root
	// (viaserver.go).
	NoServer bool

	Cache cacheOptions
}

func newExpandOptions() *expandOptions {
	return &expandOptions{Budget: 16000, MaxFiles: 30, Strategy: "auto", Format: "markdown", Tokenizer: "o200k", Backend: engine.BackendBuiltin}
}

func (o *expandOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	o.QueryIn.addFlag(f)
	f.StringVar(&o.Root, "root", "", "repository root (default: nearest ancestor of the working directory holding go.mod, Cargo.toml, .git or index.scip)")
	f.IntVar(&o.Budget, "budget", o.Budget, "token budget of the bundle; the output never exceeds it")
	f.IntVar(&o.MaxFiles, "max-files", o.MaxFiles, "length of the ranked file list")
	f.IntVar(&o.Depth, "depth", 0, "steps to expand from each seed (default: chosen by strategy and query)")
	f.StringVar(&o.Strategy, "strategy", o.Strategy, "auto, "+strings.Join(expand.Names(), ", ")+", or several joined with +")
	f.StringVar(&o.Format, "format", o.Format, "output format: markdown, xml, json or plain")
	f.StringVar(&o.Tokenizer, "tokenizer", o.Tokenizer, "token counter: o200k, cl100k, claude (o200k with a 1.2 margin) or estimate")
	f.Float64Var(&o.Margin, "token-margin", 0, "multiply token counts by this factor (1 to 4) for models whose tokenizer is not public")
	f.StringVar(&o.Truncate, "truncation", "signature-first", "how a symbol too large for what is left is cut: signature-first or bookend")
	f.IntVar(&o.Context, "context-lines", 0, "lines of context around each relevant span (default 3)")
	f.BoolVar(&o.FilesOnly, "files-only", false, "print only the ranked file paths, one per line")
	f.BoolVar(&o.Explain, "explain", false, "print the query plan, seeds and a ranking table with reasons to stderr")
	f.BoolVar(&o.NoTests, "no-tests", false, "leave test files out")
	f.DurationVar(&o.Timeout, "timeout", 0, "stop analysis after this long and emit the best result so far, marked partial (e.g. 30s)")
	f.StringVarP(&o.Output, "output", "o", "", "write the bundle to this file instead of stdout")
	f.BoolVar(&o.NoNetwork, "no-network", false, "never fetch @url references")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "no notes or progress on stderr")
	f.StringVar(&o.Planner, "planner", "heuristic", "query planner: heuristic, or ollama (a local model; falls back to heuristic)")
	f.StringVar(&o.Ollama, "ollama-host", "", "Ollama server for --planner ollama (default $OLLAMA_HOST or http://localhost:11434)")
	f.StringVar(&o.Model, "ollama-model", "", "model for --planner ollama (default $OLLAMA_MODEL)")
	f.StringVar(&o.Config, "config", "", "configuration file (default: .ctxexpand.toml at the root, if any); flags override it")
	o.changed = f.Changed
	registerCompletions(cmd, map[string][]string{"format": bundleFormats, "tokenizer": tokenizers, "truncation": truncations, "planner": planners, "ranker": {expand.RankerAuto, expand.RankerLearned, expand.RankerHand}})
	f.BoolVar(&o.NoHistory, "no-history", false, "rank without the version-control prior (how recently files changed)")
	f.StringVar(&o.Ranker, "ranker", expand.DefaultRanker, "file ranking: auto (by the kind of query: the model trained on fixes for fixes and reports, the model trained on questions for questions, hand weights for lookups and diff review), learned (the learned model for the kind of query) or hand (weights set by hand; configured weights apply to it)")
	f.StringVar(&o.Backend, "backend", o.Backend, "analysis: builtin, or lsp (a language server; falls back to builtin if it fails)")
	f.StringVar(&o.LSPCmd, "lsp-cmd", "", `language server command for --backend lsp (default "gopls" for Go, "rust-analyzer" for Rust)`)
	f.StringArrayVar(&o.SCIP, "scip", nil, "SCIP index to read (repeatable; index.scip at the root is read when present): its exact edges replace by-name ones, and it brings in TypeScript, JavaScript and Python")
	f.BoolVar(&o.NoSCIP, "no-scip", false, "read no SCIP index, not even index.scip at the root")
	f.BoolVar(&o.NoServer, "no-server", false, "answer in this process even when ctxexpand serve runs for the repository")
	o.Cache.addFlags(f)
}

// request maps the flags onto an engine request at root; applyConfig
// has written the configuration's settings into the flags it does not
// override.
func (o *expandOptions) request(root string) engine.Request {
	return engine.Request{
		Root: root, Query: o.Query, Budget: o.Budget, MaxFiles: o.MaxFiles, Depth: o.Depth, Strategy: o.Strategy,
		Format: o.Format, Tokenizer: o.Tokenizer, NoTests: o.NoTests, NoNetwork: o.NoNetwork,
		Planner: o.Planner, OllamaHost: o.Ollama, OllamaModel: o.Model,
		Truncation: o.Truncate, TokenMargin: o.Margin, ContextLines: o.Context,
		Ranker: o.Ranker, Backend: o.Backend, LSPCmd: o.LSPCmd,
	}
}

// validate checks the flags before anything is read: the request's
// settings as the engine checks them (a zero budget or file count is no
// default on the command line), then the analysis flags.
func (o *expandOptions) validate() error {
	req := o.request("")
	if err := req.ValidateBundle(); err != nil {
		return flagError(err)
	}
	switch o.Backend {
	case engine.BackendBuiltin, engine.BackendLSP:
	default:
		return usagef("--backend must be builtin or lsp, got %q", o.Backend)
	}
	if o.LSPCmd != "" {
		if o.Backend != engine.BackendLSP {
			return usagef("--lsp-cmd needs --backend lsp")
		}
		if _, err := lsp.ParseCommand(o.LSPCmd); err != nil {
			return usagef("--lsp-cmd: %v", err)
		}
	}
	return nil
}

// flagError words an invalid request as a usage error that names each
// field by its flag (max_files: --max-files). A fault with an error of
// its own (an unknown strategy, an empty query) is that error's words.
func flagError(err error) error {
	var re *engine.RequestError
	switch {
	case !errors.As(err, &re):
		return err
	case re.Err != nil:
		return usageError{re.Err}
	}
	return usagef("%s", re.Text(func(field string) string { return "--" + strings.ReplaceAll(field, "_", "-") }))
}

// withTimeout bounds ctx by --timeout, when one is given.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}

// resolveRoot makes the root absolute, defaulting to the nearest project
// root above the working directory.
func resolveRoot(root string) (string, error) {
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return engine.FindRoot(wd), nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", usagef("--root %s: %v", root, err)
	}
	if !st.IsDir() {
		return "", usagef("--root %s is not a directory", root)
	}
	return abs, nil
}

func (o *expandOptions) run(ctx context.Context, io *IO) error {
	if err := o.validate(); err != nil {
		return err
	}
	root, err := resolveRoot(o.Root)
	if err != nil {
		return err
	}
	cfg, load, err := o.applyConfig(io, root)
	if err != nil {
		return err
	}
	req := o.request(root)
	req.Weights = cfg.Weights
	// The server applies --timeout itself, and answers partial results
	// after it like the local run does.
	if err := o.viaServer(ctx, io, req, load); !errors.Is(err, errNoServerAnswer) {
		return err
	}
	ctx, cancel := withTimeout(ctx, o.Timeout)
	defer cancel()
	run := o.Cache.start(io, o.Quiet)
	run.wire(&load)
	req.Load = load
	out, err := engine.Run(ctx, req)
	run.loaded()
	if err != nil {
		return err
	}
	run.finish(root)
	return o.print(io, out.Render(o.FilesOnly, o.Explain))
}

// print writes what a run rendered: the notes (unless --quiet) and the
// explanation (with --explain) to stderr, the bundle or file list to
// --output or stdout. A partial result is errPartial once written.
func (o *expandOptions) print(io *IO, r engine.Rendered) error {
	if !o.Quiet {
		fmt.Fprint(io.Err, r.Notes)
	}
	if o.Explain {
		fmt.Fprint(io.Err, r.Explain)
	}
	if err := o.writePayload(io, []byte(r.Output)); err != nil {
		return err
	}
	if r.Partial {
		return errPartial
	}
	return nil
}

// writePayload writes the bundle (or file list) to --output or stdout.
func (o *expandOptions) writePayload(io *IO, payload []byte) error {
	return writeOutput(io, o.Output, payload)
}

// writeOutput writes a command's payload to the file named by --output,
// or to stdout when there is none.
func writeOutput(io *IO, output string, payload []byte) error {
	if output != "" {
		if err := os.WriteFile(output, payload, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", output, err)
		}
		return nil
	}
	_, err := io.Out.Write(payload)
	return err
}
