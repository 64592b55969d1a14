package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/draw"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/expand"
)

// openSession loads the repository for the graph command; tests share
// one load between runs through it.
var openSession = engine.Open

// graphOptions are the flags of the graph command.
type graphOptions struct {
	Query     string
	QueryIn   queryInput
	NoHistory bool
	Root      string
	Config    string
	Format    string
	Output    string
	Strategy  string
	Depth     int
	NoTests   bool
	Timeout   time.Duration
	Files     int
	Nodes     int
	Quiet     bool

	changed func(flag string) bool
}

func newGraphCmd(io *IO) *cobra.Command {
	o := &graphOptions{Format: "dot", Strategy: "auto", Files: draw.DefaultMaxFiles, Nodes: draw.DefaultMaxNodes}
	cmd := &cobra.Command{
		Use:   "graph [flags] QUERY",
		Short: "Draw the part of the code graph a query expands to (DOT, Mermaid or SVG)",
		Long: `graph runs the expansion of a query, as ctxexpand QUERY does, and draws it
instead of bundling it: the seeds highlighted, the symbols behind the
best-ranked files' evidence, the symbols that connect them, and the relations
between them (calls, uses, implements, tests, …) as labelled arrows, grouped
by Go package or Rust module.

--format dot writes Graphviz's language (render it with dot -Tsvg);
--format mermaid writes a flowchart that GitHub and many editors render;
--format svg lays the picture out itself, without Graphviz.`,
		Example: `  ctxexpand graph "fix UserService.find_by_email" --format svg -o graph.svg
  ctxexpand graph --format mermaid "how does login issue a token"
  ctxexpand graph "the token expires too early" | dot -Tpng -o graph.png`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := o.QueryIn.query(io, args, "missing QUERY: say what to draw, e.g. ctxexpand graph \"fix UserService.FindByEmail\" (or --query-file FILE)")
			if err != nil {
				return err
			}
			o.Query = q
			return o.run(cmd.Context(), io)
		},
	}
	f := cmd.Flags()
	o.QueryIn.addFlag(f)
	f.StringVar(&o.Root, "root", "", "repository root (default: nearest ancestor of the working directory holding go.mod, Cargo.toml, .git or index.scip)")
	f.StringVar(&o.Config, "config", "", "configuration file (default: .ctxexpand.toml at the root, if any); flags override it")
	f.StringVar(&o.Format, "format", o.Format, "picture format: "+strings.Join(draw.Formats, ", "))
	f.StringVarP(&o.Output, "output", "o", "", "write the picture to this file instead of stdout")
	f.StringVar(&o.Strategy, "strategy", o.Strategy, "auto, "+strings.Join(expand.Names(), ", ")+", or several joined with +")
	f.IntVar(&o.Depth, "depth", 0, "steps to expand from each seed (default: chosen by strategy and query)")
	f.BoolVar(&o.NoTests, "no-tests", false, "leave test files out")
	f.BoolVar(&o.NoHistory, "no-history", false, "rank without the version-control prior")
	f.DurationVar(&o.Timeout, "timeout", 0, "stop analysis after this long and draw the best result so far (e.g. 30s)")
	f.IntVar(&o.Files, "files", o.Files, "how many of the best-ranked files contribute symbols")
	f.IntVar(&o.Nodes, "max-nodes", o.Nodes, "most nodes drawn, the connecting ones included")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "no notes on stderr")
	o.changed = f.Changed
	cmd.SetFlagErrorFunc(queryFlagError)
	registerCompletions(cmd, map[string][]string{"format": draw.Formats})
	return cmd
}

// request is the engine request the graph draws: a ranking without a
// bundle, long enough for --files.
func (o *graphOptions) request(root string) engine.Request {
	return engine.Request{Root: root, Query: o.Query, MaxFiles: max(o.Files, 30), Depth: o.Depth, Strategy: o.Strategy, NoTests: o.NoTests, NoNetwork: true}
}

func (o *graphOptions) validate() error {
	switch {
	case !slices.Contains(draw.Formats, o.Format):
		return usagef("--format must be %s, got %q", strings.Join(draw.Formats, ", "), o.Format)
	case o.Files <= 0:
		return usagef("--files must be positive, got %d", o.Files)
	case o.Nodes < 2 || o.Nodes > 500:
		return usagef("--max-nodes must be between 2 and 500, got %d", o.Nodes)
	}
	req := o.request("")
	return flagError(req.Validate())
}

func (o *graphOptions) run(ctx context.Context, io *IO) error {
	if err := o.validate(); err != nil {
		return err
	}
	root, err := resolveRoot(o.Root)
	if err != nil {
		return err
	}
	// The configuration file applies as for the main command: the
	// expansion settings and the ignore rules.
	eo := newExpandOptions()
	eo.Config, eo.Strategy, eo.Depth, eo.NoTests, eo.Timeout = o.Config, o.Strategy, o.Depth, o.NoTests, o.Timeout
	eo.changed = o.changed
	eo.NoHistory = o.NoHistory
	cfg, load, err := eo.applyConfig(io, root)
	if err != nil {
		return err
	}
	o.Strategy, o.Depth, o.NoTests = eo.Strategy, eo.Depth, eo.NoTests
	ctx, cancel := withTimeout(ctx, eo.Timeout)
	defer cancel()
	s, err := openSession(ctx, root, load)
	if err != nil {
		return err
	}
	req := o.request(root)
	req.Weights = cfg.Weights
	out, err := s.Query(ctx, req)
	if err != nil {
		return err
	}
	start := time.Now()
	pic := draw.Build(s.Engine.Graph, out.Result, draw.Options{MaxNodes: o.Nodes, MaxFiles: o.Files})
	if !o.Quiet {
		out.WriteNotes(io.Err)
		if len(pic.Nodes) == 0 {
			fmt.Fprintln(io.Err, "note: nothing to draw: the query matched no symbol; name a function, type or file, or reword it")
		}
	}
	var b bytes.Buffer
	if err := draw.Write(&b, o.Format, pic); err != nil {
		return err
	}
	if io.Log != nil {
		io.Log.Info("drew", "phase", "draw", "took", time.Since(start).Round(time.Microsecond), "format", o.Format,
			"nodes", len(pic.Nodes), "seeds", pic.Seeds(), "edges", len(pic.Edges), "hidden_edges", pic.HiddenEdges, "packages", len(pic.Clusters))
	}
	if o.Output != "" {
		if err := os.WriteFile(o.Output, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", o.Output, err)
		}
	} else if _, err := io.Out.Write(b.Bytes()); err != nil {
		return err
	}
	if out.Partial {
		return errPartial
	}
	return nil
}
