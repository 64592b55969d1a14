package index

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func openTest(t *testing.T, dir string) (*Store, *[]string) {
	t.Helper()
	var mu sync.Mutex
	notices := &[]string{}
	s, err := Open(Options{Dir: dir, Notice: func(m string) {
		mu.Lock()
		*notices = append(*notices, m)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	return s, notices
}

func TestPutGet(t *testing.T) {
	s, _ := openTest(t, t.TempDir())
	k := NewHasher("test").String("a").Sum()
	if _, ok := s.Get("blob", k); ok {
		t.Fatal("hit in an empty index")
	}
	s.Put("blob", k, []byte("payload"))
	got, ok := s.Get("blob", k)
	if !ok || string(got) != "payload" {
		t.Fatalf("Get = %q, %v; want payload, true", got, ok)
	}
	// Another kind under the same key is another entry.
	if _, ok := s.Get("other", k); ok {
		t.Error("kinds share entries")
	}
	st := s.RunStats()
	want := []NamedStats{
		{Kind: "blob", KindStats: KindStats{Hits: 1, Misses: 1, Writes: 1, BytesRead: st[0].BytesRead, BytesWritten: st[0].BytesWritten}},
		{Kind: "other", KindStats: KindStats{Misses: 1}},
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("RunStats (-want +got):\n%s", diff)
	}
}

func TestHasherSeparatesParts(t *testing.T) {
	a := NewHasher("k").String("ab").String("c").Sum()
	b := NewHasher("k").String("a").String("bc").Sum()
	c := NewHasher("j").String("ab").String("c").Sum()
	if a == b || a == c {
		t.Error("different parts give the same key")
	}
	if k, ok := ParseKey(a.String()); !ok || k != a {
		t.Error("ParseKey does not invert String")
	}
}

// corruptions are the ways an entry can be damaged on disk.
var corruptions = []struct {
	name string
	edit func([]byte) []byte
}{
	{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
	{"empty", func([]byte) []byte { return nil }},
	{"flipped bit", func(b []byte) []byte { b = append([]byte(nil), b...); b[len(b)/2] ^= 0x10; return b }},
	{"garbage", func([]byte) []byte { return []byte("not an entry at all, just text") }},
}

func TestCorruptEntryIsRebuilt(t *testing.T) {
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			s, notices := openTest(t, t.TempDir())
			k := NewHasher("test").String(c.name).Sum()
			s.Put("blob", k, []byte("the original payload"))
			p := s.path("blob", k)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, c.edit(data), 0o644); err != nil {
				t.Fatal(err)
			}
			if got, ok := s.Get("blob", k); ok {
				t.Fatalf("a corrupt entry was trusted: %q", got)
			}
			if len(*notices) != 1 || !strings.Contains((*notices)[0], "corrupt") {
				t.Errorf("notices = %q, want one about a corrupt entry", *notices)
			}
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("the corrupt entry was not removed: %v", err)
			}
			s.Put("blob", k, []byte("rebuilt"))
			if got, ok := s.Get("blob", k); !ok || string(got) != "rebuilt" {
				t.Errorf("after rebuilding: %q, %v", got, ok)
			}
			if st := s.RunStats(); st[0].Corrupt != 1 {
				t.Errorf("corrupt count = %d, want 1", st[0].Corrupt)
			}
		})
	}
}

