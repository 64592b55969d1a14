package index

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/index/wire"
)

func TestPack(t *testing.T) {
	s, notices := openTest(t, t.TempDir())
	k := func(i int) Key { return NewHasher("p").Uint(uint64(i)).Sum() }
	p := s.Pack("/repo", "rust-file")
	for i := 0; i < 3; i++ {
		p.Put(k(i), []byte(fmt.Sprint("record ", i)))
	}
	p.Flush()

	// The next run reads them; what it does not use is dropped.
	p = s.Pack("/repo", "rust-file")
	if got, ok := p.Get(k(1)); !ok || string(got) != "record 1" {
		t.Fatalf("Get(1) = %q, %v", got, ok)
	}
	if _, ok := p.Get(k(7)); ok {
		t.Fatal("hit for a record never stored")
	}
	p.Put(k(7), []byte("record 7"))
	p.Flush()
	p = s.Pack("/repo", "rust-file")
	if _, ok := p.Get(k(0)); ok {
		t.Error("an unused record survived")
	}
	for _, i := range []int{1, 7} {
		if _, ok := p.Get(k(i)); !ok {
			t.Errorf("record %d lost", i)
		}
	}
	// A run that never consults the pack leaves it alone.
	s.Pack("/repo", "rust-file").Flush()
	if _, ok := s.Pack("/repo", "rust-file").Get(k(7)); !ok {
		t.Error("an untouched pack was emptied by Flush")
	}
	// Another root has its own records.
	if _, ok := s.Pack("/other", "rust-file").Get(k(1)); ok {
		t.Error("roots share packs")
	}
	if len(*notices) != 0 {
		t.Errorf("notices: %q", *notices)
	}
}

// TestPackRetain: a record retained survives the next pack as one read
// does, without counting as read; retaining a key never stored adds
// nothing.
func TestPackRetain(t *testing.T) {
	s, _ := openTest(t, t.TempDir())
	k := func(i int) Key { return NewHasher("p").Uint(uint64(i)).Sum() }
	p := s.Pack("/repo", "go-pkg")
	for i := 0; i < 3; i++ {
		p.Put(k(i), []byte(fmt.Sprint("record ", i)))
	}
	p.Flush()
	p = s.Pack("/repo", "go-pkg")
	p.Get(k(0))
	p.Retain(k(1))
	p.Retain(k(9))
	p.Put(k(3), []byte("record 3")) // a change, so the pack is written again
	p.Flush()
	p = s.Pack("/repo", "go-pkg")
	for i, want := range map[int]bool{0: true, 1: true, 2: false, 3: true, 9: false} {
		if _, ok := p.Get(k(i)); ok != want {
			t.Errorf("record %d kept=%v, want %v", i, ok, want)
		}
	}
}

func TestPackKeep(t *testing.T) {
	s, _ := openTest(t, t.TempDir())
	k := func(i int) Key { return NewHasher("p").Uint(uint64(i)).Sum() }
	p := s.Pack("/repo", "tokens").Keep(3)
	p.Put(k(0), []byte("a"))
	p.Put(k(1), []byte("b"))
	p.Flush()
	p = s.Pack("/repo", "tokens").Keep(3)
	p.Put(k(2), []byte("c")) // k(0) and k(1) unused, kept
	p.Flush()
	p = s.Pack("/repo", "tokens").Keep(3)
	for i := 0; i < 3; i++ {
		if _, ok := p.Get(k(i)); !ok {
			t.Errorf("record %d dropped", i)
		}
	}
	// Records in use are always kept; unused ones fill up to the limit.
	p.Flush()
	p = s.Pack("/repo", "tokens").Keep(3)
	p.Get(k(2))
	p.Put(k(3), []byte("d"))
	p.Flush()
	p = s.Pack("/repo", "tokens")
	found := 0
	for i := 0; i < 4; i++ {
		if _, ok := p.Get(k(i)); ok {
			found++
		}
	}
	if _, ok := p.Get(k(3)); !ok || found != 3 {
		t.Errorf("%d records kept (the new one: %v), want the limit, 3, with the new one", found, ok)
	}
}

