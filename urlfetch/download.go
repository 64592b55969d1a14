package urlfetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Download copies the body at rawURL, as it is, to w: for files that are
// not pages (a pack of the on-disk index, say), of any content type. The
// safety rules are Fetch's (http and https to public addresses only,
// checked on every connection and redirect, no credentials, the
// Fetcher's time, redirect and per-host limits); the size limit is
// Options.MaxBytes, which a caller downloading files sets far above a
// page's. Nothing is cached. It returns the number of bytes written; on
// an error, what was written is incomplete.
func (f *Fetcher) Download(ctx context.Context, rawURL string, w io.Writer) (int64, error) {
	if f.opt.Disabled {
		return 0, fmt.Errorf("downloading %s: %w", rawURL, ErrDisabled)
	}
	u, err := checkURL(rawURL)
	if err != nil {
		return 0, fmt.Errorf("downloading %s: %w", rawURL, err)
	}
	ctx, cancel := context.WithTimeout(ctx, f.opt.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, fmt.Errorf("downloading %s: %w: %v", u, ErrBadURL, err)
	}
	req.Header.Set("User-Agent", f.opt.UserAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("downloading %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return 0, fmt.Errorf("downloading %s: %w: %s", u, ErrHTTPStatus, resp.Status)
	}
	if resp.ContentLength > f.opt.MaxBytes {
		return 0, fmt.Errorf("downloading %s: %w: %d bytes, the limit is %d", u, ErrTooLarge, resp.ContentLength, f.opt.MaxBytes)
	}
	n, err := io.Copy(w, io.LimitReader(resp.Body, f.opt.MaxBytes+1))
	if err != nil {
		return n, fmt.Errorf("downloading %s: %w", u, err)
	}
	if n > f.opt.MaxBytes {
		return n, fmt.Errorf("downloading %s: %w: more than %d bytes", u, ErrTooLarge, f.opt.MaxBytes)
	}
	return n, nil
}
