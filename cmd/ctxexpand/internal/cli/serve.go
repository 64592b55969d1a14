package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/serve"
	"github.com/ctxexpand/ctxexpand/engine/resident"
	"github.com/ctxexpand/ctxexpand/index"
)

// serveOptions are the flags of the serve command.
type serveOptions struct {
	Root        string
	Config      string
	NoHistory   bool
	IdleTimeout time.Duration
	Stop        bool
	Status      bool
	Detach      bool
	Poll        bool
	NoPrime     bool
	Quiet       bool
	SCIP        []string
	NoSCIP      bool
	Cache       cacheOptions
	// Metrics is the loopback HOST:PORT where the server answers
	// Prometheus scrapes of /metrics; empty means none.
	Metrics string
}

// DefaultIdleTimeout is how long a server waits for a query before it
// exits.
const DefaultIdleTimeout = 30 * time.Minute

func newServeCmd(io *IO) *cobra.Command {
	o := &serveOptions{IdleTimeout: DefaultIdleTimeout}
	cmd := &cobra.Command{
		Use:   "serve [--root DIR] [--stop | --status | --detach]",
		Short: "Keep the repository's index in memory, current with every edit, and answer queries from it",
		Long: `serve loads the repository once, watches its files and keeps the analysis
current as they change: an edited file is analysed again, and only what
depends on it. Every query from the command line for that repository
(ctxexpand "QUERY" in it, or with --root) is then answered by the server in
milliseconds instead of loading the index; --no-server bypasses it. A query
always reflects the edits made before it was sent, and an answer says which
generation of the index it came from (--verbose).

The server listens on a Unix socket under the cache directory that only its
user can reach, one per repository. It exits after --idle-timeout without a
query, on ctxexpand serve --stop, and when the repository's directory is
removed or renamed. It runs in the foreground and logs to stderr; --detach
starts it in the background, logging to a file next to its socket.`,
		Example: `  ctxexpand serve --detach
  ctxexpand "fix the token refresh"      # answered by the server
  ctxexpand serve --status
  ctxexpand serve --stop`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context(), io) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Root, "root", "", "repository root (default: nearest ancestor of the working directory holding go.mod, Cargo.toml or .git)")
	f.StringVar(&o.Config, "config", "", "configuration file (default: .ctxexpand.toml at the root, if any)")
	f.BoolVar(&o.NoHistory, "no-history", false, "rank without the version-control prior (queries must pass it too)")
	f.DurationVar(&o.IdleTimeout, "idle-timeout", o.IdleTimeout, "exit after this long without a query; 0 means never")
	f.BoolVar(&o.Stop, "stop", false, "stop the repository's running server")
	f.BoolVar(&o.Status, "status", false, "print what the repository's running server holds")
	f.BoolVar(&o.Detach, "detach", false, "start the server in the background and return once it listens")
	f.BoolVar(&o.Poll, "poll", false, "compare file metadata at every query instead of watching the tree (for file systems without change notification)")
	f.BoolVar(&o.NoPrime, "no-prime", false, "do not prepare every file for queries in idle time after each update (first-time queries cost more; the server holds less memory)")
	f.StringArrayVar(&o.SCIP, "scip", nil, "SCIP index to read, as for queries (queries must pass the same)")
	f.BoolVar(&o.NoSCIP, "no-scip", false, "read no SCIP index (queries must pass it too)")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "no log lines")
	f.StringVar(&o.Metrics, "metrics", "", "also answer Prometheus scrapes of /metrics on this loopback HOST:PORT (queries, their latency, the generation, memory)")
	o.Cache.addFlags(f)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

func (o *serveOptions) validate() error {
	n := 0
	for _, b := range []bool{o.Stop, o.Status, o.Detach} {
		if b {
			n++
		}
	}
	if n > 1 {
		return usagef("--stop, --status and --detach exclude each other")
	}
	if o.Cache.Off {
		return usagef("--no-cache: the server keeps its index under the cache directory; choose it with --cache-dir")
	}
	if o.IdleTimeout < 0 {
		return usagef("--idle-timeout must not be negative, got %v", o.IdleTimeout)
	}
	if o.Metrics != "" {
		if err := serve.CheckMetricsAddr(o.Metrics); err != nil {
			return usagef("%v", err)
		}
	}
	return nil
}

