package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// sample is one timed command.
type sample struct {
	wall time.Duration
	cpu  time.Duration // user and system time, with the children waited for (go list, git)
	rss  int64         // peak resident set, KiB; 0 when unknown
	err  error
	// stderr is what the command wrote on standard error (its last 64 KiB).
	stderr string
}

// runCmd runs a command with a time limit and measures it; its output is
// discarded.
func runCmd(ctx context.Context, timeout time.Duration, dir string, env []string, name string, args ...string) sample {
	return runCmdOut(ctx, timeout, dir, env, nil, name, args...)
}

// runCmdOut is runCmd with the command's standard output sent to stdout
// (nil discards it).
func runCmdOut(ctx context.Context, timeout time.Duration, dir string, env []string, stdout io.Writer, name string, args ...string) sample {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = stdout
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start), stderr: stderr.String()}
	if len(s.stderr) > 64<<10 {
		s.stderr = s.stderr[len(s.stderr)-64<<10:]
	}
	if cmd.ProcessState != nil {
		s.rss = maxRSS(cmd.ProcessState)
		s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if ctx.Err() != nil {
		s.err = fmt.Errorf("timed out after %v", timeout)
	} else if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 200 {
			msg = msg[len(msg)-200:]
		}
		s.err = fmt.Errorf("%v: %s", err, msg)
	}
	return s
}

// median is the sample of median wall time among those without error.
func median(ss []sample) (sample, bool) {
	var ok []sample
	for _, s := range ss {
		if s.err == nil {
			ok = append(ok, s)
		}
	}
	if len(ok) == 0 {
		if len(ss) > 0 {
			return ss[0], false
		}
		return sample{err: errors.New("not run")}, false
	}
	sort.Slice(ok, func(i, j int) bool { return ok[i].wall < ok[j].wall })
	return ok[len(ok)/2], true
}

// result is everything measured on one repository.
type result struct {
	*subject
	cold                 sample
	warm, touched, edits []sample
	rg                   []sample
	gopls, repomix       sample
	goplsRan, repomixRan bool
	rgRan                bool
	floor                floor       // Rust trees only (floor.go)
	pack                 packRun     // pack.go
	resident             residentRun // resident.go
}

// peers are the other tools' binaries; "" when unavailable.
type peers struct {
	rg, gopls, repomix, astgrep string
	versions                    map[string]string
}

func resolvePeers(o *options) peers {
	p := peers{versions: map[string]string{}}
	find := func(name, flag string, versionArgs ...string) string {
		if flag == "" {
			return ""
		}
		path, err := exec.LookPath(flag)
		if err != nil {
			logf("%s not found (%s): its column stays empty; benchmarks/speed.sh installs it", name, flag)
			return ""
		}
		if out, err := exec.Command(path, versionArgs...).Output(); err == nil {
			line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
			p.versions[name] = line
		}
		return path
	}
	p.rg = find("ripgrep", o.rg, "--version")
	p.gopls = find("gopls", o.gopls, "version")
	p.repomix = find("repomix", o.repomix, "--version")
	p.astgrep = find("ast-grep", o.astgrep, "--version")
	return p
}

func measure(ctx context.Context, o *options, s *subject, p peers) *result {
	r := &result{subject: s}
	cache := filepath.Join(o.work, "cache", s.name)
	os.RemoveAll(cache)
	query := func() sample {
		return runCmd(ctx, o.timeout, s.root, []string{"CTXEXPAND_CACHE_DIR=" + cache},
			o.bin, "--root", s.root, "--quiet", "--budget", "16000", s.query)
	}
	settle()
	logf("%s: ctxexpand cold", s.name)
	r.cold = query()
	report(s.name, "cold", r.cold)
	for i := 0; i < o.warm; i++ {
		r.warm = append(r.warm, query())
	}
	m, _ := median(r.warm)
	report(s.name, "warm p50", m)
	r.pack = measurePack(ctx, o, s, cache) // before the edits: the tree as it was copied
	if !s.readOnly {
		for round := 0; round < o.rounds; round++ {
			now := time.Now()
			for _, f := range s.editTargets(round) {
				os.Chtimes(filepath.Join(s.root, filepath.FromSlash(f)), now, now)
			}
			r.touched = append(r.touched, query())
		}
		m, _ = median(r.touched)
		report(s.name, "touch 5 p50", m)
		for round := 0; round < o.rounds; round++ {
			for _, f := range s.editTargets(o.rounds + round) {
				appendLine(filepath.Join(s.root, filepath.FromSlash(f)), s.lang, round)
			}
			r.edits = append(r.edits, query())
		}
		m, _ = median(r.edits)
		report(s.name, "edit 5 p50", m)
		if o.queries > 0 {
			r.resident = measureResident(ctx, o, s, cache)
		}
	}
	if p.rg != "" {
		r.rgRan = true
		typ, pat := "go", "func"
		if s.lang == "rust" {
			typ, pat = "rust", "fn"
		}
		for i := 0; i < 3; i++ {
			r.rg = append(r.rg, runCmd(ctx, o.timeout, s.root, nil, p.rg, "-c", "-t", typ, pat, "."))
		}
		m, _ = median(r.rg)
		report(s.name, "ripgrep", m)
	}
	if s.lang == "rust" {
		r.floor = measureFloor(ctx, o, s, p)
	}
	if p.gopls != "" && s.lang == "go" && s.goplsPos != "" {
		r.goplsRan = true
		gcache := filepath.Join(o.work, "gopls-cache", s.name)
		os.RemoveAll(gcache)
		settle()
		r.gopls = runCmd(ctx, o.timeout, s.root, []string{"XDG_CACHE_HOME=" + gcache, "GOPROXY=off"},
			p.gopls, "references", s.goplsPos)
		report(s.name, "gopls references (cold)", r.gopls)
	}
	if p.repomix != "" {
		r.repomixRan = true
		ext := "go"
		if s.lang == "rust" {
			ext = "rs"
		}
		r.repomix = runCmd(ctx, o.timeout, s.root, nil, p.repomix, s.root, "--include", "**/*."+ext,
			"--output", filepath.Join(o.work, "repomix-"+strings.ReplaceAll(s.name, "/", "-")+".xml"), "--quiet")
		report(s.name, "repomix", r.repomix)
	}
	return r
}

func report(name, what string, s sample) {
	if s.err != nil {
		logf("%s: %s: failed: %v", name, what, s.err)
		return
	}
	logf("%s: %s: %v (CPU %v), %d MiB", name, what, s.wall.Round(time.Millisecond), s.cpu.Round(time.Millisecond), s.rss/1024)
}

// appendLine edits a file the way a small change does: a comment line
// at its end (declarations keep their positions).
func appendLine(p, lang string, round int) {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "\n// speed benchmark edit %d\n", round)
}
