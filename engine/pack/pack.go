package pack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze/factcodec"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/index"
)

// packFormat is the version of Info and of what a pack holds.
const packFormat = 1

// packKinds are the kinds of record packs a pack carries.
var packKinds = []string{"go-pkg", "rust-file", "lexfile", "tokens"}

// ErrRefused is wrapped by the error of a pack that was not used.
var ErrRefused = errors.New("pack refused")

// Info describes a pack: what built it, from which tree, with which
// settings.
type Info struct {
	Format  int       `json:"format"`
	Program string    `json:"program"` // index.Store.ExecutableID of the builder
	Commit  string    `json:"commit,omitempty"`
	Created time.Time `json:"created"`
	// Settings are what besides the files changes the analysis, with
	// paths made relative to the root or left out (see
	// engine.Fingerprint.PortableSettings).
	Settings string `json:"settings"`
	// Inputs are the content hashes of the input files, by
	// repository-relative path.
	Inputs map[string]string `json:"inputs"`
}

// Write writes root's index, as the last complete load through
// opt.Index left it for the tree as it is now, to w.
func Write(ctx context.Context, root string, opt engine.LoadOptions, w io.Writer) (Info, error) {
	st := opt.Index
	if st == nil {
		return Info{}, errors.New("writing a pack: no index (drop --no-cache)")
	}
	fp, err := engine.FingerprintOf(ctx, root, opt)
	if err != nil {
		return Info{}, fmt.Errorf("writing a pack: %w", err)
	}
	facts, ok := st.GetSnapshot(root, "facts", fp.Facts)
	if !ok {
		return Info{}, fmt.Errorf("writing a pack: the index holds no complete analysis of %s as it is now (a run cut short by a time limit stores none); run ctxexpand index without --timeout", root)
	}
	a := &index.Archive{Entries: []index.ArchiveEntry{{Kind: "facts", Name: "snapshot", Payload: facts}}}
	if lex, ok := st.GetSnapshot(root, "lexical", fp.Lexical); ok {
		a.Entries = append(a.Entries, index.ArchiveEntry{Kind: "lexical", Name: "snapshot", Payload: lex})
	}
	for _, kind := range packKinds {
		recs, err := st.PackRecords(root, kind)
		if err != nil {
			return Info{}, fmt.Errorf("writing a pack: %w; run ctxexpand index again to rebuild them", err)
		}
		if len(recs) > 0 {
			a.Records = append(a.Records, index.ArchiveRecords{Kind: kind, Records: recs})
		}
	}
	info := Info{Format: packFormat, Program: st.ExecutableID(), Commit: gitHead(ctx, root),
		Created: time.Now().UTC().Truncate(time.Second), Settings: fp.PortableSettings(), Inputs: fp.Inputs}
	if a.Meta, err = json.Marshal(info); err != nil {
		return Info{}, err
	}
	if err := index.WriteArchive(w, a); err != nil {
		return Info{}, fmt.Errorf("writing a pack: %w", err)
	}
	return info, nil
}

// SeedResult is what Seed took from a pack.
type SeedResult struct {
	Info     Info
	Records  int    // records added to the root's packs
	Snapshot bool   // the snapshot was stored: the next load of this tree analyses nothing
	Reason   string // why it was not, when it was not
}

