package index

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Packs.
//
// Per-file and per-package records are many and small: a repository of
// 2,000 files has 2,000 of them per kind. As one file each, a cold run
// spent half a millisecond creating and renaming each (a second for 2,000
// on the benchmark machine) and a warm one 45 µs reading each; bbolt did
// both in a few milliseconds per thousand but takes a lock on the whole
// database for every writer, so two ctxexpand processes would wait for
// each other (BenchmarkPack records the figures). A pack keeps a root's
// records of one kind in one file instead: a run reads it once, looks
// records up by key, and at the end writes one new pack holding the
// records it used or added. Records of files that no longer exist drop out
// by themselves. The write is atomic, so concurrent runs on the same root
// never see a torn pack; the last writer wins, and what the other run
// added is recomputed when next needed.

// Pack is a root's records of one kind. It is safe for concurrent use.
type Pack struct {
	s    *Store
	kind string
	path string

	mu      sync.Mutex
	old     map[Key][]byte
	used    map[Key][]byte
	dirty   bool
	flushed bool
	touched bool // Get or Put was called
	keep    int  // with Keep: how many records a flush may hold

	// Records put beyond spillAfter bytes wait for the flush in a
	// scratch file rather than in memory (see spill).
	held       int              // bytes of records put and held in used (replaced ones included)
	spillLimit int              // spillAfter, or a test's own threshold
	spilled    map[Key]spillRef // records in the scratch file
	scratch    *os.File         // nil until the first record spills
	sbuf       *bufio.Writer    // buffers scratch; flushed before a read
	send       int64            // scratch bytes written (buffered included)
	sgone      bool             // scratch was removed from its directory
	sfailed    bool             // scratch could not be made or written: hold in memory
}

// Spilling.
//
// A cold load puts every record of the tree before the flush writes them:
// on the standard library, the Go packages' records alone are 127 MB,
// held beside everything the load is still building, at its peak of
// memory. Past spillAfter bytes of records put by this run, a Pack appends
// them to a scratch file in the store's tmp directory instead, and keeps
// only their places; Get reads a spilled record back and the flush copies
// them into the pack. The scratch file is unlinked as soon as it is made
// where the system allows (it lives while open), and removed after the
// flush otherwise; a run killed on a system that does not allow it leaves
// it to the store's clean-up of stale temporary files. A record that
// cannot be read back is a miss, never an error: it is computed again. A
// Pack that cannot write its scratch file holds its records in memory, as
// without spilling. After Flush, spilled records are gone from the Pack.
const spillAfter = 16 << 20

// spillRef is where a spilled record lies in the scratch file.
type spillRef struct {
	off int64
	n   int
}

// Keep makes Flush also keep records this run did not use, up to max
// records in all: for records that depend on what a run asks (token
// counts of the files a query shows) rather than on what the tree holds.
// Which unused records are dropped when there are too many is
// unspecified.
func (p *Pack) Keep(max int) *Pack {
	p.mu.Lock()
	p.keep = max
	p.mu.Unlock()
	return p
}

// Pack opens root's pack of the given kind; a missing or corrupt pack is
// empty (a corrupt one is reported through Notice).
func (s *Store) Pack(root, kind string) *Pack {
	p := &Pack{s: s, kind: kind, path: filepath.Join(s.rootDir(root), kind+".pack"),
		old: map[Key][]byte{}, used: map[Key][]byte{}}
	if !validKind(kind) {
		return p
	}
	data, err := os.ReadFile(p.path)
	if err != nil {
		return p
	}
	payload, err := unframe("pack-"+kind, data)
	if err == nil {
		err = p.decode(payload)
	}
	if err != nil {
		clear(p.old)
		p.dirty = true
		s.noticef("index: the %s records of %s were corrupt and will be rebuilt (%v)", kind, root, err)
		s.mu.Lock()
		s.kind(kind).Corrupt++
		s.mu.Unlock()
	}
	return p
}

func (p *Pack) decode(payload []byte) error {
	r := wire.NewReader(payload)
	n := r.Len(33)
	for i := 0; i < n && r.Err() == nil; i++ {
		var k Key
		copy(k[:], r.View())
		p.old[k] = r.View() // the file's bytes are ours: no copy
	}
	return r.Done()
}

// Get returns the record stored under key, and keeps it for the next pack.
func (p *Pack) Get(key Key) ([]byte, bool) {
	p.mu.Lock()
	p.touched = true
	data, ok := p.used[key]
	if !ok {
		if ref, in := p.spilled[key]; in {
			data, ok = p.readSpilled(ref)
			if !ok {
				delete(p.spilled, key) // computed again, and put again
			}
		} else if data, ok = p.old[key]; ok {
			p.used[key] = data
		}
	}
	p.mu.Unlock()
	p.s.mu.Lock()
	ks := p.s.kind(p.kind)
	if ok {
		ks.Hits++
		ks.BytesRead += int64(len(data))
	} else {
		ks.Misses++
	}
	p.s.mu.Unlock()
	return data, ok
}

// Retain keeps the record stored under key, if any, for the next pack,
// as Get would, without reading it: for records a run does not need but
// a later one may (the Go loader's records of a package's uses).
func (p *Pack) Retain(key Key) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.touched = true
	if _, ok := p.used[key]; ok {
		return
	}
	if data, ok := p.old[key]; ok {
		p.used[key] = data
	}
}