func TestFormatMarkerMismatchResets(t *testing.T) {
	dir := t.TempDir()
	s, _ := openTest(t, dir)
	k := NewHasher("test").Sum()
	s.Put("blob", k, []byte("x"))
	if err := os.WriteFile(filepath.Join(s.Dir(), formatFile), []byte("something else\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s2, notices := openTest(t, dir)
	if _, ok := s2.Get("blob", k); ok {
		t.Error("an entry survived a format change")
	}
	if len(*notices) != 1 || !strings.Contains((*notices)[0], "rebuilding") {
		t.Errorf("notices = %q, want one saying the index is rebuilt", *notices)
	}
	data, _ := os.ReadFile(filepath.Join(s2.Dir(), formatFile))
	if !bytes.Equal(data, formatMarker()) {
		t.Errorf("marker not rewritten: %q", data)
	}
}

func TestKilledRunLeavesIndexUsable(t *testing.T) {
	dir := t.TempDir()
	s, _ := openTest(t, dir)
	k := NewHasher("test").Sum()
	s.Put("blob", k, []byte("x"))
	// A writer killed mid-write leaves a temporary file; a trim killed
	// mid-walk leaves its lock.
	old := time.Now().Add(-time.Hour)
	tmp := filepath.Join(s.Dir(), "tmp", "half-written.123")
	if err := os.WriteFile(tmp, []byte("cxi\x01half"), 0o644); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(s.Dir(), "trim.lock")
	if err := os.WriteFile(lock, []byte("99999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{tmp, lock} {
		os.Chtimes(p, old, old)
	}
	s2, notices := openTest(t, dir)
	if got, ok := s2.Get("blob", k); !ok || string(got) != "x" {
		t.Errorf("entry lost: %q, %v", got, ok)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("stale temporary file kept: %v", err)
	}
	if _, err := s2.Trim(); err != nil {
		t.Errorf("trim with a stale lock: %v", err)
	}
	if len(*notices) != 1 || !strings.Contains((*notices)[0], "stale lock") {
		t.Errorf("notices = %q, want one about the stale lock", *notices)
	}
	// A fresh lock is another process trimming right now.
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Trim(); err != ErrLocked {
		t.Errorf("trim with a live lock: %v, want ErrLocked", err)
	}
}

func TestTrimRemovesOldEntries(t *testing.T) {
	s, _ := openTest(t, t.TempDir())
	oldK, newK := NewHasher("t").String("old").Sum(), NewHasher("t").String("new").Sum()
	s.Put("blob", oldK, []byte("old"))
	s.Put("blob", newK, []byte("new"))
	past := time.Now().Add(-30 * 24 * time.Hour)
	os.Chtimes(s.path("blob", oldK), past, past)
	n, err := s.Trim()
	if err != nil || n != 1 {
		t.Fatalf("Trim = %d, %v; want 1 removed", n, err)
	}
	if _, ok := s.Get("blob", oldK); ok {
		t.Error("old entry kept")
	}
	if _, ok := s.Get("blob", newK); !ok {
		t.Error("recent entry removed")
	}
	if n, _ := s.TrimIfDue(); n != 0 {
		t.Error("trimmed twice in a day")
	}
}

func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(Options{Dir: dir})
			if err != nil {
				t.Error(err)
				return
			}
			for i := 0; i < 50; i++ {
				k := NewHasher("t").Uint(uint64(i)).Sum()
				want := fmt.Sprintf("payload %d", i)
				if got, ok := s.Get("blob", k); ok && string(got) != want {
					t.Errorf("read %q, want %q", got, want)
				}
				s.Put("blob", k, []byte(want))
			}
		}()
	}
	wg.Wait()
}

// TestTwoProcesses has two processes fill and read one index at once.
func TestTwoProcesses(t *testing.T) {
	if os.Getenv("CTXEXPAND_INDEX_CHILD") != "" {
		return
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for i := 0; i < 2; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildWriter$")
		cmd.Env = append(os.Environ(), "CTXEXPAND_INDEX_CHILD="+dir)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		t.Cleanup(func() {
			if t.Failed() {
				t.Log(out.String())
			}
		})
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child: %v", err)
		}
	}
	s, _ := openTest(t, dir)
	for i := 0; i < 200; i++ {
		k := NewHasher("t").Uint(uint64(i)).Sum()
		if got, ok := s.Get("blob", k); !ok || string(got) != fmt.Sprintf("payload %d", i) {
			t.Fatalf("entry %d: %q, %v", i, got, ok)
		}
	}
}

