package urlfetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// counted is an httptest server on loopback that counts the requests that
// reach it.
type counted struct {
	*httptest.Server
	hits atomic.Int64
}

func newCounted(t *testing.T, h http.HandlerFunc) *counted {
	t.Helper()
	c := &counted{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *counted) port() string {
	_, p, _ := net.SplitHostPort(c.Listener.Addr().String())
	return p
}

// fakeDNS answers from a table; a host with several answers gives them in
// turn, one per lookup (the last one repeats), to play DNS rebinding.
type fakeDNS struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	lookups map[string]int
}

func newFakeDNS(table map[string][]string) *fakeDNS {
	d := &fakeDNS{answers: map[string][][]netip.Addr{}, lookups: map[string]int{}}
	for host, answers := range table {
		for _, a := range answers {
			var addrs []netip.Addr
			for _, s := range strings.Split(a, ",") {
				addrs = append(addrs, netip.MustParseAddr(s))
			}
			d.answers[host] = append(d.answers[host], addrs)
		}
	}
	return d
}

func (d *fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	answers, ok := d.answers[host]
	if !ok {
		return nil, fmt.Errorf("no such host %s", host)
	}
	i := min(d.lookups[host], len(answers)-1)
	d.lookups[host]++
	return answers[i], nil
}

// fakeNet routes connections for "public" addresses to loopback servers,
// so that tests can play the public internet without sending a packet off
// this machine, and counts every dial that passed the checks. Loopback
// addresses reach the real loopback; anything else fails without a packet.
type fakeNet struct {
	routes map[string]string // "1.2.3.4:80" → "127.0.0.1:port"
	dials  atomic.Int64
}

func (n *fakeNet) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	n.dials.Add(1)
	to, ok := n.routes[addr]
	if ap, err := netip.ParseAddrPort(addr); !ok && err == nil && ap.Addr().Unmap().IsLoopback() {
		// Loopback is really reachable: had a check let it through, the
		// victim server would count the hit.
		to, ok = fmt.Sprintf("127.0.0.1:%d", ap.Port()), true
	}
	if !ok {
		return nil, fmt.Errorf("fake network: no route to %s", addr) // never leaves this machine
	}
	var d net.Dialer
	return d.DialContext(ctx, network, to)
}

func newTestFetcher(t *testing.T, opt Options, dns *fakeDNS, fn *fakeNet) *Fetcher {
	t.Helper()
	if opt.CacheDir == "" && !opt.NoCache {
		opt.CacheDir = t.TempDir()
	}
	if dns != nil {
		opt.Resolver = dns
	}
	f := New(opt)
	if fn != nil {
		f.dial = fn.dial
	}
	return f
}