// Put adds a record for the next pack.
func (p *Pack) Put(key Key, data []byte) {
	p.mu.Lock()
	p.touched = true
	if old, ok := p.used[key]; !ok || string(old) != string(data) {
		delete(p.spilled, key)
		if p.held+len(data) <= p.spillAt() || !p.spill(key, data) {
			p.used[key] = data
			p.held += len(data)
		} else if ok {
			delete(p.used, key)
		}
		p.dirty = true
	}
	p.mu.Unlock()
	p.s.mu.Lock()
	ks := p.s.kind(p.kind)
	ks.Writes++
	ks.BytesWritten += int64(len(data))
	p.s.mu.Unlock()
}

func (p *Pack) spillAt() int {
	if p.spillLimit > 0 {
		return p.spillLimit
	}
	return spillAfter
}

// spill appends a record to the scratch file, made on first use, and
// reports whether it did. The caller holds p.mu.
func (p *Pack) spill(key Key, data []byte) bool {
	if p.sfailed || p.s == nil || p.flushed {
		return false
	}
	if p.scratch == nil {
		f, err := p.s.createTemp(p.path + ".spill")
		if err != nil {
			p.sfailed = true
			return false
		}
		// Unlinked at once where an open file may be: nothing is left
		// behind, whatever becomes of the run.
		p.scratch, p.sbuf, p.sgone = f, bufio.NewWriterSize(f, 1<<16), os.Remove(f.Name()) == nil
		p.spilled = map[Key]spillRef{}
	}
	if _, err := p.sbuf.Write(data); err != nil {
		p.sfailed = true // what was spilled stays readable; the rest is held
		return false
	}
	p.spilled[key] = spillRef{off: p.send, n: len(data)}
	p.send += int64(len(data))
	return true
}

// readSpilled reads a spilled record back. The caller holds p.mu.
func (p *Pack) readSpilled(ref spillRef) ([]byte, bool) {
	if p.scratch == nil {
		return nil, false
	}
	if p.sbuf.Buffered() > 0 && ref.off+int64(ref.n) > p.send-int64(p.sbuf.Buffered()) {
		if err := p.sbuf.Flush(); err != nil {
			return nil, false
		}
	}
	data, err := p.readAt(ref, nil)
	return data, err == nil
}

// readAt reads a spilled record into buf, grown when too small, and
// returns it. The scratch file's buffer must hold none of it.
func (p *Pack) readAt(ref spillRef, buf []byte) ([]byte, error) {
	if cap(buf) < ref.n {
		buf = make([]byte, ref.n)
	}
	buf = buf[:ref.n]
	_, err := p.scratch.ReadAt(buf, ref.off)
	return buf, err
}

// dropScratch closes and removes the scratch file. The caller holds p.mu.
func (p *Pack) dropScratch() {
	if p.scratch == nil {
		return
	}
	p.scratch.Close()
	if !p.sgone {
		os.Remove(p.scratch.Name())
	}
	p.scratch, p.sbuf, p.spilled = nil, nil, nil
}

// Len is the number of records the next pack will hold.
func (p *Pack) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.used) + len(p.spilled)
}

// Flush writes the records used or added since Pack (and, with Keep,
// others up to its limit), when they differ from what was read. A pack
// that was neither read from nor written to is left as it is. A run that stopped early (a time limit) should not
// flush: it used only part of the records and would drop the rest.
// Failures (a full disk) cost the cache, not the run: they are reported
// through Notice.
func (p *Pack) Flush() {
	if err := p.flush(); err != nil {
		p.s.noticef("index: could not save %s records: %v", p.kind, err)
	}
}

func (p *Pack) flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.dropScratch()
	if p.flushed || !validKind(p.kind) {
		return nil
	}
	p.flushed = true
	if !p.touched {
		return nil // a run that did not consult the pack (its whole result came from elsewhere) keeps it
	}
	if p.keep > 0 {
		if !p.dirty {
			return nil
		}
		for k, v := range p.old {
			if len(p.used) >= p.keep {
				break
			}
			if _, ok := p.used[k]; !ok {
				p.used[k] = v
			}
		}
	} else if !p.dirty && len(p.used) == len(p.old) {
		return nil
	}
	if p.sbuf != nil {
		if err := p.sbuf.Flush(); err != nil {
			return err // the pack on disk stays as it was
		}
	}
	count := len(p.used) + len(p.spilled)
	keys := make([]Key, 0, count)
	size := uvarintLen(uint64(count))
	for k, v := range p.used {
		keys = append(keys, k)
		size += uvarintLen(uint64(len(k))) + len(k) + uvarintLen(uint64(len(v))) + len(v)
	}
	for k, ref := range p.spilled {
		keys = append(keys, k)
		size += uvarintLen(uint64(len(k))) + len(k) + uvarintLen(uint64(ref.n)) + ref.n
	}
	var buf []byte // a spilled record, read back
	sort.Slice(keys, func(i, j int) bool { return string(keys[i][:]) < string(keys[j][:]) })
	if err := os.MkdirAll(filepath.Dir(p.path), 0o755); err != nil {
		return err
	}
	// Streamed to the file rather than laid out in memory: a pack of the
	// standard library's results is a few hundred megabytes, and building
	// it and then its frame held two copies of it beside the records.
	return p.s.writeFramedAtomic(p.path, "pack-"+p.kind, size, func(fw *framedWriter) error {
		fw.w.Uint(uint64(len(keys)))
		for _, k := range keys {
			v, ok := p.used[k]
			if !ok {
				var err error
				if buf, err = p.readAt(p.spilled[k], buf); err != nil {
					return fmt.Errorf("reading back a record put aside: %w", err)
				}
				v = buf
			}
			fw.w.Blob(k[:])
			if len(v) >= 1<<12 { // large records go straight to the file
				fw.w.Uint(uint64(len(v)))
				if err := fw.raw(v); err != nil {
					return err
				}
				continue
			}
			fw.w.Blob(v)
			if fw.w.Len() >= 1<<16 {
				if err := fw.flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
