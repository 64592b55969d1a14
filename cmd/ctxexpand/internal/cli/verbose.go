package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"time"

	"github.com/spf13/cobra"
)

// addVerboseFlag adds the root's persistent --verbose flag; when it is
// set, every command's IO carries a logger that writes the phases of the
// run as structured text records on stderr (never stdout). It also adds
// the hidden --cpuprofile flag, which writes a CPU profile of the command
// for `go tool pprof` (how the figures in benchmarks/ were explained),
// and the hidden --memprofile flag, which writes a heap profile taken
// near the run's peak (memprofile.go).
func addVerboseFlag(root *cobra.Command, io *IO) {
	var verbose bool
	var profile, memProfile string
	var profFile *os.File
	var stopMem func() error
	root.PersistentFlags().BoolVar(&verbose, "verbose", false, "log each phase (load per language, index, expand, bundle) with its duration and counts on stderr")
	root.PersistentFlags().StringVar(&profile, "cpuprofile", "", "write a CPU profile of the run to this file")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentFlags().StringVar(&memProfile, "memprofile", "", "write a heap profile taken at the run's peak of live heap to this file")
	_ = root.PersistentFlags().MarkHidden("memprofile")
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
			stopMem = peakHeapProfile(memProfile)
		}
		return nil
	}
	root.PersistentPostRunE = func(*cobra.Command, []string) error {
		if stopMem != nil {
			if err := stopMem(); err != nil {
				return fmt.Errorf("--memprofile: %w", err)
			}
		}
		if profFile != nil {
			pprof.StopCPUProfile()
			return profFile.Close()
		}
		return nil
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
