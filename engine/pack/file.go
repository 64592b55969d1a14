package pack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/urlfetch"
)

// Limits of a pack fetched by URL.
const (
	packDownloadTimeout = 10 * time.Minute
	packDownloadMax     = 1 << 30
)

// Fetch reads the pack at src: a file, or an http or https URL
// fetched under the rules of @url (public addresses only), for
// [Read].
func Fetch(ctx context.Context, src string) ([]byte, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		f := urlfetch.New(urlfetch.Options{Timeout: packDownloadTimeout, MaxBytes: packDownloadMax, NoCache: true,
			UserAgent: "ctxexpand-pack/1"})
		var b bytes.Buffer
		if _, err := f.Download(ctx, src, &b); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	data, err := os.ReadFile(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errors.New("no such file (a cache that missed?)")
	}
	return data, err
}

// SeedFromFile seeds root's index from the pack at src ([Fetch],
// [Read], [Seed]) and returns what it took and the pack's
// size in bytes. An error (no file, a damaged or refused pack, a failed
// download) says why the pack was not used: a load goes on without it.
func SeedFromFile(ctx context.Context, root string, opt engine.LoadOptions, src string) (SeedResult, int64, error) {
	data, err := Fetch(ctx, src)
	if err != nil {
		return SeedResult{}, 0, err
	}
	a, info, err := Read(bytes.NewReader(data), 0)
	if err != nil {
		return SeedResult{Info: info}, int64(len(data)), err
	}
	res, err := Seed(ctx, root, opt, a, info)
	return res, int64(len(data)), err
}

// WriteFile writes root's pack ([Write]) to the file at path,
// which holds either the whole pack or what it held before, and returns
// the pack's size in bytes.
func WriteFile(ctx context.Context, root string, opt engine.LoadOptions, path string) (Info, int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return Info{}, 0, fmt.Errorf("writing the pack: %w", err)
	}
	defer os.Remove(tmp.Name())
	info, err := Write(ctx, root, opt, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return info, 0, err
	}
	st, err := os.Stat(tmp.Name())
	if err != nil {
		return info, 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return info, 0, fmt.Errorf("writing the pack: %w", err)
	}
	return info, st.Size(), nil
}
