package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Run is what one run of ctxexpand did with the index, saved per root so
// that `ctxexpand index --stats` can show the hit rates of the last run.
type Run struct {
	Root     string        `json:"root"`
	Time     time.Time     `json:"time"`
	Duration time.Duration `json:"duration_ns"`
	// Snapshot says whether the whole analysis came from the index
	// ("hit"), was rebuilt from cached parts ("miss"), or was not looked up.
	Snapshot string       `json:"snapshot,omitempty"`
	Kinds    []NamedStats `json:"kinds"`
	Notes    []string     `json:"notes,omitempty"`
}

// SaveRun records the counters of this process as root's last run.
func (s *Store) SaveRun(root string, run Run) {
	run.Root = root
	if run.Kinds == nil {
		run.Kinds = s.RunStats()
	}
	data, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return
	}
	dir := s.rootDir(root)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	if err := s.writeAtomic(filepath.Join(dir, "lastrun.json"), append(data, '\n')); err != nil {
		s.noticef("index: could not save run statistics: %v", err)
	}
}

// LastRun reads root's last run, or false when there is none.
func (s *Store) LastRun(root string) (Run, bool) {
	data, err := os.ReadFile(filepath.Join(s.rootDir(root), "lastrun.json"))
	if err != nil {
		return Run{}, false
	}
	var run Run
	if err := json.Unmarshal(data, &run); err != nil {
		return Run{}, false
	}
	return run, true
}

// Usage is what the index holds on disk.
type Usage struct {
	Dir   string
	Kinds []KindUsage // entries by kind
	Packs []KindUsage // packs by kind (Entries counts packs, one per root)
	Roots int
	Temp  int // leftover temporary files
}

// KindUsage is the number and total size of the entries of one kind.
type KindUsage struct {
	Kind    string
	Entries int
	Bytes   int64
}

// Total is the number of entries and the size of entries and packs.
func (u Usage) Total() (entries int, bytes int64) {
	for _, k := range u.Kinds {
		entries += k.Entries
		bytes += k.Bytes
	}
	for _, k := range u.Packs {
		bytes += k.Bytes
	}
	return entries, bytes
}

// Usage walks the index and counts its entries.
func (s *Store) Usage() (Usage, error) {
	u := Usage{Dir: s.dir}
	objects := filepath.Join(s.dir, "objects")
	byKind := map[string]*KindUsage{}
	err := filepath.WalkDir(objects, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed meanwhile by another process
		}
		k := kindOf(objects, p)
		ku := byKind[k]
		if ku == nil {
			ku = &KindUsage{Kind: k}
			byKind[k] = ku
		}
		ku.Entries++
		ku.Bytes += info.Size()
		return nil
	})
	if err != nil {
		return u, fmt.Errorf("reading the index: %w", err)
	}
	for _, ku := range byKind {
		u.Kinds = append(u.Kinds, *ku)
	}
	sort.Slice(u.Kinds, func(i, j int) bool { return u.Kinds[i].Kind < u.Kinds[j].Kind })
	if ents, err := os.ReadDir(filepath.Join(s.dir, "roots")); err == nil {
		u.Roots = len(ents)
		packs := map[string]*KindUsage{}
		for _, e := range ents {
			files, _ := os.ReadDir(filepath.Join(s.dir, "roots", e.Name()))
			for _, f := range files {
				kind, ok := strings.CutSuffix(f.Name(), ".pack")
				if !ok {
					continue
				}
				info, err := f.Info()
				if err != nil {
					continue
				}
				ku := packs[kind]
				if ku == nil {
					ku = &KindUsage{Kind: kind}
					packs[kind] = ku
				}
				ku.Entries++
				ku.Bytes += info.Size()
			}
		}
		for _, ku := range packs {
			u.Packs = append(u.Packs, *ku)
		}
		sort.Slice(u.Packs, func(i, j int) bool { return u.Packs[i].Kind < u.Packs[j].Kind })
	}
	if ents, err := os.ReadDir(filepath.Join(s.dir, "tmp")); err == nil {
		u.Temp = len(ents)
	}
	return u, nil
}

// WriteReport prints the usage and, when known, root's last run as
// aligned text.
func WriteReport(w io.Writer, u Usage, run *Run) {
	entries, bytes := u.Total()
	fmt.Fprintf(w, "index: %s\n", u.Dir)
	fmt.Fprintf(w, "entries: %d (%s) for %d repositories\n", entries, humanBytes(bytes), u.Roots)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\tentries\tsize\t")
	for _, k := range u.Kinds {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", k.Kind, k.Entries, humanBytes(k.Bytes))
	}
	for _, k := range u.Packs {
		fmt.Fprintf(tw, "%s (packs)\t%d\t%s\t\n", k.Kind, k.Entries, humanBytes(k.Bytes))
	}
	tw.Flush()
	if run == nil {
		fmt.Fprintln(w, "last run: none for this repository")
		return
	}
	fmt.Fprintf(w, "last run: %s, %v", run.Time.Format(time.RFC3339), run.Duration.Round(time.Millisecond))
	if run.Snapshot != "" {
		fmt.Fprintf(w, ", snapshot %s", run.Snapshot)
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\thits\tmisses\thit rate\twritten\tcorrupt\tevicted\t")
	for _, k := range run.Kinds {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f%%\t%d (%s)\t%d\t%d\t\n", k.Kind, k.Hits, k.Misses, 100*k.HitRate(),
			k.Writes, humanBytes(k.BytesWritten), k.Corrupt, k.Evicted)
	}
	tw.Flush()
	for _, n := range run.Notes {
		fmt.Fprintf(w, "note: %s\n", strings.TrimSpace(n))
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
