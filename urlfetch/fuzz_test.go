package urlfetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzFetchNeverDialsBlocked: whatever the URL and whatever the DNS
// answers, the fetcher never connects to an address that is not public.
// The network is fake: a dial that passes is recorded and fails, so
// nothing leaves the machine.
func FuzzFetchNeverDialsBlocked(f *testing.F) {
	for _, s := range [][2]string{
		{"http://example.test/", "127.0.0.1"},
		{"http://127.0.0.1:8080/x", "93.184.216.34"},
		{"http://[::ffff:127.0.0.1]/", "::1"},
		{"https://0x7f.1/", "10.0.0.1"},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254"},
		{"http://user@host/", "8.8.8.8"},
		{"http://[fe80::1%25eth0]/", "fe80::1"},
		{"http://2130706433/", "1.1.1.1"},
		{"HTTP://EXAMPLE.test:65535", "100.64.0.1"},
		{"http://a.test/\r\nHost: b", "192.168.0.1"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, rawURL, answer string) {
		a, err := netip.ParseAddr(answer)
		var dns *fakeDNS
		if err == nil {
			dns = &fakeDNS{answers: map[string][][]netip.Addr{}, lookups: map[string]int{}}
			if u, err := url.Parse(strings.TrimSpace(rawURL)); err == nil {
				dns.answers[u.Hostname()] = [][]netip.Addr{{a}}
			}
		} else {
			dns = newFakeDNS(nil)
		}
		fetcher := New(Options{NoCache: true, Resolver: dns, Timeout: 2 * time.Second, MaxRedirects: -1})
		fetcher.dial = func(_ context.Context, _, addr string) (net.Conn, error) {
			ap, err := netip.ParseAddrPort(addr)
			if err != nil {
				t.Fatalf("dialled %q, not an address", addr)
			}
			if checkAddr(ap.Addr(), false) != nil {
				t.Fatalf("dialled the blocked address %s for %q", addr, rawURL)
			}
			return nil, errors.New("fake network: no route")
		}
		p, err := fetcher.Fetch(context.Background(), rawURL)
		if err == nil {
			t.Fatalf("fetched %q without a network: %+v", rawURL, p)
		}
	})
}

// FuzzToPage: any body under any content type becomes valid UTF-8 text or
// a clean error, without a panic and within a time limit.
func FuzzToPage(f *testing.F) {
	for _, s := range [][2]string{
		{"text/html; charset=utf-8", "<html><head><title>T</title></head><body><h1>x</h1><script>alert(1)</script><p>a<b>b</b></p></body></html>"},
		{"text/html", strings.Repeat("<div>", 600) + "deep" + strings.Repeat("</div>", 600)},
		{"text/html", "<table><tr><td>1<td>2</table><pre>\x00\xff</pre><a href=\"javascript:x\">l</a>"},
		{"application/xhtml+xml", "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body>x</body></html>"},
		{"text/plain", "plain \xc3\x28 text"},
		{"application/json", "{\"a\": [1, 2, {\"b\": null}]}"},
		{"image/png", "\x89PNG\r\n\x1a\n"},
		{"", "no header"},
		{"text/html; charset=\"", "<p>bad header"},
	} {
		f.Add(s[0], []byte(s[1]))
	}
	base, _ := url.Parse("https://example.test/page")
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		media, err := acceptedType(contentType)
		if err != nil {
			if !errors.Is(err, ErrContentType) {
				t.Fatalf("acceptedType(%q): %v, not ErrContentType", contentType, err)
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p, err := toPage(ctx, media, body, base)
		if err != nil {
			if !errors.Is(err, ErrContentType) && ctx.Err() == nil {
				t.Fatalf("toPage: %v", err)
			}
			return
		}
		if !utf8.ValidString(p.Text) || !utf8.ValidString(p.Title) {
			t.Fatalf("invalid UTF-8 in the page: %q", p.Text)
		}
		if p.Bytes != len(body) {
			t.Fatalf("Bytes = %d, body %d", p.Bytes, len(body))
		}
	})
}
