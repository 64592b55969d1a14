package index

import (
	"debug/elf"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

// ExecutableID identifies the code of the running program, for keys: an
// entry computed by one build of ctxexpand must not be trusted by
// another, whose loaders may extract differently. A build from a clean
// version-control checkout is its revision; a build of a released module
// version (go install …@v1.2.3) is that version; anything else (a local
// build, a test binary) is the build ID the Go linker wrote into the
// executable where it can be read (ELF), or else the SHA-256 of the
// executable, computed once per executable file (by path, size,
// modification time and inode) and kept in the index. The first two,
// with the Go version, name the same program on every machine, which
// lets a pack built on one be used on another.
func (s *Store) ExecutableID() string {
	s.exeOnce.Do(func() { s.exeID = s.executableID() })
	return s.exeID
}

func (s *Store) executableID() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				modified = kv.Value
			}
		}
		if rev != "" && modified == "false" {
			return "vcs:" + rev + " " + bi.GoVersion
		}
		if v := bi.Main.Version; v != "" && v != "(devel)" && !strings.HasSuffix(v, "+dirty") && rev == "" {
			return "mod:" + bi.Main.Path + "@" + v + " " + bi.GoVersion
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return unknownExecutable()
	}
	if id, ok := goBuildID(exe); ok {
		return "gobuildid:" + id
	}
	info, err := os.Stat(exe)
	if err != nil {
		return unknownExecutable()
	}
	ino, ctime := statExtra(info)
	k := NewHasher("exe").String(exe).Uint(uint64(info.Size())).Uint(uint64(info.ModTime().UnixNano())).
		Uint(ino).Uint(uint64(ctime)).Sum()
	if data, ok := s.Get("exe", k); ok {
		return string(data)
	}
	sum, err := hashFile(exe)
	if err != nil {
		return unknownExecutable()
	}
	id := "sha256:" + sum.String()
	s.Put("exe", k, []byte(id))
	return id
}

// goBuildID returns the build ID the Go linker wrote into the ELF
// executable at path ("actionID/contentID", as go tool buildid prints
// it), false when it has none or is not ELF. Its content ID is a hash of
// the linked program, so it tells builds apart as a hash of the file
// does, for a read of a few hundred bytes instead of a pass over tens of
// megabytes (about 50 ms of a cold run's CPU, on its critical path).
func goBuildID(path string) (string, bool) {
	f, err := elf.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil || sec.Size > 4096 {
		return "", false
	}
	data, err := sec.Data()
	if err != nil || len(data) < 16 {
		return "", false
	}
	// One note: name size, description size, type 4 (the Go build ID),
	// the name "Go" padded to four bytes, then the ID.
	bo := f.ByteOrder
	namesz, descsz, typ := bo.Uint32(data[0:]), bo.Uint32(data[4:]), bo.Uint32(data[8:])
	if namesz != 4 || typ != 4 || string(data[12:16]) != "Go\x00\x00" || uint64(descsz) > uint64(len(data)-16) {
		return "", false
	}
	id := string(data[16 : 16+descsz])
	if !strings.Contains(id, "/") || strings.ContainsFunc(id, func(r rune) bool { return r <= ' ' || r > '~' }) {
		return "", false
	}
	return id, true
}

// unknownExecutable is an ID no other run shares: when the program cannot
// be identified, nothing it stores may be reused.
func unknownExecutable() string {
	return fmt.Sprintf("unidentified executable, pid %d at %d", os.Getpid(), time.Now().UnixNano())
}
