package urlfetch

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestDownload: a binary body comes through as it is, under Fetch's
// rules: private addresses are refused before any request, the size limit
// holds whatever the server claims, and a disabled fetcher sends nothing.
func TestDownload(t *testing.T) {
	body := bytes.Repeat([]byte{0, 1, 2, 0xff}, 1000)
	srv := newCounted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		if r.URL.Path == "/chunked" {
			w.(http.Flusher).Flush() // no Content-Length: the limit must hold while reading
		}
		w.Write(body)
	})
	f := newTestFetcher(t, Options{AllowLoopback: true, NoCache: true}, nil, nil)
	var got bytes.Buffer
	if n, err := f.Download(t.Context(), srv.URL+"/pack", &got); err != nil || n != int64(len(body)) || !bytes.Equal(got.Bytes(), body) {
		t.Fatalf("Download: %d bytes, %v; same body %v", n, err, bytes.Equal(got.Bytes(), body))
	}
	small := newTestFetcher(t, Options{AllowLoopback: true, NoCache: true, MaxBytes: 100}, nil, nil)
	for _, path := range []string{"/pack", "/chunked"} {
		if _, err := small.Download(t.Context(), srv.URL+path, &bytes.Buffer{}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s over the limit: %v, want ErrTooLarge", path, err)
		}
	}
	before := srv.hits.Load()
	strict := newTestFetcher(t, Options{NoCache: true}, nil, nil)
	if _, err := strict.Download(t.Context(), srv.URL+"/pack", &bytes.Buffer{}); !errors.Is(err, ErrBlocked) {
		t.Errorf("loopback without AllowLoopback: %v, want ErrBlocked", err)
	}
	off := newTestFetcher(t, Options{Disabled: true, AllowLoopback: true, NoCache: true}, nil, nil)
	if _, err := off.Download(t.Context(), srv.URL+"/pack", &bytes.Buffer{}); !errors.Is(err, ErrDisabled) {
		t.Errorf("disabled: %v, want ErrDisabled", err)
	}
	if srv.hits.Load() != before {
		t.Error("a refused download reached the server")
	}
	if _, err := f.Download(t.Context(), "ftp://example.com/pack", &bytes.Buffer{}); !errors.Is(err, ErrScheme) || !strings.Contains(err.Error(), "ftp") {
		t.Errorf("ftp: %v, want ErrScheme", err)
	}
}
