package analyze

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// MaxFileSize is the default cap on a source file's size. Larger files are
// skipped by loaders and refused by ReadSource.
const MaxFileSize = 2 << 20

// Errors returned by ReadSource and ResolvePath; check them with errors.Is.
var (
	ErrOutsideRoot = errors.New("path leaves the repository root")
	ErrBinary      = errors.New("binary file")
	ErrTooLarge    = errors.New("file too large")
	ErrNotRegular  = errors.New("not a regular file")
)

// ResolvePath turns a user- or tool-supplied path into a cleaned,
// slash-separated path relative to root, refusing anything that would leave
// root: absolute paths outside it, ".." segments that climb out, and
// symbolic links (at any level) whose target lies outside. The file need not
// exist; if it does, its symlinks are resolved and checked.
func ResolvePath(root, p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty path")
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("resolving root %s: %w", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(absRoot)
	if err != nil {
		return "", fmt.Errorf("resolving root %s: %w", root, err)
	}
	var abs string
	if filepath.IsAbs(p) {
		abs = filepath.Clean(p)
	} else {
		abs = filepath.Join(absRoot, filepath.FromSlash(p))
	}
	rel, ok := within(absRoot, abs)
	if !ok {
		if rel2, ok2 := within(realRoot, abs); ok2 {
			rel, ok = rel2, true
			abs = filepath.Join(absRoot, rel)
		}
	}
	if !ok {
		return "", fmt.Errorf("%s: %w", p, ErrOutsideRoot)
	}
	// Resolve symlinks of the longest existing prefix and check the result.
	real, err := evalExisting(abs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if _, ok := within(realRoot, real); !ok {
		return "", fmt.Errorf("%s: a symbolic link points outside: %w", p, ErrOutsideRoot)
	}
	return filepath.ToSlash(rel), nil
}

// within reports whether abs is root or below it, and the relative path.
func within(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", false
	}
	if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// evalExisting resolves symlinks in the longest prefix of p that exists and
// appends the rest unchanged.
func evalExisting(p string) (string, error) {
	rest := ""
	cur := p
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			if rest == "" {
				return real, nil
			}
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// ReadSource reads the file at the repository-relative path rel under root,
// refusing paths that leave root, non-regular files, files over maxSize
// bytes (0 means MaxFileSize) and binary content. Invalid UTF-8 is kept as
// is; use [ToValidUTF8] before emitting it.
func ReadSource(root, rel string, maxSize int64) ([]byte, error) {
	clean, err := ResolvePath(root, rel)
	if err != nil {
		return nil, err
	}
	if maxSize <= 0 {
		maxSize = MaxFileSize
	}
	full := filepath.Join(root, filepath.FromSlash(clean))
	f, err := os.Open(full)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", rel, ErrNotRegular)
	}
	if st.Size() > maxSize {
		return nil, fmt.Errorf("%s: %d bytes, the limit is %d: %w", rel, st.Size(), maxSize, ErrTooLarge)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxSize {
		return nil, fmt.Errorf("%s: grew past %d bytes while reading: %w", rel, maxSize, ErrTooLarge)
	}
	if IsBinary(data) {
		return nil, fmt.Errorf("%s: %w", rel, ErrBinary)
	}
	return data, nil
}

// CheckSource applies to data, a file's content read earlier, the limits
// ReadSource applies to content: the size cap (maxSize; 0 means
// MaxFileSize) and binary content, with ReadSource's errors, so that
// content kept from an earlier read reads as ReadSource would read it.
func CheckSource(rel string, data []byte, maxSize int64) error {
	if maxSize <= 0 {
		maxSize = MaxFileSize
	}
	if int64(len(data)) > maxSize {
		return fmt.Errorf("%s: %d bytes, the limit is %d: %w", rel, len(data), maxSize, ErrTooLarge)
	}
	if IsBinary(data) {
		return fmt.Errorf("%s: %w", rel, ErrBinary)
	}
	return nil
}

// IsBinary reports whether data looks like binary content: a NUL byte in
// the first 8 KiB, or mostly invalid UTF-8 there.
func IsBinary(data []byte) bool {
	head := data
	if len(head) > 8192 {
		head = head[:8192]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(head); {
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 {
			if i+utf8.UTFMax > len(head) && len(head) == 8192 {
				break // a rune cut by the head window
			}
			bad++
		}
		i += size
	}
	return len(head) > 0 && bad*10 > len(head)
}

// ToValidUTF8 returns s with each run of invalid UTF-8 bytes replaced by
// U+FFFD, so that every output format stays well formed.
func ToValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// CleanRel reports whether p is already a clean, relative, slash-separated
// path that stays inside its root, without touching the file system.
func CleanRel(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	c := path.Clean(p)
	return c == p && c != ".." && !strings.HasPrefix(c, "../")
}
