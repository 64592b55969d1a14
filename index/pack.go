package index

import (
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
		data, ok = p.old[key]
		if ok {
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

// Put adds a record for the next pack.
func (p *Pack) Put(key Key, data []byte) {
	p.mu.Lock()
	p.touched = true
	if old, ok := p.used[key]; !ok || string(old) != string(data) {
		p.used[key] = data
		p.dirty = true
	}
	p.mu.Unlock()
	p.s.mu.Lock()
	ks := p.s.kind(p.kind)
	ks.Writes++
	ks.BytesWritten += int64(len(data))
	p.s.mu.Unlock()
}

// Len is the number of records the next pack will hold.
func (p *Pack) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.used)
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
	keys := make([]Key, 0, len(p.used))
	size := uvarintLen(uint64(len(p.used)))
	for k, v := range p.used {
		keys = append(keys, k)
		size += uvarintLen(uint64(len(k))) + len(k) + uvarintLen(uint64(len(v))) + len(v)
	}
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
			v := p.used[k]
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
