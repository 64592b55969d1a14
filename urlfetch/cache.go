package urlfetch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// cache is a directory of fetched pages, one JSON file per URL named by
// the URL's SHA-256. It is best effort: a cache that cannot be read or
// written is skipped, never an error. A nil *cache caches nothing.
type cache struct{ dir string }

func newCache(dir string) *cache {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "ctxexpand", "urlfetch")
	}
	return &cache{dir: dir}
}

// cacheVersion changes when the stored form or the HTML conversion does,
// so that old entries are not served.
const cacheVersion = 1

type cacheEntry struct {
	Version int   `json:"version"`
	Page    *Page `json:"page"`
}

func (c *cache) file(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:])+".json")
}

// get returns the cached page for key if it is younger than ttl.
func (c *cache) get(key string, now time.Time, ttl time.Duration) (*Page, bool) {
	if c == nil {
		return nil, false
	}
	data, err := os.ReadFile(c.file(key))
	if err != nil {
		return nil, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.Version != cacheVersion || e.Page == nil || e.Page.URL != key {
		return nil, false
	}
	if age := now.Sub(e.Page.FetchedAt); age < 0 || age >= ttl {
		return nil, false
	}
	e.Page.FromCache = true
	return e.Page, true
}

// put stores p under key, atomically: a reader sees the old file or the
// new one, never half of one.
func (c *cache) put(key string, p *Page) {
	if c == nil {
		return
	}
	data, err := json.Marshal(cacheEntry{Version: cacheVersion, Page: p})
	if err != nil {
		return
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), c.file(key)) != nil {
		os.Remove(tmp.Name())
	}
}
