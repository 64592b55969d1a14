package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Packs: the index built once and used on another checkout.
//
// Once the warm runs are done (the tree as it was copied, the index up to
// date), `ctxexpand index --pack` writes the tree's index to a file. The
// tree is then copied to another directory, as another machine or a CI
// job would have it, and with an empty index there `ctxexpand index
// --from-pack` seeds it (seed) before the first query runs (first). The
// target is that first query as fast as a warm run.

// packRun is what the pack measurement found on one repository.
type packRun struct {
	ran   bool
	size  int64  // bytes
	write sample // ctxexpand index --pack, the index warm
	seed  sample // ctxexpand index --from-pack, another checkout, an empty index
	first sample // the first query after seed
	used  bool   // seed took the pack's snapshot (else note says why)
	note  string
}

func measurePack(ctx context.Context, o *options, s *subject, cache string) packRun {
	var r packRun
	if s.readOnly {
		return r
	}
	r.ran = true
	dir := filepath.Join(o.work, "packs")
	os.MkdirAll(dir, 0o755)
	pack := filepath.Join(dir, strings.ReplaceAll(s.name, "/", "-")+".pack")
	r.write = runCmd(ctx, o.timeout, s.root, []string{"CTXEXPAND_CACHE_DIR=" + cache},
		o.bin, "index", "--root", s.root, "--quiet", "--pack", pack)
	report(s.name, "index --pack", r.write)
	if r.write.err != nil {
		return r
	}
	if st, err := os.Stat(pack); err == nil {
		r.size = st.Size()
	}
	other := s.root + "-from-pack"
	os.RemoveAll(other)
	defer os.RemoveAll(other)
	if out, err := exec.CommandContext(ctx, "cp", "-a", s.root, other).CombinedOutput(); err != nil {
		r.seed.err = fmt.Errorf("copying the tree: %v: %s", err, out)
		return r
	}
	cache2 := cache + "-from-pack"
	os.RemoveAll(cache2)
	defer os.RemoveAll(cache2)
	settle()
	env := []string{"CTXEXPAND_CACHE_DIR=" + cache2}
	r.seed = runCmd(ctx, o.timeout, other, env, o.bin, "index", "--root", other, "--from-pack", pack)
	report(s.name, "index --from-pack (another checkout, empty index)", r.seed)
	r.used = strings.Contains(r.seed.stderr, "took its snapshot")
	if !r.used {
		r.note = strings.TrimSpace(r.seed.stderr)
		logf("%s: the pack's snapshot was not used: %s", s.name, r.note)
	}
	r.first = runCmd(ctx, o.timeout, other, env, o.bin, "--root", other, "--quiet", "--budget", "16000", s.query)
	report(s.name, "first query after the pack", r.first)
	return r
}

// writePacks adds the packs' table to the report.
func writePacks(b *strings.Builder, rs []*result) {
	ran := false
	for _, r := range rs {
		ran = ran || r.pack.ran
	}
	if !ran {
		return
	}
	b.WriteString("\n## Packs: an index built once, used on another checkout\n\n")
	b.WriteString("*Write* is `ctxexpand index --pack FILE` with the index warm; the tree is then copied to another directory, and with an empty index there *seed* is `ctxexpand index --from-pack FILE` (hashing every input file, checking the pack against the tree, storing its snapshot and records) and *first query* the query that follows. ")
	b.WriteString("The first query should cost what a warm run costs; *seed + first* is what a new machine or CI job pays instead of a cold run.\n\n")
	b.WriteString("| repository | pack size | write | seed | first query | warm p50 | first ÷ warm | seed + first ÷ cold | snapshot used |\n|---|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, r := range rs {
		if !r.pack.ran {
			continue
		}
		p, c := r.pack, r.cells()
		sum := sample{wall: p.seed.wall + p.first.wall, err: p.seed.err}
		if sum.err == nil {
			sum.err = p.first.err
		}
		used := "yes"
		if !p.used {
			used = "no"
			if p.note != "" {
				used = "no: " + strings.ReplaceAll(p.note, "|", "/")
			}
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, sizeOf(p.size), dur(p.write, p.write.err == nil),
			dur(p.seed, p.seed.err == nil), dur(p.first, p.first.err == nil), dur(c.warm, c.warmOK),
			ratio(p.first, c.warm, p.first.err == nil, c.warmOK), ratio(sum, c.cold, sum.err == nil, c.coldOK), used)
	}
}

func sizeOf(n int64) string {
	if n <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// packTarget checks the first query from a pack against the warm runs.
func packTarget(r *result) (target, bool) {
	if r == nil || !r.pack.ran {
		return target{}, false
	}
	c := r.cells()
	t := target{what: "Go ~150k lines: first query from a pack within 1.25× warm p50", repo: r.name,
		got: ratio(r.pack.first, c.warm, r.pack.first.err == nil, c.warmOK), met: "no"}
	if r.pack.first.err == nil && c.warmOK && r.pack.used && r.pack.first.wall <= c.warm.wall+c.warm.wall/4 {
		t.met = "yes"
	}
	return t, true
}
