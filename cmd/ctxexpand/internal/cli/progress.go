package cli

import (
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressDelay is how long a run may take before a progress bar appears:
// a warm run finishes well within it and shows nothing.
const progressDelay = 400 * time.Millisecond

// progress shows, on a terminal's stderr, what a long load is doing: the
// phase of each loader and the packages or files done out of how many. It
// shows nothing when stderr is not a terminal, with --quiet, and for
// runs shorter than progressDelay.
type progress struct {
	w     io.Writer
	on    bool
	timer *time.Timer

	mu      sync.Mutex
	phases  map[string]phaseState // latest state of each loader's phase, by loader
	bar     *progressbar.ProgressBar
	spinner bool // bar is a spinner (no phase has a size)
	max     int  // bar's maximum
	shown   bool
	ended   bool
}

type phaseState struct {
	name        string
	done, total int
}

func newProgress(w io.Writer, terminal, quiet bool) *progress {
	p := &progress{w: w, on: terminal && !quiet, phases: map[string]phaseState{}}
	if p.on {
		p.timer = time.AfterFunc(progressDelay, p.show)
	}
	return p
}

// report is the loaders' Progress callback. Phases are named
// "loader: what"; each loader has one current phase.
func (p *progress) report(phase string, done, total int) {
	if p == nil || !p.on {
		return
	}
	loader, _, _ := strings.Cut(phase, ":")
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phases[loader] = phaseState{name: phase, done: done, total: total}
	p.render()
}

func (p *progress) show() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.shown = true
	p.render()
}

// summary combines the loaders' phases: their names, and the units done
// and in total over the phases that have a size.
func summary(phases map[string]phaseState) (desc string, done, total int) {
	loaders := make([]string, 0, len(phases))
	for l := range phases {
		loaders = append(loaders, l)
	}
	sort.Strings(loaders)
	names := make([]string, 0, len(loaders))
	for _, l := range loaders {
		ph := phases[l]
		names = append(names, ph.name)
		if ph.total > 0 {
			done += ph.done
			total += ph.total
		}
	}
	return strings.Join(names, " · "), done, total
}

// render updates the bar from the phases; the lock is held.
func (p *progress) render() {
	if !p.shown || p.ended {
		return
	}
	desc, done, total := summary(p.phases)
	max := total
	if max == 0 {
		max = -1 // a spinner
	}
	if p.bar != nil && p.spinner != (max == -1) {
		// Between a spinner and a bar: finish the old one (which stops
		// the spinner's ticker) and start afresh.
		p.bar.Finish()
		p.bar.Clear()
		p.bar = nil
	}
	if p.bar == nil {
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetWidth(24),
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionThrottle(80 * time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSpinnerType(14),
		}
		if max > 0 {
			opts = append(opts, progressbar.OptionShowCount())
		}
		p.bar, p.spinner, p.max = progressbar.NewOptions(max, opts...), max == -1, max
	} else if max != p.max {
		p.bar.ChangeMax(max)
		p.max = max
	}
	// The count first: the bar renders at most every 80 ms, and a count
	// matters more than a description that rarely changes.
	if total > 0 {
		p.bar.Set(done)
	} else {
		p.bar.Add(1)
	}
	p.bar.Describe(desc)
}

// finish removes the bar; later reports are ignored.
func (p *progress) finish() {
	if p == nil || !p.on {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = true
	if p.bar != nil {
		p.bar.Finish()
		p.bar.Clear()
	}
}
