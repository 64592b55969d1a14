package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/internal/heapprof"
)

// addVerboseFlag adds the root's persistent --verbose flag; when it is
// set, every command's IO carries a logger that writes the phases of the
// run as structured text records on stderr (never stdout). It also adds
// the hidden --cpuprofile flag, which writes a CPU profile of the command
// for `go tool pprof` (how the figures in benchmarks/ were explained),
// the hidden --memprofile flag, which writes a heap profile taken near
// the run's peak (package heapprof), and the hidden --trace flag, an
// execution trace for `go tool trace` (which phases keep both cores busy
// and which run alone).
func addVerboseFlag(root *cobra.Command, io *IO) {
	var verbose bool
	var profile, memProfile, traceOut string
	var profFile, traceFile *os.File
	var stopMem func() error
	root.PersistentFlags().BoolVar(&verbose, "verbose", false, "log each phase (load per language, index, expand, bundle) with its duration and counts on stderr")
	root.PersistentFlags().StringVar(&profile, "cpuprofile", "", "write a CPU profile of the run to this file")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentFlags().StringVar(&memProfile, "memprofile", "", "write a heap profile taken at the run's peak of live heap to this file")
	_ = root.PersistentFlags().MarkHidden("memprofile")
	root.PersistentFlags().StringVar(&traceOut, "trace", "", "write an execution trace of the run to this file")
	_ = root.PersistentFlags().MarkHidden("trace")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if verbose {
			io.Log = newLogger(io.Err)
		}
		if profile != "" {
			f, err := os.Create(profile)
			if err != nil {
				return fmt.Errorf("--cpuprofile: %w", err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return fmt.Errorf("--cpuprofile: %w", err)
			}
			profFile = f
		}
		if memProfile != "" {
			stopMem = heapprof.Peak(memProfile)
		}
		if traceOut != "" {
			f, err := os.Create(traceOut)
			if err != nil {
				return fmt.Errorf("--trace: %w", err)
			}
			if err := trace.Start(f); err != nil {
				f.Close()
				return fmt.Errorf("--trace: %w", err)
			}
			traceFile = f
		}
		return nil
	}
	root.PersistentPostRunE = func(*cobra.Command, []string) error {
		var err error
		if stopMem != nil {
			if merr := stopMem(); merr != nil {
				err = fmt.Errorf("--memprofile: %w", merr)
			}
		}
		if traceFile != nil {
			trace.Stop()
			if cerr := traceFile.Close(); err == nil {
				err = cerr
			}
		}
		if profFile != nil {
			pprof.StopCPUProfile()
			if cerr := profFile.Close(); err == nil {
				err = cerr
			}
		}
		return err
	}
}

// newLogger is the --verbose logger: slog's text format, Debug level
// (the loaders' own progress lines included), times to the millisecond.
func newLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.String(slog.TimeKey, a.Value.Time().Format("15:04:05.000"))
			}
			if a.Value.Kind() == slog.KindDuration {
				return slog.String(a.Key, a.Value.Duration().Round(time.Microsecond).String())
			}
			return a
		},
	}))
}
