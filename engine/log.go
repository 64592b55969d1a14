package engine

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Structured logs: LoadOptions.Logger, when set, receives one record per
// phase of a run — "load" per language and merged, "index", "expand",
// "bundle" — each with its duration ("took") and counts, at Info level,
// and the loaders' progress lines at Debug level. Nil means no logs.

// discard is the logger of a session without one.
var discard = slog.New(slog.DiscardHandler)

func loggerOr(l *slog.Logger) *slog.Logger {
	if l == nil {
		return discard
	}
	return l
}

// loaderLogf is the Logf a loader gets: opt.Logf when set, else one that
// writes the loader's lines to the logger at Debug level, tagged with the
// language. It is nil when there is neither.
func loaderLogf(opt LoadOptions, lang analyze.Lang) func(format string, args ...any) {
	if opt.Logf != nil || opt.Logger == nil {
		return opt.Logf
	}
	l := opt.Logger
	return func(format string, args ...any) {
		msg := strings.TrimSpace(fmt.Sprintf(format, args...))
		l.Debug(msg, "phase", "load", "lang", lang.String())
	}
}

// logPhase writes the record of a finished phase.
func logPhase(ctx context.Context, l *slog.Logger, phase string, start time.Time, attrs ...any) {
	if l == nil || !l.Enabled(ctx, slog.LevelInfo) {
		return
	}
	args := append([]any{"phase", phase, "took", time.Since(start).Round(time.Microsecond)}, attrs...)
	l.InfoContext(ctx, phaseDone[phase], args...)
}

// phaseDone is the message of each phase's record.
var phaseDone = map[string]string{"load": "loaded", "scip": "read SCIP indexes", "index": "indexed", "expand": "expanded", "bundle": "bundled"}

// factsAttrs are the counts of a load.
func factsAttrs(f *analyze.Facts) []any {
	if f == nil {
		return nil
	}
	return []any{"files", len(f.Files), "symbols", len(f.Symbols), "edges", len(f.Edges), "imports", len(f.Imports), "problems", len(f.Problems), "partial", f.Partial}
}