func TestPackCorrupt(t *testing.T) {
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			s, notices := openTest(t, t.TempDir())
			k := NewHasher("p").Sum()
			p := s.Pack("/repo", "lex")
			p.Put(k, []byte("record"))
			p.Flush()
			data, err := os.ReadFile(p.path)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p.path, c.edit(data), 0o644)
			p = s.Pack("/repo", "lex")
			if _, ok := p.Get(k); ok {
				t.Fatal("a record of a corrupt pack was trusted")
			}
			if len(*notices) != 1 || !strings.Contains((*notices)[0], "corrupt") {
				t.Errorf("notices = %q", *notices)
			}
			p.Put(k, []byte("rebuilt"))
			p.Flush()
			if got, ok := s.Pack("/repo", "lex").Get(k); !ok || string(got) != "rebuilt" {
				t.Errorf("after rebuilding: %q, %v", got, ok)
			}
		})
	}
}

// BenchmarkPack compares 2,000 records of 2 KiB kept as one entry file
// each with the same records in one pack: the measurement behind packs.
// (bbolt, measured the same way outside this module: 154 ms to write all
// in one transaction, 4 ms to read them, but one writer at a time per
// database file.)
func BenchmarkPack(b *testing.B) {
	const n = 2000
	payload := make([]byte, 2048)
	keys := make([]Key, n)
	for i := range keys {
		keys[i] = NewHasher("b").Uint(uint64(i)).Sum()
	}
	b.Run("entries/write", func(b *testing.B) {
		for b.Loop() {
			s, _ := Open(Options{Dir: b.TempDir()})
			for _, k := range keys {
				s.Put("b", k, payload)
			}
		}
	})
	dir := b.TempDir()
	s, _ := Open(Options{Dir: dir})
	for _, k := range keys {
		s.Put("b", k, payload)
	}
	b.Run("entries/read", func(b *testing.B) {
		for b.Loop() {
			for _, k := range keys {
				if _, ok := s.Get("b", k); !ok {
					b.Fatal("miss")
				}
			}
		}
	})
	b.Run("pack/write", func(b *testing.B) {
		for b.Loop() {
			s, _ := Open(Options{Dir: b.TempDir()})
			p := s.Pack("/r", "b")
			for _, k := range keys {
				p.Put(k, payload)
			}
			p.Flush()
		}
	})
	p := s.Pack("/r", "b")
	for _, k := range keys {
		p.Put(k, payload)
	}
	p.Flush()
	b.Run("pack/read", func(b *testing.B) {
		for b.Loop() {
			p := s.Pack("/r", "b")
			for _, k := range keys {
				if _, ok := p.Get(k); !ok {
					b.Fatal("miss")
				}
			}
		}
	})
}

