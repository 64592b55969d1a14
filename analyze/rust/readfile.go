package rust

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// readListed reads a file that analyze.ListFiles returned: a regular file
// inside root, reached without following symbolic links. It applies the
// limits of analyze.ReadSource (size, binary content) without resolving
// every path component again, which cost ~5% of a load of tokio in lstat
// calls. The open refuses a file swapped for a symbolic link since the
// walk (openNoFollow); on systems without that flag it falls back to
// analyze.ReadSource.
func readListed(root, rel string, maxSize int64) ([]byte, error) {
	if maxSize <= 0 {
		maxSize = analyze.MaxFileSize
	}
	f, err := openNoFollow(filepath.Join(root, filepath.FromSlash(rel)))
	if err == errNoFollowUnsupported {
		return analyze.ReadSource(root, rel, maxSize)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", rel, analyze.ErrNotRegular)
	}
	if st.Size() > maxSize {
		return nil, fmt.Errorf("%s: %d bytes, the limit is %d: %w", rel, st.Size(), maxSize, analyze.ErrTooLarge)
	}
	data := make([]byte, 0, st.Size()+1)
	data, err = readAllInto(io.LimitReader(f, maxSize+1), data)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxSize {
		return nil, fmt.Errorf("%s: grew past %d bytes while reading: %w", rel, maxSize, analyze.ErrTooLarge)
	}
	if analyze.IsBinary(data) {
		return nil, fmt.Errorf("%s: %w", rel, analyze.ErrBinary)
	}
	return data, nil
}

// readAllInto reads r to the end into buf's spare capacity.
func readAllInto(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

var errNoFollowUnsupported = fmt.Errorf("O_NOFOLLOW unsupported")
