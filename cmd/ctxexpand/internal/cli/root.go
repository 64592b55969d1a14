package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/config"
)

// IO is where a command reads and writes; tests pass buffers.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// ErrIsTerminal enables progress output on Err.
	ErrIsTerminal bool
	// Log receives the run's structured log (--verbose, verbose.go);
	// nil when it is off.
	Log *slog.Logger
}

// Main runs the command line and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	setMemoryLimit() // memory.go
	io := &IO{In: stdin, Out: stdout, Err: stderr, ErrIsTerminal: isTerminal(stderr)}
	root := NewRootCmd(io)
	root.SetArgs(args)
	_, err := root.ExecuteContextC(ctx)
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "ctxexpand:") {
			msg = "ctxexpand: " + msg
		}
		fmt.Fprintln(stderr, msg)
		// A bad configuration file is fixed in the file, not on the
		// command line: no usage hint.
		if exitCode(err) == ExitUsage && !errors.Is(err, config.ErrInvalid) {
			fmt.Fprintln(stderr, "Run 'ctxexpand --help' for usage.")
		}
	}
	return exitCode(err)
}

// NewRootCmd builds the command tree. The root command itself expands a
// query, so `ctxexpand "fix X"` works without a subcommand.
func NewRootCmd(io *IO) *cobra.Command {
	opts := newExpandOptions()
	root := &cobra.Command{
		Use:   "ctxexpand [flags] QUERY",
		Short: "Find the code a task needs and pack it into a context bundle",
		Long: `ctxexpand reads a Go or Rust repository, works out which symbols and files a
task is about, follows calls, references, implementations and tests outward
from them, ranks the files, and prints a context bundle that never exceeds
its token budget — with the reason each file is there.

The query is free text. Inline references pin things explicitly:
  @path/to/file.go  @path/to/file.go#L10-20  @Symbol  @pkg.Symbol  @crate::path::Item
  @search:"literal text"  @grep:"regex"  @url:https://example.com/page`,
		Example: `  ctxexpand "fix UserService.find_by_email"
  ctxexpand --format json --budget 8000 "the login token expires too early"
  ctxexpand --files-only --strategy entrypoint "how does the server start"
  ctxexpand --explain "@internal/auth/token.go#L20-40 why does Verify reject fresh tokens"
  git diff | ctxexpand diff -`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := opts.QueryIn.query(io, args, "missing QUERY: say what you want to do, e.g. ctxexpand \"fix UserService.FindByEmail\" (or --query-file FILE)")
			if err != nil {
				return err
			}
			opts.Query = q
			return opts.run(cmd.Context(), io)
		},
	}
	opts.addFlags(root)
	addVerboseFlag(root, io)
	addVersionFlag(root)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	root.SetFlagErrorFunc(queryFlagError)
	root.AddCommand(newExpandCmd(io))
	root.AddCommand(newVersionCmd(io))
	root.AddCommand(newBenchCmd(io))
	root.AddCommand(newConfigCmd(io))
	root.AddCommand(newMCPCmd(io))
	root.AddCommand(newDiffCmd(io))
	root.AddCommand(newGraphCmd(io))
	root.AddCommand(newIndexCmd(io))
	root.AddCommand(newServeCmd(io))
	return root
}

// newExpandCmd is the explicit form of the root command, for queries that
// are a single word equal to a command name ("ctxexpand expand index").
func newExpandCmd(io *IO) *cobra.Command {
	opts := newExpandOptions()
	cmd := &cobra.Command{
		Use:   "expand [flags] QUERY",
		Short: "Expand a query into a context bundle (what ctxexpand does without a command)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := opts.QueryIn.query(io, args, "missing QUERY: say what you want to do, e.g. ctxexpand expand \"fix UserService.FindByEmail\" (or --query-file FILE)")
			if err != nil {
				return err
			}
			opts.Query = q
			return opts.run(cmd.Context(), io)
		},
	}
	opts.addFlags(cmd)
	cmd.SetFlagErrorFunc(queryFlagError)
	return cmd
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0
}