// TestPackStreamedFrame: a flushed pack is byte for byte what framing its
// payload in memory gives, for records small and large (several times
// the streaming buffer) and for none.
func TestPackStreamedFrame(t *testing.T) {
	for _, sizes := range [][]int{nil, {0, 1, 300}, {200 << 10, 5, 1 << 20, 70 << 10}} {
		st, err := Open(Options{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		p := st.Pack("/repo", "golang")
		recs := map[Key][]byte{}
		for i, n := range sizes {
			var k Key
			k[0], k[1] = byte(i), 0xa5
			data := make([]byte, n)
			for j := range data {
				data[j] = byte(i*31 + j)
			}
			recs[k] = data
			p.Put(k, data)
		}
		if len(sizes) == 0 {
			p.Put(Key{1}, nil) // touched and dirty, then emptied below
			delete(p.used, Key{1})
		}
		p.Flush()
		got, err := os.ReadFile(p.path)
		if err != nil {
			t.Fatal(err)
		}
		keys := make([]Key, 0, len(recs))
		for k := range recs {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return string(keys[i][:]) < string(keys[j][:]) })
		w := wire.NewWriter(0)
		w.Uint(uint64(len(keys)))
		for _, k := range keys {
			w.Blob(k[:])
			w.Blob(recs[k])
		}
		if want := frame("pack-golang", w.Bytes()); !bytes.Equal(got, want) {
			t.Errorf("sizes %v: streamed pack of %d bytes differs from the framed payload of %d", sizes, len(got), len(want))
		}
		// And it reads back.
		again := st.Pack("/repo", "golang")
		for k, v := range recs {
			if d, ok := again.Get(k); !ok || !bytes.Equal(d, v) {
				t.Errorf("sizes %v: record %x not read back", sizes, k[:2])
			}
		}
	}
}

// TestPutStreamedFrame: an entry stored by Put is byte for byte its
// framed payload, small or larger than the streaming buffer.
func TestPutStreamedFrame(t *testing.T) {
	st, err := Open(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []int{0, 10, 300 << 10} {
		payload := bytes.Repeat([]byte{byte(i + 1)}, n)
		k := NewHasher("put").Uint(uint64(i)).Sum()
		st.Put("blob", k, payload)
		got, err := os.ReadFile(st.path("blob", k))
		if err != nil {
			t.Fatal(err)
		}
		if want := frame("blob", payload); !bytes.Equal(got, want) {
			t.Errorf("payload of %d bytes: stored %d bytes, framed %d", n, len(got), len(want))
		}
		if back, ok := st.Get("blob", k); !ok || !bytes.Equal(back, payload) {
			t.Errorf("payload of %d bytes not read back", n)
		}
	}
	if w := st.RunStats()[0].BytesWritten; w != int64(frameSize("blob", 0)+frameSize("blob", 10)+frameSize("blob", 300<<10)) {
		t.Errorf("bytes written %d", w)
	}
}

// TestPackSpill: past its threshold a pack keeps the records it is given
// in a scratch file; they read back whole (also while still buffered), a
// record put again replaces its spilled copy, the flushed pack holds every
// record as if none had spilled, and no scratch file is left behind.
func TestPackSpill(t *testing.T) {
	s, notices := openTest(t, t.TempDir())
	k := func(i int) Key { return NewHasher("spill").Uint(uint64(i)).Sum() }
	rec := func(i, n int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, n) }
	p := s.Pack("/repo", "go-pkg")
	p.spillLimit = 100
	want := map[Key][]byte{}
	for i := 0; i < 40; i++ {
		data := rec(i, 10+i*7) // the first records stay in memory, the rest spill
		p.Put(k(i), data)
		want[k(i)] = data
	}
	if len(p.spilled) == 0 || len(p.used) == 0 {
		t.Fatalf("%d records held, %d spilled: want some of each", len(p.used), len(p.spilled))
	}
	if p.Len() != 40 {
		t.Errorf("Len = %d, want 40", p.Len())
	}
	// Read back, the last one from the write buffer.
	for _, i := range []int{39, 0, 20} {
		if got, ok := p.Get(k(i)); !ok || !bytes.Equal(got, want[k(i)]) {
			t.Errorf("Get(%d) = %d bytes, %v; want %d bytes", i, len(got), ok, len(want[k(i)]))
		}
	}
	// A spilled record put again, shorter.
	want[k(30)] = []byte("replaced")
	p.Put(k(30), want[k(30)])
	if got, _ := p.Get(k(30)); string(got) != "replaced" {
		t.Errorf("Get(30) after a second Put = %q", got)
	}
	p.Flush()
	if p.scratch != nil || p.spilled != nil {
		t.Error("the scratch file outlived the flush")
	}
	if ents, err := os.ReadDir(s.Dir() + "/tmp"); err != nil || len(ents) != 0 {
		t.Errorf("tmp holds %d entries after the flush (%v)", len(ents), err)
	}
	q := s.Pack("/repo", "go-pkg")
	if len(q.old) != len(want) {
		t.Errorf("the flushed pack holds %d records, want %d", len(q.old), len(want))
	}
	for key, data := range want {
		if got, ok := q.Get(key); !ok || !bytes.Equal(got, data) {
			t.Errorf("record %x: %d bytes, %v; want %d bytes", key[:4], len(got), ok, len(data))
		}
	}
	if len(*notices) != 0 {
		t.Errorf("notices: %q", *notices)
	}
}
