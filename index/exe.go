package index

import (
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
// build, a test binary) is the SHA-256 of the executable, computed once
// per executable file (by path, size, modification time and inode) and
// kept in the index. The first two, with the Go version, name the same
// program on every machine, which lets a pack built on one be used on
// another.
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

// unknownExecutable is an ID no other run shares: when the program cannot
// be identified, nothing it stores may be reused.
func unknownExecutable() string {
	return fmt.Sprintf("unidentified executable, pid %d at %d", os.Getpid(), time.Now().UnixNano())
}