// Read reads a pack file and its description. A damaged pack, or one
// of another format, is an error wrapping ErrRefused.
func Read(r io.Reader, max int64) (*index.Archive, Info, error) {
	a, err := index.ReadArchive(r, max)
	if errors.Is(err, index.ErrCorrupt) {
		detail := strings.TrimPrefix(err.Error(), index.ErrCorrupt.Error()+": ")
		return nil, Info{}, fmt.Errorf("%w: the file is damaged or not a pack (%s)", ErrRefused, detail)
	}
	if err != nil {
		return nil, Info{}, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	var info Info
	if err := json.Unmarshal(a.Meta, &info); err != nil {
		return nil, Info{}, fmt.Errorf("%w: its description does not read (%v)", ErrRefused, err)
	}
	if info.Format != packFormat {
		return nil, Info{}, fmt.Errorf("%w: pack contents of format %d, this ctxexpand reads format %d", ErrRefused, info.Format, packFormat)
	}
	return a, info, nil
}

// Seed adds what a pack holds to root's index in opt.Index: its
// records when the pack was built by this program from this repository,
// and its snapshots as well when the tree, the settings and the Go
// environment are the ones it was built from. A pack it cannot use at all
// gives an error wrapping ErrRefused, and the index is left as it
// was.
func Seed(ctx context.Context, root string, opt engine.LoadOptions, a *index.Archive, info Info) (SeedResult, error) {
	res := SeedResult{Info: info}
	st := opt.Index
	if st == nil {
		return res, errors.New("seeding from a pack: no index (drop --no-cache)")
	}
	if exe := st.ExecutableID(); info.Program != exe {
		return res, fmt.Errorf("%w: it was built by another version of ctxexpand (%s; this is %s); build the pack with the version that reads it", ErrRefused, info.Program, exe)
	}
	fp, err := engine.FingerprintOf(ctx, root, opt)
	if err != nil {
		return res, fmt.Errorf("seeding from a pack: %w", err)
	}
	diff := compareInputs(info.Inputs, fp.Inputs)
	if len(info.Inputs) > 0 && 2*diff.present < len(info.Inputs) {
		return res, fmt.Errorf("%w: it is of another tree: %d of its %d files are not here (%s); build the pack from this repository",
			ErrRefused, diff.removed, len(info.Inputs), diff.missing)
	}
	for _, rs := range a.Records {
		if !knownPackKind(rs.Kind) {
			continue // a kind this program does not keep
		}
		if err := st.AddRecords(root, rs.Kind, rs.Records); err != nil {
			return res, fmt.Errorf("seeding from a pack: %w", err)
		}
		res.Records += len(rs.Records)
	}
	switch here := fp.PortableSettings(); {
	case diff.count() > 0:
		res.Reason = fmt.Sprintf("the tree differs from the pack's%s: %s (%s)", commitNote(info.Commit), plural(diff.count(), "file"), diff.example)
	case here != info.Settings:
		res.Reason = "it was built with other settings: " + firstDifference(info.Settings, here)
	}
	if res.Reason != "" {
		return res, nil
	}
	facts, ok := a.Entry("facts", "snapshot")
	if !ok {
		res.Reason = "it holds no facts snapshot"
		return res, nil
	}
	if _, err := factcodec.Decode(facts, root); err != nil {
		res.Reason = fmt.Sprintf("its facts snapshot does not decode (%v)", err)
		return res, nil
	}
	st.PutSnapshot(root, "facts", fp.Facts, facts)
	if lex, ok := a.Entry("lexical", "snapshot"); ok {
		st.PutSnapshot(root, "lexical", fp.Lexical, lex)
	}
	res.Snapshot = true
	return res, nil
}

func knownPackKind(kind string) bool {
	for _, k := range packKinds {
		if k == kind {
			return true
		}
	}
	return false
}

func commitNote(commit string) string {
	if commit == "" {
		return ""
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	return " (commit " + commit + ")"
}

// inputDiff compares a pack's input files with the tree's.
type inputDiff struct {
	present                 int // of the pack's files, those here
	changed, added, removed int
	example                 string // the first few differing files
	missing                 string // the first few of the pack's files that are not here
}

func (d inputDiff) count() int { return d.changed + d.added + d.removed }

func compareInputs(pack, here map[string]string) inputDiff {
	var d inputDiff
	var names, missing []string
	for p, h := range pack {
		now, ok := here[p]
		switch {
		case !ok:
			d.removed++
			names = append(names, p+" (not here)")
			missing = append(missing, p)
		case now != h:
			d.present++
			d.changed++
			names = append(names, p)
		default:
			d.present++
		}
	}
	for p := range here {
		if _, ok := pack[p]; !ok {
			d.added++
			names = append(names, p+" (not in the pack)")
		}
	}
	d.example, d.missing = firstFew(names), firstFew(missing)
	return d
}

// firstFew lists the first three names in order, and says when there
// are more.
func firstFew(names []string) string {
	sort.Strings(names)
	if len(names) > 3 {
		names = append(names[:3:3], "…")
	}
	return strings.Join(names, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// firstDifference names the first line of two descriptions that differs.
func firstDifference(pack, here string) string {
	pl, hl := strings.Split(pack, "\n"), strings.Split(here, "\n")
	for i := 0; i < len(pl) || i < len(hl); i++ {
		var p, h string
		if i < len(pl) {
			p = pl[i]
		}
		if i < len(hl) {
			h = hl[i]
		}
		if p != h {
			return fmt.Sprintf("%q in the pack, %q here", p, h)
		}
	}
	return "none"
}

// gitHead is the commit checked out at root, or "" outside a git
// repository.
func gitHead(ctx context.Context, root string) string {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--verify", "-q", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
