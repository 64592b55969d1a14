package cli

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/mcpserver"
)

// mcpOptions are the flags of the mcp command.
type mcpOptions struct {
	Root          string
	Tokenizer     string
	NoNetwork     bool
	NoTests       bool
	Timeout       time.Duration
	CheckInterval time.Duration // deprecated: edits are seen at every call
	Poll          bool
	Quiet         bool
	Config        string
	NoHistory     bool
	Cache         cacheOptions
}

func newMCPCmd(io *IO) *cobra.Command {
	opts := &mcpOptions{Tokenizer: "o200k"}
	cmd := &cobra.Command{
		Use:   "mcp [flags]",
		Short: "Serve the repository to agents over the Model Context Protocol (stdio)",
		Long: `mcp runs an MCP server on standard input and output for one repository.
Clients (Claude Code, Cursor, any MCP host) start it and call its tools:

  expand_context  the context bundle for a task in words, paged
  find_symbol     where a function, method or type is defined
  related_files   the files connected to a file through the code
  diff_context    the context for reviewing a git diff

The repository is loaded on the first call and kept in memory, watched and
current with every edit (the engine of ctxexpand serve): each call answers
from the files as they are when it arrives. The on-disk index and the
configuration file are those of the command line. Logs go to standard error.
See docs/mcp.md.`,
		Example: `  ctxexpand mcp --root ~/src/myservice
  claude mcp add ctxexpand -- ctxexpand mcp --root "$PWD"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("mcp takes no arguments, got %q: choose the repository with --root", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return opts.run(cmd.Context(), io)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Root, "root", "", "repository root (default: the first folder of $WORKSPACE_FOLDER_PATHS, else the nearest ancestor of the working directory holding go.mod, Cargo.toml, .git or index.scip)")
	f.StringVar(&opts.Tokenizer, "tokenizer", opts.Tokenizer, "token counter for budgets: o200k, cl100k or estimate")
	registerCompletions(cmd, map[string][]string{"tokenizer": {"o200k", "cl100k", "estimate"}})
	f.BoolVar(&opts.NoNetwork, "no-network", false, "never fetch @url references in queries")
	f.BoolVar(&opts.NoTests, "no-tests", false, "leave test files out of the analysis")
	f.DurationVar(&opts.Timeout, "timeout", 0, "limit on each tool call, loading included (e.g. 2m); 0 means none")
	f.DurationVar(&opts.CheckInterval, "check-interval", 0, "ignored: edits are seen at every call")
	// Hidden, not cobra's MarkDeprecated: its notice goes to standard
	// output, which belongs to the protocol.
	_ = f.MarkHidden("check-interval")
	f.BoolVar(&opts.Poll, "poll", false, "compare file metadata at every call instead of watching the tree (for file systems without change notification)")
	f.StringVar(&opts.Config, "config", "", "configuration file (default: .ctxexpand.toml at the root, if any)")
	f.BoolVar(&opts.NoHistory, "no-history", false, "rank without the version-control prior")
	opts.Cache.addFlags(f)
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "no log lines on stderr")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

func (o *mcpOptions) run(ctx context.Context, io *IO) error {
	switch o.Tokenizer {
	case "o200k", "cl100k", "estimate":
	default:
		return usagef("--tokenizer must be o200k, cl100k or estimate, got %q", o.Tokenizer)
	}
	if o.Timeout < 0 {
		return usagef("--timeout must not be negative, got %v", o.Timeout)
	}
	root, err := mcpRoot(o.Root)
	if err != nil {
		return err
	}
	logger := log.New(io.Err, "ctxexpand mcp: ", log.LstdFlags)
	logf := logger.Printf
	if o.Quiet {
		logf = func(string, ...any) {}
	}
	run := o.Cache.start(io, true)
	cfgOpts := &expandOptions{Config: o.Config, NoHistory: o.NoHistory}
	configure := cfgOpts.residentConfig(io, root, o.NoTests, run.Store, logf)
	if _, err := configure(); err != nil {
		return err
	}
	srv, err := mcpserver.New(mcpserver.Options{
		Root:      root,
		Version:   strings.TrimPrefix(versionString(), "ctxexpand "),
		Configure: configure,
		Tokenizer: o.Tokenizer,
		NoNetwork: o.NoNetwork,
		Timeout:   o.Timeout,
		Poll:      o.Poll,
		Logf:      logf,
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	if o.CheckInterval != 0 {
		logf("--check-interval is ignored: every call sees the edits made before it")
	}
	logf("serving %s on stdio", root)
	err = srv.Run(ctx, transportFor(io))
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}

// mcpRoot is the repository to serve: --root; else the first folder of
// $WORKSPACE_FOLDER_PATHS, which Cursor sets for the servers it starts
// (often from / or the home directory); else the project around the
// working directory, as for the main command. It refuses the root of the
// file system and the home directory, where a loader would read
// everything.
func mcpRoot(flag string) (string, error) {
	if flag == "" {
		if ws := os.Getenv("WORKSPACE_FOLDER_PATHS"); ws != "" {
			first, _, _ := strings.Cut(ws, ",")
			flag = strings.TrimSpace(first)
		}
	}
	root, err := resolveRoot(flag)
	if err != nil {
		return "", err
	}
	home, _ := os.UserHomeDir()
	if filepath.Dir(root) == root || (home != "" && filepath.Clean(home) == root) {
		return "", usagef("refusing to serve %s: pass --root with the repository (MCP clients may start servers outside the project; see docs/mcp.md)", root)
	}
	return root, nil
}

// transportFor speaks MCP over the command's standard streams: the real
// stdin and stdout when they are the process's, the IO buffers otherwise
// (tests).
func transportFor(io *IO) mcp.Transport {
	if io.In == os.Stdin && io.Out == os.Stdout {
		return &mcp.StdioTransport{}
	}
	return &mcp.IOTransport{Reader: readCloser{io.In}, Writer: writeCloser{io.Out}}
}

type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }
