package urlfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Errors returned by Fetch; check them with errors.Is.
var (
	ErrDisabled    = errors.New("network access is disabled")
	ErrBlocked     = errors.New("address not allowed: only public internet addresses can be fetched")
	ErrScheme      = errors.New("only http and https URLs can be fetched")
	ErrBadURL      = errors.New("malformed URL")
	ErrTooLarge    = errors.New("response too large")
	ErrContentType = errors.New("not a text content type")
	ErrHostLimit   = errors.New("request limit for this host reached")
	ErrRedirects   = errors.New("too many redirects")
	ErrHTTPStatus  = errors.New("unexpected HTTP status")
	errNoAddresses = errors.New("host name has no addresses")
)

// Defaults for the zero Options.
const (
	DefaultTimeout      = 15 * time.Second
	DefaultMaxBytes     = 1 << 20
	DefaultMaxRedirects = 5
	DefaultMaxPerHost   = 8
	DefaultCacheTTL     = 24 * time.Hour
	defaultUserAgent    = "ctxexpand-urlfetch/1 (+@url reference)"
)

// Resolver looks up the addresses of a host name; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options configures a Fetcher. The zero value is safe: public addresses
// only, 15 s, 1 MiB, 5 redirects, 8 requests per host, a 24 h disk cache.
type Options struct {
	// Disabled refuses every fetch with ErrDisabled (--no-network).
	Disabled bool
	// Timeout bounds one Fetch, redirects and body included; 0 means 15 s.
	Timeout time.Duration
	// MaxBytes caps the response body; 0 means 1 MiB.
	MaxBytes int64
	// MaxRedirects caps redirects followed; 0 means 5, negative means none.
	MaxRedirects int
	// MaxPerHost caps the HTTP requests (redirect hops included) sent to
	// one host over the Fetcher's life; 0 means 8.
	MaxPerHost int
	// CacheDir holds cached pages; "" means os.UserCacheDir()/ctxexpand/urlfetch.
	CacheDir string
	// NoCache turns the disk cache off.
	NoCache bool
	// CacheTTL is how long a cached page is served; 0 means 24 h.
	CacheTTL time.Duration
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver Resolver
	// UserAgent is sent with every request; "" means a ctxexpand default.
	UserAgent string
	// AllowLoopback lets loopback addresses through, so that tests can
	// fetch from an httptest server. It is for tests only: never set it
	// from configuration or user input. Private and other ranges stay
	// refused.
	AllowLoopback bool
}

// Page is a fetched page, as text.
type Page struct {
	URL         string    `json:"url"`       // as requested, without fragment
	FinalURL    string    `json:"final_url"` // after redirects
	ContentType string    `json:"content_type"`
	Title       string    `json:"title,omitempty"`
	Text        string    `json:"text"`  // readable text; HTML is turned into Markdown
	Bytes       int       `json:"bytes"` // body size as received
	FetchedAt   time.Time `json:"fetched_at"`
	FromCache   bool      `json:"-"`
}

// Fetcher fetches pages under the limits of its Options. It is safe for
// concurrent use; create one per run, since the per-host budget lives in it.
type Fetcher struct {
	opt    Options
	client *http.Client
	cache  *cache

	mu      sync.Mutex
	perHost map[string]int

	// dial connects to an address that has passed the checks; tests
	// replace it to route "public" addresses to a loopback server.
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
	now  func() time.Time
}

// New returns a Fetcher with the given options, defaults filled in.
func New(opt Options) *Fetcher {
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	if opt.MaxRedirects == 0 {
		opt.MaxRedirects = DefaultMaxRedirects
	}
	if opt.MaxPerHost <= 0 {
		opt.MaxPerHost = DefaultMaxPerHost
	}
	if opt.CacheTTL <= 0 {
		opt.CacheTTL = DefaultCacheTTL
	}
	if opt.Resolver == nil {
		opt.Resolver = net.DefaultResolver
	}
	if opt.UserAgent == "" {
		opt.UserAgent = defaultUserAgent
	}
	f := &Fetcher{opt: opt, perHost: map[string]int{}, now: time.Now}
	dialer := &net.Dialer{Timeout: opt.Timeout, Control: f.control}
	f.dial = dialer.DialContext
	transport := &http.Transport{
		Proxy:                  nil, // a proxy would resolve names where we cannot check them
		DialContext:            f.dialContext,
		TLSHandshakeTimeout:    opt.Timeout,
		ResponseHeaderTimeout:  opt.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
		ForceAttemptHTTP2:      true,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        30 * time.Second,
	}
	f.client = &http.Client{
		Transport:     &budgetTransport{f: f, next: transport},
		CheckRedirect: f.checkRedirect,
		Timeout:       opt.Timeout,
	}
	if !opt.NoCache {
		f.cache = newCache(opt.CacheDir)
	}
	return f
}

// Fetch returns the page at rawURL as text, from the cache when a fresh
// copy is there.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (*Page, error) {
	if f.opt.Disabled {
		return nil, fmt.Errorf("fetching %s: %w (drop --no-network to allow @url)", rawURL, ErrDisabled)
	}
	u, err := checkURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", rawURL, err)
	}
	key := u.String()
	if p, ok := f.cache.get(key, f.now(), f.opt.CacheTTL); ok {
		return p, nil
	}
	p, err := f.fetch(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", key, err)
	}
	f.cache.put(key, p)
	return p, nil
}

func (f *Fetcher) fetch(ctx context.Context, u *url.URL) (*Page, error) {
	ctx, cancel := context.WithTimeout(ctx, f.opt.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadURL, err)
	}
	req.Header.Set("User-Agent", f.opt.UserAgent)
	req.Header.Set("Accept", "text/html, text/plain, text/markdown, application/json, application/xml;q=0.9, */*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("%w: %s", ErrHTTPStatus, resp.Status)
	}
	if resp.ContentLength > f.opt.MaxBytes {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, resp.ContentLength, f.opt.MaxBytes)
	}
	media, err := acceptedType(resp.Header.Get("Content-Type"))
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.opt.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the response: %w", err)
	}
	if int64(len(body)) > f.opt.MaxBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, f.opt.MaxBytes)
	}
	final := resp.Request.URL
	p, err := toPage(ctx, media, body, final)
	if err != nil {
		return nil, err
	}
	p.URL = u.String()
	p.FinalURL = final.String()
	p.FetchedAt = f.now().UTC()
	return p, nil
}

// checkURL parses and vets a URL: http or https, a host, no credentials.
// The fragment is dropped: it never reaches the server.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadURL, err)
	}
	if err := checkParsedURL(u); err != nil {
		return nil, err
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

func checkParsedURL(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return fmt.Errorf("%q: %w", u.Scheme, ErrScheme)
	}
	if u.User != nil {
		return fmt.Errorf("%w: URLs with credentials are refused", ErrBadURL)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%w: no host", ErrBadURL)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%w: bad port %q", ErrBadURL, p)
		}
	}
	return nil
}

// checkRedirect vets every redirect before it is followed: the count, the
// scheme and credentials. The address check happens when the redirect's
// connection is dialled.
func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if f.opt.MaxRedirects < 0 || len(via) > f.opt.MaxRedirects {
		return fmt.Errorf("%w (limit %d)", ErrRedirects, max(f.opt.MaxRedirects, 0))
	}
	if err := checkParsedURL(req.URL); err != nil {
		return fmt.Errorf("redirect to %s: %w", req.URL.Redacted(), err)
	}
	return nil
}

// dialContext resolves the host, refuses the connection if any of its
// addresses is not public, and connects to a checked address itself, never
// to the name, so that a second DNS answer cannot differ from the checked
// one.
func (f *Fetcher) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("bad port %q", portStr)
	}
	addrs, err := f.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if err := checkAddr(a, f.opt.AllowLoopback); err != nil {
			return nil, fmt.Errorf("%s: %w", host, err)
		}
	}
	var firstErr error
	for _, a := range addrs {
		conn, err := f.dial(ctx, "tcp", netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

func (f *Fetcher) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	addrs, err := f.opt.Resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("resolving %s: %w", host, errNoAddresses)
	}
	return addrs, nil
}

// control checks the address once more as the socket connects.
func (f *Fetcher) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", address, ErrBlocked)
	}
	return checkAddr(ap.Addr(), f.opt.AllowLoopback)
}

// budgetTransport counts each request, redirect hops included, against the
// per-host budget before it leaves.
type budgetTransport struct {
	f    *Fetcher
	next http.RoundTripper
}

func (t *budgetTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := checkParsedURL(req.URL); err != nil {
		return nil, err
	}
	host := strings.ToLower(req.URL.Hostname())
	t.f.mu.Lock()
	n := t.f.perHost[host]
	if n >= t.f.opt.MaxPerHost {
		t.f.mu.Unlock()
		return nil, fmt.Errorf("%s: %w (%d per run)", host, ErrHostLimit, t.f.opt.MaxPerHost)
	}
	t.f.perHost[host] = n + 1
	t.f.mu.Unlock()
	return t.next.RoundTrip(req)
}