// TestRefusedWithoutReachingServer is the safety proof: loopback, private
// and link-local targets, names that resolve to them, redirects to them
// and a DNS answer that flips between check and use are all refused, and
// no request reaches the loopback server that plays the victim.
func TestRefusedWithoutReachingServer(t *testing.T) {
	victim := newCounted(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secret") })
	vport := victim.port()
	redirectTo := func(target string) *counted {
		return newCounted(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Connection", "close")
			http.Redirect(w, r, target, http.StatusFound)
		})
	}
	toVictim := redirectTo("http://127.0.0.1:" + vport + "/secret")
	toMetadata := redirectTo("http://169.254.169.254/latest/meta-data/")
	toInternalName := redirectTo("http://internal.test:" + vport + "/")
	toFile := redirectTo("file:///etc/passwd")
	toMapped := redirectTo("http://[::ffff:127.0.0.1]:" + vport + "/")
	selfAgain := redirectTo("http://flip.test:" + vport + "/again")

	dns := newFakeDNS(map[string][]string{
		"loop.test":       {"127.0.0.1"},
		"private.test":    {"10.1.2.3"},
		"mixed.test":      {"1.2.3.4,127.0.0.1"},
		"v6local.test":    {"fd00::1"},
		"internal.test":   {"127.0.0.1"},
		"hop-victim.test": {"1.2.3.4"},
		"hop-meta.test":   {"1.2.3.5"},
		"hop-name.test":   {"1.2.3.6"},
		"hop-file.test":   {"1.2.3.7"},
		"hop-mapped.test": {"1.2.3.8"},
		// first answer public, then loopback: DNS rebinding
		"flip.test": {"1.2.3.9", "127.0.0.1"},
	})
	fn := &fakeNet{routes: map[string]string{
		"1.2.3.4:80":       toVictim.Listener.Addr().String(),
		"1.2.3.5:80":       toMetadata.Listener.Addr().String(),
		"1.2.3.6:80":       toInternalName.Listener.Addr().String(),
		"1.2.3.7:80":       toFile.Listener.Addr().String(),
		"1.2.3.8:80":       toMapped.Listener.Addr().String(),
		"1.2.3.9:" + vport: selfAgain.Listener.Addr().String(),
	}}
	tests := []struct {
		url       string
		want      error
		wantDials int64 // dials that passed the address checks
	}{
		{"http://127.0.0.1:" + vport + "/", ErrBlocked, 0},
		{"http://127.1.2.3:" + vport + "/", ErrBlocked, 0},
		{"http://[::1]:" + vport + "/", ErrBlocked, 0},
		{"http://[::ffff:127.0.0.1]:" + vport + "/", ErrBlocked, 0},
		{"http://10.1.2.3/", ErrBlocked, 0},
		{"http://192.168.1.1/", ErrBlocked, 0},
		{"http://172.16.0.1/", ErrBlocked, 0},
		{"http://169.254.169.254/latest/meta-data/", ErrBlocked, 0},
		{"http://100.64.0.1/", ErrBlocked, 0},
		{"http://0.0.0.0:" + vport + "/", ErrBlocked, 0},
		{"http://[fe80::1]/", ErrBlocked, 0},
		{"http://[fd12::1]/", ErrBlocked, 0},
		{"http://224.0.0.1/", ErrBlocked, 0},
		{"http://loop.test:" + vport + "/", ErrBlocked, 0},
		{"http://private.test/", ErrBlocked, 0},
		{"http://mixed.test:" + vport + "/", ErrBlocked, 0},
		{"http://v6local.test/", ErrBlocked, 0},
		{"http://hop-victim.test/", ErrBlocked, 1},
		{"http://hop-meta.test/", ErrBlocked, 1},
		{"http://hop-name.test/", ErrBlocked, 1},
		{"http://hop-file.test/", ErrScheme, 1},
		{"http://hop-mapped.test/", ErrBlocked, 1},
		{"http://flip.test:" + vport + "/", ErrBlocked, 1},
		{"file:///etc/passwd", ErrScheme, 0},
		{"gopher://127.0.0.1/", ErrScheme, 0},
		{"http://user:pass@example.test/", ErrBadURL, 0},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			fn.dials.Store(0)
			f := newTestFetcher(t, Options{NoCache: true}, dns, fn)
			_, err := f.Fetch(t.Context(), tt.url)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Fetch(%s) error = %v, want %v", tt.url, err, tt.want)
			}
			if got := fn.dials.Load(); got != tt.wantDials {
				t.Errorf("%d dials passed the checks, want %d", got, tt.wantDials)
			}
		})
	}
	if n := victim.hits.Load(); n != 0 {
		t.Errorf("the victim server was reached %d times, want 0", n)
	}
}

func TestControlRechecks(t *testing.T) {
	f := New(Options{NoCache: true})
	for addr, blocked := range map[string]bool{
		"127.0.0.1:80": true, "10.0.0.1:443": true, "[::1]:80": true, "[fe80::1]:80": true,
		"169.254.169.254:80": true, "1.2.3.4:80": false, "[2606:4700::1]:443": false, "junk": true,
	} {
		err := f.control("tcp", addr, nil)
		if got := errors.Is(err, ErrBlocked); got != blocked {
			t.Errorf("control(%s) = %v, want blocked=%v", addr, err, blocked)
		}
	}
}