func (o *serveOptions) run(ctx context.Context, io *IO) error {
	if err := o.validate(); err != nil {
		return err
	}
	root, err := resolveRoot(o.Root)
	if err != nil {
		return err
	}
	cacheDir, err := o.Cache.resolvedDir()
	if err != nil {
		return err
	}
	paths := serve.PathsFor(cacheDir, root)
	switch {
	case o.Stop:
		return o.stop(ctx, io, root, paths)
	case o.Status:
		return o.status(ctx, io, root, paths)
	case o.Detach:
		return o.detach(ctx, io, root, cacheDir, paths)
	}
	return o.serve(ctx, io, root, cacheDir)
}

// stop asks the server to stop and waits until its socket is gone.
func (o *serveOptions) stop(ctx context.Context, io *IO, root string, paths serve.Paths) error {
	_, err := serve.Call(ctx, paths.Socket, &serve.Request{Op: serve.OpStop, Root: root})
	if errors.Is(err, serve.ErrNoServer) {
		fmt.Fprintf(io.Err, "ctxexpand: no server is running for %s\n", root)
		return nil
	}
	if err != nil {
		return err
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(paths.Socket); errors.Is(err, os.ErrNotExist) {
			if !o.Quiet {
				fmt.Fprintf(io.Err, "ctxexpand: stopped the server for %s\n", root)
			}
			return nil
		}
	}
	return fmt.Errorf("the server for %s did not stop within 30s", root)
}

func (o *serveOptions) status(ctx context.Context, io *IO, root string, paths serve.Paths) error {
	resp, err := serve.Call(ctx, paths.Socket, &serve.Request{Op: serve.OpStatus, Root: root})
	if errors.Is(err, serve.ErrNoServer) {
		return fmt.Errorf("no server is running for %s: start one with ctxexpand serve --detach", root)
	}
	if err != nil {
		return err
	}
	if resp.Status == nil {
		return fmt.Errorf("the server answered without a status: %s", resp.Error)
	}
	st := resp.Status
	w := io.Out
	fmt.Fprintf(w, "root: %s\npid: %d\nwatching: %s\ngeneration: %d\n", st.Root, st.PID, st.Mode, st.Gen)
	if st.Summary != "" {
		fmt.Fprintf(w, "index: %s (last load %v)\n", st.Summary, st.LoadTook.Round(time.Millisecond))
	}
	fmt.Fprintf(w, "up: %v, idle %v of %v\nmemory: %d MiB\nsocket: %s\n", time.Since(st.Started).Round(time.Second),
		st.Idle.Round(time.Second), st.IdleTimeout, st.RSSBytes>>20, paths.Socket)
	if st.Queries > 0 {
		fmt.Fprintf(w, "queries: %d answered; p50 %v, p95 %v, p99 %v (the last %d)\n", st.Queries,
			roundLatency(st.QueryP50), roundLatency(st.QueryP95), roundLatency(st.QueryP99), min(st.Queries, serve.LatencyWindow))
	}
	if f := st.Figures; f != nil {
		if n := f.TokenHits + f.TokenMisses; n > 0 {
			fmt.Fprintf(w, "token counts: %.1f%% found in the memo (%d of %d; %d held)\n", 100*f.TokenHitRate(), f.TokenHits, n, f.TokenEntries)
		}
		if n := f.SkeletonHits + f.SkeletonMisses; n > 0 {
			fmt.Fprintf(w, "go skeletons: %.1f%% found in the memo (%d of %d; %d held)\n", 100*f.SkeletonHitRate(), f.SkeletonHits, n, f.SkeletonEntries)
		}
		if f.Edits > 0 {
			fmt.Fprintf(w, "edits: %d applied; to a fresh answer p50 %v, p95 %v, p99 %v (the last %d)\n", f.Edits,
				roundLatency(f.EditP50), roundLatency(f.EditP95), roundLatency(f.EditP99), min(f.Edits, serve.LatencyWindow))
		}
		if f.Files > 0 {
			fmt.Fprintf(w, "last update: %d of %d files analysed again\n", f.Reanalysed, f.Files)
		}
		if f.PrimedGen > 0 {
			fmt.Fprintf(w, "primed: %d files of generation %d for queries, in %v\n", f.Primed, f.PrimedGen, f.PrimeTook.Round(time.Millisecond))
		}
	}
	if st.Error != "" {
		fmt.Fprintf(w, "last error: %s\n", st.Error)
	}
	return nil
}