// TestChildWriter is run by TestTwoProcesses in a separate process.
func TestChildWriter(t *testing.T) {
	dir := os.Getenv("CTXEXPAND_INDEX_CHILD")
	if dir == "" {
		t.Skip("run by TestTwoProcesses")
	}
	s, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		k := NewHasher("t").Uint(uint64(i)).Sum()
		want := fmt.Sprintf("payload %d", i)
		if got, ok := s.Get("blob", k); ok && string(got) != want {
			t.Fatalf("read %q, want %q", got, want)
		}
		s.Put("blob", k, []byte(want))
	}
	if st := s.RunStats(); len(st) > 0 && st[0].Corrupt > 0 {
		t.Fatalf("saw %d corrupt entries", st[0].Corrupt)
	}
}

func TestHashFiles(t *testing.T) {
	root := t.TempDir()
	write := func(p, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a")
	write("b.go", "package b")
	s, _ := openTest(t, t.TempDir())
	ctx := context.Background()
	hashes := func() []string {
		t.Helper()
		hs, err := s.HashFiles(ctx, root, []string{"a.go", "b.go", "missing.go"})
		if err != nil {
			t.Fatal(err)
		}
		if hs[2].Err == nil {
			t.Error("a missing file has no error")
		}
		return []string{hs[0].Hash, hs[1].Hash}
	}
	first := hashes()
	want, _ := hashFile(filepath.Join(root, "a.go"))
	if first[0] != want.String() {
		t.Errorf("hash of a.go = %s, want %s", first[0], want)
	}
	// Same size, same modification time, new content: the change time
	// (on Linux) and the racy window (the table was just written) both
	// make the change visible.
	st, _ := os.Stat(filepath.Join(root, "a.go"))
	write("a.go", "package x")
	os.Chtimes(filepath.Join(root, "a.go"), st.ModTime(), st.ModTime())
	second := hashes()
	if second[0] == first[0] {
		t.Error("an edit within the racy window was missed")
	}
	if second[1] != first[1] {
		t.Error("an unchanged file changed hash")
	}
}

func TestHashFilesTrustsOldTable(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a.go")
	os.WriteFile(p, []byte("package a"), 0o644)
	past := time.Now().Add(-time.Hour)
	os.Chtimes(p, past, past)
	s, _ := openTest(t, t.TempDir())
	ctx := context.Background()
	if _, err := s.HashFiles(ctx, root, []string{"a.go"}); err != nil {
		t.Fatal(err)
	}
	// Rewrite the table's hash: a trusted entry is not read again, which
	// is what makes warm runs cheap. (The stale hash shows it was used.)
	table, written := s.loadTable(root)
	st := table["a.go"]
	st.hash = NewHasher("fake").Sum()
	table["a.go"] = st
	s.saveTable(root, table)
	_ = written
	hs, _ := s.HashFiles(ctx, root, []string{"a.go"})
	if hs[0].Hash != st.hash.String() {
		t.Errorf("an unchanged file was hashed again")
	}
	// Touching it changes its metadata, and it is hashed again.
	now := time.Now().Add(-time.Minute)
	os.Chtimes(p, now, now)
	hs, _ = s.HashFiles(ctx, root, []string{"a.go"})
	real, _ := hashFile(p)
	if hs[0].Hash != real.String() {
		t.Errorf("a touched file kept its old hash")
	}
}

func TestUsageAndRun(t *testing.T) {
	s, _ := openTest(t, t.TempDir())
	s.Put("facts", NewHasher("t").Sum(), []byte("abc"))
	s.Get("facts", NewHasher("t").Sum())
	s.SaveRun("/repo", Run{Time: time.Unix(0, 0).UTC(), Duration: time.Second, Snapshot: "hit"})
	u, err := s.Usage()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := u.Total(); n != 1 || u.Roots != 1 {
		t.Errorf("usage: %d entries, %d roots; want 1, 1", n, u.Roots)
	}
	run, ok := s.LastRun("/repo")
	if !ok || run.Snapshot != "hit" || len(run.Kinds) != 1 || run.Kinds[0].Hits != 1 {
		t.Fatalf("LastRun = %+v, %v", run, ok)
	}
	var b bytes.Buffer
	WriteReport(&b, u, &run)
	for _, want := range []string{"entries: 1", "facts", "snapshot hit", "100%"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