func TestCheckAddr(t *testing.T) {
	for s, ok := range map[string]bool{
		"8.8.8.8": true, "1.1.1.1": true, "93.184.216.34": true, "2606:4700:4700::1111": true,
		"127.0.0.1": false, "10.0.0.1": false, "172.31.255.255": false, "192.168.0.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "100.127.255.255": false, "0.0.0.0": false,
		"255.255.255.255": false, "224.0.0.251": false, "192.0.2.1": false, "198.18.0.1": false,
		"::": false, "::1": false, "fe80::1": false, "fc00::1": false, "fd00::1": false,
		"ff02::1": false, "::ffff:10.0.0.1": false, "::ffff:8.8.8.8": true, "64:ff9b::a00:1": false,
		"2001:db8::1": false, "2002:a00:1::": false, "2001::1": false,
	} {
		err := checkAddr(netip.MustParseAddr(s), false)
		if (err == nil) != ok {
			t.Errorf("checkAddr(%s) = %v, want allowed=%v", s, err, ok)
		}
	}
	if err := checkAddr(netip.MustParseAddr("127.0.0.1"), true); err != nil {
		t.Errorf("AllowLoopback: 127.0.0.1 refused: %v", err)
	}
	if err := checkAddr(netip.MustParseAddr("10.0.0.1"), true); err == nil {
		t.Error("AllowLoopback let a private address through")
	}
}