// detach starts `ctxexpand serve` for the root as a process of its own,
// logging to paths.Log, and waits until it answers.
func (o *serveOptions) detach(ctx context.Context, io *IO, root, cacheDir string, paths serve.Paths) error {
	if resp, err := serve.Call(ctx, paths.Socket, &serve.Request{Op: serve.OpStatus, Root: root}); err == nil && resp.Status != nil {
		fmt.Fprintf(io.Err, "ctxexpand: a server is already running for %s (pid %d)\n", root, resp.Status.PID)
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program to start it again: %w", err)
	}
	args := []string{"serve", "--root", root, "--idle-timeout", o.IdleTimeout.String(), "--cache-dir", cacheDir}
	if o.Config != "" {
		args = append(args, "--config", o.Config)
	}
	if o.NoHistory {
		args = append(args, "--no-history")
	}
	if o.Poll {
		args = append(args, "--poll")
	}
	if o.NoPrime {
		args = append(args, "--no-prime")
	}
	for _, p := range o.SCIP {
		args = append(args, "--scip", p)
	}
	if o.NoSCIP {
		args = append(args, "--no-scip")
	}
	if o.Metrics != "" {
		args = append(args, "--metrics", o.Metrics)
	}
	if err := os.MkdirAll(paths.Dir, 0o700); err != nil {
		return err
	}
	logf, err := os.OpenFile(paths.Log, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("opening the server's log: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the server: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		select {
		case err := <-exited:
			log, _ := os.ReadFile(paths.Log)
			return fmt.Errorf("the server exited at once (%v):\n%s", err, strings.TrimSpace(string(log)))
		case <-time.After(20 * time.Millisecond):
		}
		if resp, err := serve.Call(ctx, paths.Socket, &serve.Request{Op: serve.OpStatus, Root: root}); err == nil && resp.Status != nil {
			if !o.Quiet {
				fmt.Fprintf(io.Err, "ctxexpand: serving %s (pid %d, log %s)\n", root, resp.Status.PID, paths.Log)
			}
			return nil
		}
	}
	return fmt.Errorf("the server did not answer within 30s; see %s", paths.Log)
}

// serve runs the server in the foreground.
func (o *serveOptions) serve(ctx context.Context, io *IO, root, cacheDir string) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := log.New(io.Err, "ctxexpand serve: ", log.LstdFlags)
	logf := logger.Printf
	if o.Quiet {
		logf = func(string, ...any) {}
	}
	var metrics net.Listener
	if o.Metrics != "" {
		ml, err := serve.ListenMetrics(o.Metrics) // validate checked the address
		if err != nil {
			return fmt.Errorf("serving metrics: %w", err)
		}
		defer ml.Close()
		metrics = ml
	}
	ln, err := serve.Listen(cacheDir, root)
	if errors.Is(err, serve.ErrRunning) {
		return fmt.Errorf("a server is already running for %s (ctxexpand serve --status shows it)", root)
	}
	if err != nil {
		return err
	}
	st, err := index.Open(index.Options{Dir: cacheDir, Notice: func(msg string) { logf("%s", msg) }})
	if err != nil {
		ln.Close()
		return fmt.Errorf("opening the index: %w", err)
	}
	cfgOpts := &expandOptions{Config: o.Config, NoHistory: o.NoHistory, SCIP: o.SCIP, NoSCIP: o.NoSCIP}
	cfgOpts.changed = func(flag string) bool { return flag == "scip" && len(o.SCIP) > 0 }
	configure := cfgOpts.residentConfig(io, root, false, st, logf)
	eng, err := resident.Start(ctx, resident.Options{Root: root, Configure: configure, CookieDir: ln.Paths.Cookies, Poll: o.Poll, NoPrime: o.NoPrime, Logf: logf})
	if err != nil {
		ln.Close()
		return err
	}
	logf("serving %s on %s", root, ln.Paths.Socket)
	if metrics != nil {
		logf("metrics on http://%s/metrics", metrics.Addr())
	}
	why := ln.Serve(ctx, eng, serve.Options{Root: root, Program: st.ExecutableID(), LoadKey: eng.LoadKey, IdleTimeout: o.IdleTimeout, Logf: logf, Metrics: metrics})
	switch {
	case errors.Is(why, resident.ErrRootGone):
		logf("the repository is gone; stopped")
	case errors.Is(why, serve.ErrIdle):
		logf("no query for %v; stopped", o.IdleTimeout)
	}
	return nil
}

// roundLatency shows a latency to the tenth of a millisecond.
func roundLatency(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }
