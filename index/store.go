package index

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/index/wire"
)

// FormatVersion is the version of the on-disk layout and of the framing
// of entries and packs (magic, kind, checksum). Bump it whenever either
// changes: the directory name carries it, so an older ctxexpand and a
// newer one never read each other's files. Payloads are versioned by
// their owners (their keys include the program's identity, see
// ExecutableID, and a codec version of their own).
const FormatVersion = 1

// ErrCorrupt is wrapped by the errors of entries that fail their checks.
var ErrCorrupt = errors.New("corrupt index entry")

// Options configures Open. The zero value uses DefaultDir.
type Options struct {
	// Dir is the cache directory; "" means DefaultDir().
	Dir string
	// Notice receives one line for each thing worth telling the user: a
	// corrupt entry rebuilt, an index of another format replaced. Nil
	// drops them.
	Notice func(msg string)
	// MaxAge is how long an entry no run has used is kept; 0 means 14 days.
	MaxAge time.Duration
	// MaxSnapshots is how many whole-repository entries of each kind a
	// root keeps (snapshots.go); 0 means DefaultMaxSnapshots.
	MaxSnapshots int
}

// DefaultDir is ctxexpand's directory under the user's cache directory
// ($XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
// %LocalAppData% on Windows).
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache directory: %w; pass --cache-dir or --no-cache", err)
	}
	return filepath.Join(d, "ctxexpand"), nil
}

// Store is an on-disk index shared by every run and every process of
// the user. It is safe for concurrent use.
type Store struct {
	base   string // the directory given
	dir    string // base/index-vN
	notice func(string)
	maxAge time.Duration

	maxSnapshots int
	snapMu       sync.Mutex // one update of a recent-snapshots list at a time

	mu      sync.Mutex
	stats   map[string]*KindStats
	noticed map[string]bool

	exeOnce sync.Once
	exeID   string
}

// KindStats counts what one run did with the entries of one kind.
type KindStats struct {
	Hits         int64 `json:"hits"`
	Misses       int64 `json:"misses"`
	Writes       int64 `json:"writes"`
	Corrupt      int64 `json:"corrupt,omitempty"`
	Evicted      int64 `json:"evicted,omitempty"` // snapshots removed to keep the number per root
	BytesRead    int64 `json:"bytes_read"`
	BytesWritten int64 `json:"bytes_written"`
}

const formatFile = "FORMAT"

// Open opens (creating when needed) the index under opt.Dir. A directory
// whose FORMAT marker is missing or unreadable is reset with a notice.
func Open(opt Options) (*Store, error) {
	base := opt.Dir
	if base == "" {
		d, err := DefaultDir()
		if err != nil {
			return nil, err
		}
		base = d
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		return nil, fmt.Errorf("opening the index in %s: %w", base, err)
	}
	s := &Store{
		base:    abs,
		dir:     filepath.Join(abs, fmt.Sprintf("index-v%d", FormatVersion)),
		notice:  opt.Notice,
		maxAge:  opt.MaxAge,
		stats:   map[string]*KindStats{},
		noticed: map[string]bool{},
	}
	if s.maxAge <= 0 {
		s.maxAge = 14 * 24 * time.Hour
	}
	if s.maxSnapshots = opt.MaxSnapshots; s.maxSnapshots <= 0 {
		s.maxSnapshots = DefaultMaxSnapshots
	}
	if err := s.init(); err != nil {
		return nil, fmt.Errorf("opening the index in %s: %w (pass --cache-dir elsewhere or --no-cache)", abs, err)
	}
	return s, nil
}

func formatMarker() []byte {
	return fmt.Appendf(nil, "ctxexpand index format %d\n", FormatVersion)
}

func (s *Store) init() error {
	for _, d := range []string{"objects", "roots", "tmp"} {
		if err := os.MkdirAll(filepath.Join(s.dir, d), 0o755); err != nil {
			return err
		}
	}
	marker := filepath.Join(s.dir, formatFile)
	data, err := os.ReadFile(marker)
	switch {
	case err == nil && bytes.Equal(data, formatMarker()):
	case err == nil || !errors.Is(err, fs.ErrNotExist):
		s.noticef("index: %s has an unknown format marker; rebuilding the index", s.dir)
		for _, d := range []string{"objects", "roots"} {
			if err := os.RemoveAll(filepath.Join(s.dir, d)); err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Join(s.dir, d), 0o755); err != nil {
				return err
			}
		}
		fallthrough
	default:
		if err := s.writeAtomic(marker, formatMarker()); err != nil {
			return err
		}
	}
	s.cleanTemp()
	return nil
}

// Dir is the directory of this format's entries.
func (s *Store) Dir() string { return s.dir }

// staleTemp is how old a temporary file must be before it is taken for
// the leftover of a killed run and removed.
const staleTemp = 10 * time.Minute

// cleanTemp removes temporary files that killed runs left behind. A live
// writer's temporary file exists for milliseconds.
func (s *Store) cleanTemp() {
	tmp := filepath.Join(s.dir, "tmp")
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range ents {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(filepath.Join(tmp, e.Name()))
		}
	}
}

func (s *Store) noticef(format string, args ...any) {
	if s.notice == nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	seen := s.noticed[msg]
	s.noticed[msg] = true
	s.mu.Unlock()
	if !seen {
		s.notice(msg)
	}
}

func (s *Store) kind(kind string) *KindStats {
	ks := s.stats[kind]
	if ks == nil {
		ks = &KindStats{}
		s.stats[kind] = ks
	}
	return ks
}

// validKind reports whether kind can name a directory.
func validKind(kind string) bool {
	if kind == "" || len(kind) > 40 {
		return false
	}
	for _, c := range kind {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func (s *Store) path(kind string, key Key) string {
	h := key.String()
	return filepath.Join(s.dir, "objects", kind, h[:2], h)
}

// Entry framing: magic, kind, payload, CRC-32C of everything before it.
var magic = []byte("cxi\x01")

var crcTable = crc32.MakeTable(crc32.Castagnoli)

func frame(kind string, payload []byte) []byte {
	w := wire.NewWriter(len(payload) + len(kind) + 16)
	for _, b := range magic {
		w.Byte(b)
	}
	w.String(kind)
	w.Blob(payload)
	sum := crc32.Checksum(w.Bytes(), crcTable)
	w.Byte(byte(sum))
	w.Byte(byte(sum >> 8))
	w.Byte(byte(sum >> 16))
	w.Byte(byte(sum >> 24))
	return w.Bytes()
}

func unframe(kind string, data []byte) ([]byte, error) {
	if len(data) < len(magic)+4 || !bytes.Equal(data[:len(magic)], magic) {
		return nil, fmt.Errorf("%w: bad header", ErrCorrupt)
	}
	body, tail := data[:len(data)-4], data[len(data)-4:]
	want := uint32(tail[0]) | uint32(tail[1])<<8 | uint32(tail[2])<<16 | uint32(tail[3])<<24
	if crc32.Checksum(body, crcTable) != want {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	r := wire.NewReader(body[len(magic):])
	if k := r.String(); k != kind {
		return nil, fmt.Errorf("%w: entry of kind %q, want %q", ErrCorrupt, k, kind)
	}
	payload := r.Blob()
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return payload, nil
}

// Get returns the payload stored under (kind, key). A missing entry is a
// miss; a corrupt one is removed, reported once through Notice and
// counted as a miss, so the caller recomputes and stores it again.
func (s *Store) Get(kind string, key Key) ([]byte, bool) {
	if !validKind(kind) {
		return nil, false
	}
	p := s.path(kind, key)
	data, err := os.ReadFile(p)
	var payload []byte
	if err == nil {
		payload, err = unframe(kind, data)
		if err != nil {
			os.Remove(p)
			s.noticef("index: a corrupt %s entry was removed and will be rebuilt (%v)", kind, err)
		}
	}
	s.mu.Lock()
	ks := s.kind(kind)
	if err != nil {
		ks.Misses++
		if errors.Is(err, ErrCorrupt) {
			ks.Corrupt++
		}
		s.mu.Unlock()
		return nil, false
	}
	ks.Hits++
	ks.BytesRead += int64(len(data))
	s.mu.Unlock()
	s.touch(p)
	return payload, true
}

// touch marks an entry used, at most once a day, for trimming.
func (s *Store) touch(p string) {
	st, err := os.Stat(p)
	if err != nil {
		return
	}
	if now := time.Now(); now.Sub(st.ModTime()) > 24*time.Hour {
		os.Chtimes(p, now, now)
	}
}

// Put stores payload under (kind, key), atomically: readers see the old
// entry, none, or the whole new one, never a part. Failures (a full disk,
// a read-only directory) cost the cache, not the run: they are counted
// and reported once through Notice.
func (s *Store) Put(kind string, key Key, payload []byte) {
	if !validKind(kind) {
		return
	}
	p := s.path(kind, key)
	err := os.MkdirAll(filepath.Dir(p), 0o755)
	if err == nil {
		// Streamed: a large entry (the standard library's facts or lexical
		// index) is not copied into its frame first.
		err = s.writeFramedAtomic(p, kind, len(payload), func(fw *framedWriter) error { return fw.raw(payload) })
	}
	if err != nil {
		s.noticef("index: could not store a %s entry: %v", kind, err)
		return
	}
	s.mu.Lock()
	ks := s.kind(kind)
	ks.Writes++
	ks.BytesWritten += int64(frameSize(kind, len(payload)))
	s.mu.Unlock()
}

// framedWriter streams a frame's payload to its file (writeFramedAtomic):
// values go into w, and flush sends what w holds; raw sends bytes as
// they are, after what w holds.
type framedWriter struct {
	w     *wire.Writer
	out   io.Writer
	wrote int // payload bytes sent (the header's are subtracted up front)
}

func (f *framedWriter) flush() error {
	f.wrote += f.w.Len()
	_, err := f.out.Write(f.w.Bytes())
	f.w.Reset()
	return err
}

func (f *framedWriter) raw(b []byte) error {
	if err := f.flush(); err != nil {
		return err
	}
	f.wrote += len(b)
	_, err := f.out.Write(b)
	return err
}

// writeFramedAtomic writes to p, atomically, what frame(kind, payload)
// gives for a payload of exactly size bytes that body sends through fw:
// neither the payload nor its frame is ever whole in memory. What body
// leaves in fw.w is flushed after it.
func (s *Store) writeFramedAtomic(p, kind string, size int, body func(fw *framedWriter) error) error {
	f, err := s.createTemp(p)
	if err != nil {
		return err
	}
	crc := crc32.New(crcTable)
	fw := &framedWriter{w: wire.NewWriter(1<<16 + 64), out: io.MultiWriter(f, crc)}
	for _, b := range magic {
		fw.w.Byte(b)
	}
	fw.w.String(kind)
	fw.w.Uint(uint64(size))
	fw.wrote = -fw.w.Len()
	err = body(fw)
	if err == nil {
		err = fw.flush()
	}
	if err == nil && fw.wrote != size {
		err = fmt.Errorf("index: %s payload of %d bytes, announced %d", kind, fw.wrote, size)
	}
	if err == nil {
		sum := crc.Sum32()
		_, err = f.Write([]byte{byte(sum), byte(sum >> 8), byte(sum >> 16), byte(sum >> 24)})
	}
	return commitTemp(f, p, err)
}

// frameSize is the length of frame(kind, payload) for a payload of n
// bytes.
func frameSize(kind string, n int) int {
	return len(magic) + uvarintLen(uint64(len(kind))) + len(kind) + uvarintLen(uint64(n)) + n + 4
}

// uvarintLen is how many bytes wire writes for v.
func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// writeAtomic writes data to a temporary file and renames it over p.
// Entries are not synced: a crash may leave a truncated file behind the
// rename, which its checksum then rejects.
func (s *Store) writeAtomic(p string, data []byte) error {
	f, err := s.createTemp(p)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return commitTemp(f, p, err)
}

// createTemp opens the temporary file that becomes p (commitTemp).
func (s *Store) createTemp(p string) (*os.File, error) {
	return os.CreateTemp(filepath.Join(s.dir, "tmp"), filepath.Base(p)+".*")
}

// commitTemp closes f and, when err (what writing it met) and the close
// are nil, renames it over p; otherwise it removes it.
func commitTemp(f *os.File, p string, err error) error {
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// RunStats returns this process's counters by kind, sorted by kind.
func (s *Store) RunStats() []NamedStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]NamedStats, 0, len(s.stats))
	for k, v := range s.stats {
		out = append(out, NamedStats{Kind: k, KindStats: *v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

// NamedStats is a kind's counters.
type NamedStats struct {
	Kind string `json:"kind"`
	KindStats
}

// HitRate is hits over lookups, or 0 without lookups.
func (k KindStats) HitRate() float64 {
	if n := k.Hits + k.Misses; n > 0 {
		return float64(k.Hits) / float64(n)
	}
	return 0
}

// kindOf is the kind of an object path, or "".
func kindOf(objects, p string) string {
	rel, err := filepath.Rel(objects, p)
	if err != nil {
		return ""
	}
	k, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return k
}