func TestFetchPages(t *testing.T) {
	srv := newCounted(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<html><head><title> Server
				docs </title><style>body{}</style><script>alert(1)</script></head>
				<body><h1>Shutdown</h1><p>Shutdown <b>gracefully</b> stops the <a href="/srv">server</a>.</p>
				<pre><code>srv.Shutdown(ctx)</code></pre></body></html>`)
		case "/json":
			w.Header().Set("Content-Type", "application/problem+json")
			fmt.Fprint(w, `{"error":"token expired"}`)
		case "/plain":
			fmt.Fprint(w, "no content type, plain text")
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n"))
		case "/binary-as-text":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("ELF\x00\x00\x01\x02"))
		case "/big":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte(strings.Repeat("x", 2048)))
		case "/big-chunked":
			w.Header().Set("Content-Type", "text/plain")
			for range 4 {
				w.Write([]byte(strings.Repeat("y", 600)))
				w.(http.Flusher).Flush()
			}
		case "/missing":
			http.NotFound(w, r)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	})
	base := srv.URL
	tests := []struct {
		path    string
		want    error
		check   func(*Page) error
		options Options
	}{
		{path: "/doc", check: func(p *Page) error {
			switch {
			case p.Title != "Server docs":
				return fmt.Errorf("title %q", p.Title)
			case !strings.Contains(p.Text, "# Shutdown"), !strings.Contains(p.Text, "**gracefully**"),
				!strings.Contains(p.Text, "srv.Shutdown(ctx)"), !strings.Contains(p.Text, "("+base+"/srv)"):
				return fmt.Errorf("text %q", p.Text)
			case strings.Contains(p.Text, "alert"), strings.Contains(p.Text, "body{}"):
				return fmt.Errorf("script or style kept: %q", p.Text)
			case p.ContentType != "text/html":
				return fmt.Errorf("content type %q", p.ContentType)
			}
			return nil
		}},
		{path: "/json", check: func(p *Page) error {
			if p.Text != `{"error":"token expired"}` {
				return fmt.Errorf("text %q", p.Text)
			}
			return nil
		}},
		{path: "/plain", check: func(p *Page) error {
			if p.Text != "no content type, plain text" {
				return fmt.Errorf("text %q", p.Text)
			}
			return nil
		}},
		{path: "/png", want: ErrContentType},
		{path: "/binary-as-text", want: ErrContentType},
		{path: "/big", want: ErrTooLarge, options: Options{MaxBytes: 1024}},
		{path: "/big-chunked", want: ErrTooLarge, options: Options{MaxBytes: 1024}},
		{path: "/missing", want: ErrHTTPStatus},
		{path: "/loop", want: ErrRedirects},
		{path: "/loop", want: ErrRedirects, options: Options{MaxRedirects: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			opt := tt.options
			opt.AllowLoopback, opt.NoCache = true, true
			p, err := newTestFetcher(t, opt, nil, nil).Fetch(t.Context(), base+tt.path+"#frag")
			if !errors.Is(err, tt.want) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
			if tt.check == nil {
				return
			}
			if p.URL != base+tt.path || p.FromCache {
				t.Errorf("URL %q, FromCache %v", p.URL, p.FromCache)
			}
			if err := tt.check(p); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := newCounted(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	defer close(release)
	f := newTestFetcher(t, Options{AllowLoopback: true, NoCache: true, Timeout: 150 * time.Millisecond}, nil, nil)
	start := time.Now()
	_, err := f.Fetch(t.Context(), srv.URL)
	if err == nil {
		t.Fatal("want a timeout error")
	}
	var ue *url.Error
	if !errors.As(err, &ue) || !ue.Timeout() {
		t.Errorf("error = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v despite a 150ms limit", d)
	}
}

func TestCacheAndLimits(t *testing.T) {
	srv := newCounted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "page %s", r.URL.Path)
	})
	dir := t.TempDir()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	f := newTestFetcher(t, Options{AllowLoopback: true, CacheDir: dir, CacheTTL: time.Hour}, nil, nil)
	f.now = func() time.Time { return now }

	p1, err := f.Fetch(t.Context(), srv.URL+"/a")
	if err != nil || p1.FromCache || p1.Text != "page /a" {
		t.Fatalf("first fetch: %+v, %v", p1, err)
	}
	p2, err := f.Fetch(t.Context(), srv.URL+"/a#other-fragment")
	if err != nil || !p2.FromCache || p2.Text != "page /a" || srv.hits.Load() != 1 {
		t.Fatalf("second fetch: %+v, %v, hits %d", p2, err, srv.hits.Load())
	}
	// A new Fetcher (a new run) reads the same cache.
	g := newTestFetcher(t, Options{AllowLoopback: true, CacheDir: dir, CacheTTL: time.Hour}, nil, nil)
	g.now = func() time.Time { return now.Add(30 * time.Minute) }
	if p, err := g.Fetch(t.Context(), srv.URL+"/a"); err != nil || !p.FromCache {
		t.Fatalf("fetch from another run: %+v, %v", p, err)
	}
	// Past the TTL the page is fetched again.
	g.now = func() time.Time { return now.Add(2 * time.Hour) }
	if p, err := g.Fetch(t.Context(), srv.URL+"/a"); err != nil || p.FromCache || srv.hits.Load() != 2 {
		t.Fatalf("fetch after the TTL: %+v, %v, hits %d", p, err, srv.hits.Load())
	}

	// The per-host budget counts requests, not pages.
	h := newTestFetcher(t, Options{AllowLoopback: true, NoCache: true, MaxPerHost: 2}, nil, nil)
	for i, want := range []error{nil, nil, ErrHostLimit} {
		if _, err := h.Fetch(t.Context(), fmt.Sprintf("%s/p%d", srv.URL, i)); !errors.Is(err, want) {
			t.Errorf("request %d: error %v, want %v", i, err, want)
		}
	}

	// Disabled refuses even a cached page, and sends nothing.
	before := srv.hits.Load()
	d := newTestFetcher(t, Options{Disabled: true, AllowLoopback: true, CacheDir: dir}, nil, nil)
	if _, err := d.Fetch(t.Context(), srv.URL+"/a"); !errors.Is(err, ErrDisabled) {
		t.Errorf("disabled: error %v, want ErrDisabled", err)
	}
	if srv.hits.Load() != before {
		t.Error("a disabled fetcher reached the server")
	}
}

// TestLocalhostWithSystemResolver uses the real resolver, which answers
// "localhost" from the hosts file: still refused, still no request.
func TestLocalhostWithSystemResolver(t *testing.T) {
	srv := newCounted(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secret") })
	f := New(Options{NoCache: true, Timeout: 2 * time.Second})
	_, err := f.Fetch(t.Context(), "http://localhost:"+srv.port()+"/")
	if err == nil {
		t.Fatal("localhost was fetched")
	}
	if srv.hits.Load() != 0 {
		t.Errorf("the server was reached %d times", srv.hits.Load())
	}
	t.Logf("refused: %v", err)
}
