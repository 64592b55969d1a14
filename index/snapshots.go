package index

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// Snapshots.
//
// Some entries describe a whole repository at one moment: the facts of
// every file, the lexical index built on them, the git log at one HEAD.
// They are large (on a repository of 200k lines, 2 to 3 MB each) and a
// new one is written after every edit, so trimming by age alone would let
// a day of editing leave gigabytes behind for a fortnight. A root keeps,
// per kind, the keys of its most recently used snapshots in a short list
// (roots/<RootID>/<kind>.recent); storing or reading a snapshot moves its
// key to the front, and the entries of keys that fall off the end are
// removed. The number kept allows going back and forth between a few
// branches without recomputing. Entries are shared between roots whose
// inputs hash the same: when one root drops an entry another still lists,
// the other reads a miss and stores it again, which costs time, never a
// wrong answer. Two processes updating a list at once may lose one's
// update (the last writer wins); what that leaves behind is trimmed by age.

// DefaultMaxSnapshots is how many snapshots of each kind a root keeps
// unless Options.MaxSnapshots says otherwise.
const DefaultMaxSnapshots = 8

// GetSnapshot is Get for an entry describing the whole of root; a hit
// makes it root's most recently used snapshot of its kind.
func (s *Store) GetSnapshot(root, kind string, key Key) ([]byte, bool) {
	data, ok := s.Get(kind, key)
	if ok {
		s.useSnapshot(root, kind, key)
	}
	return data, ok
}

// PutSnapshot is Put for an entry describing the whole of root: it
// becomes root's most recently used snapshot of its kind, and the entries
// of the snapshots beyond the number kept are removed.
func (s *Store) PutSnapshot(root, kind string, key Key, payload []byte) {
	s.Put(kind, key, payload)
	s.useSnapshot(root, kind, key)
}

// useSnapshot moves key to the front of root's list for kind, and removes
// the entries that no longer fit in it.
func (s *Store) useSnapshot(root, kind string, key Key) {
	if !validKind(kind) {
		return
	}
	s.snapMu.Lock()
	defer s.snapMu.Unlock()
	p := filepath.Join(s.rootDir(root), kind+".recent")
	keys := readRecent(p)
	if len(keys) > 0 && keys[0] == key {
		return // already the most recent: nothing to write
	}
	list := []Key{key}
	for _, k := range keys {
		if k != key {
			list = append(list, k)
		}
	}
	for len(list) > s.maxSnapshots {
		old := list[len(list)-1]
		list = list[:len(list)-1]
		if err := os.Remove(s.path(kind, old)); err == nil {
			s.mu.Lock()
			s.kind(kind).Evicted++
			s.mu.Unlock()
		}
	}
	var b bytes.Buffer
	for _, k := range list {
		b.WriteString(k.String())
		b.WriteByte('\n')
	}
	err := os.MkdirAll(filepath.Dir(p), 0o755)
	if err == nil {
		err = s.writeAtomic(p, b.Bytes())
	}
	if err != nil {
		s.noticef("index: could not record the recent %s snapshots: %v", kind, err)
	}
}

// readRecent reads a list of keys, most recent first; lines that are not
// keys (a damaged list) are skipped.
func readRecent(p string) []Key {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var keys []Key
	for _, line := range strings.Split(string(data), "\n") {
		if k, ok := ParseKey(line); ok {
			keys = append(keys, k)
		}
	}
	return keys
}
