package index

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshotsKeepMostRecent: a root keeps its most recently stored or
// read snapshots of a kind and removes the others' entries; other kinds
// and other roots keep their own.
func TestSnapshotsKeepMostRecent(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{Dir: dir, MaxSnapshots: 3})
	if err != nil {
		t.Fatal(err)
	}
	key := func(i int) Key { return NewHasher("test").Uint(uint64(i)).Sum() }
	has := func(kind string, i int) bool {
		_, err := os.Stat(s.path(kind, key(i)))
		return err == nil
	}
	for i := 0; i < 3; i++ {
		s.PutSnapshot("/a", "facts", key(i), []byte(fmt.Sprint(i)))
	}
	s.PutSnapshot("/b", "facts", key(100), []byte("b"))
	s.PutSnapshot("/a", "lexical", key(0), []byte("lex"))
	// Reading 0 makes it the most recent: storing 3 and 4 drops 1 and 2.
	if data, ok := s.GetSnapshot("/a", "facts", key(0)); !ok || string(data) != "0" {
		t.Fatalf("GetSnapshot(0) = %q, %v", data, ok)
	}
	s.PutSnapshot("/a", "facts", key(3), []byte("3"))
	s.PutSnapshot("/a", "facts", key(4), []byte("4"))
	for i, want := range map[int]bool{0: true, 1: false, 2: false, 3: true, 4: true} {
		if got := has("facts", i); got != want {
			t.Errorf("facts %d kept = %v, want %v", i, got, want)
		}
	}
	if !has("facts", 100) || !has("lexical", 0) {
		t.Error("another root's snapshot or another kind's was removed")
	}
	if _, ok := s.GetSnapshot("/a", "facts", key(1)); ok {
		t.Error("an evicted snapshot was still read")
	}
	var evicted int64
	for _, ns := range s.RunStats() {
		if ns.Kind == "facts" {
			evicted = ns.Evicted
		}
	}
	if evicted != 2 {
		t.Errorf("evicted = %d, want 2", evicted)
	}
}

// TestSnapshotsDamagedList: a damaged list loses what it cannot read,
// never an entry it does not name, and is written whole again.
func TestSnapshotsDamagedList(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{Dir: dir, MaxSnapshots: 2})
	if err != nil {
		t.Fatal(err)
	}
	k1, k2 := NewHasher("t").String("1").Sum(), NewHasher("t").String("2").Sum()
	s.PutSnapshot("/r", "facts", k1, []byte("1"))
	list := filepath.Join(s.rootDir("/r"), "facts.recent")
	if err := os.WriteFile(list, []byte("zz\n"+k1.String()[:10]+"\n"+k1.String()+"ab\n\x00\xff"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.PutSnapshot("/r", "facts", k2, []byte("2"))
	if _, ok := s.Get("facts", k1); !ok {
		t.Error("an entry the damaged list no longer named was removed")
	}
	if got := readRecent(list); len(got) != 1 || got[0] != k2 {
		t.Errorf("list after a damaged one = %v, want [%s]", got, k2)
	}
}
