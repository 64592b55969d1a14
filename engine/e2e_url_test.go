package engine_test

// The @url safety suite through Run, the way the command line answers a
// query (what stdout and stderr would show: the bundle and the notes). It
// lives here, not with the end-to-end suite (package e2e), because it needs
// the test-only seam of export_test.go to play DNS and reach local servers.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/urlfetch"
)

// counted is a local HTTP server that counts the requests reaching it.
type counted struct {
	*httptest.Server
	hits atomic.Int64
}

func newCounted(t *testing.T, ln net.Listener, h http.HandlerFunc) *counted {
	t.Helper()
	c := &counted{}
	c.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		h(w, r)
	}))
	if ln != nil {
		c.Server.Listener.Close()
		c.Server.Listener = ln
	}
	c.Start()
	t.Cleanup(c.Close)
	return c
}

func (c *counted) port() string {
	_, p, _ := net.SplitHostPort(c.Listener.Addr().String())
	return p
}

// fakeDNS answers the names it knows and asks the system for the rest.
type fakeDNS map[string][]netip.Addr

func (d fakeDNS) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if as, ok := d[host]; ok {
		return as, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, network, host)
}

func addrs(ss ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

// localNonPublic returns an address of this machine that is neither
// loopback nor public (a private or documentation address of an
// interface), where a listener can play an internal service.
func localNonPublic() (netip.Addr, bool) {
	ifaddrs, err := net.InterfaceAddrs()
	if err != nil {
		return netip.Addr{}, false
	}
	for _, ia := range ifaddrs {
		pfx, err := netip.ParsePrefix(ia.String())
		if err != nil {
			continue
		}
		a := pfx.Addr()
		if a.Is4() && !a.IsLoopback() && !a.IsLinkLocalUnicast() {
			if ln, err := net.Listen("tcp", netip.AddrPortFrom(a, 0).String()); err == nil {
				ln.Close()
				return a, true
			}
		}
	}
	return netip.Addr{}, false
}

// urlRepo is a one-file repository for @url runs.
func urlRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"go.mod": "module example.com/u\n\ngo 1.22\n",
		"u.go":   "package u\n\n// Fetch is here.\nfunc Fetch() int { return 1 }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// urlRun is what one query showed: the bundle (the command's stdout) and
// the notes, @reference summary first (its stderr).
type urlRun struct {
	Stdout, Stderr string
}

func (r urlRun) String() string {
	return fmt.Sprintf("--- notes:\n%s\n--- bundle (first 2000 bytes):\n%.2000s", r.Stderr, r.Stdout)
}

// fetchRun runs one query with a @url reference, as the command line
// would with --format json --budget 3000 (and --no-network when
// noNetwork), and returns the run and whether the reference loaded.
func fetchRun(t *testing.T, root, rawURL string, noNetwork bool) (urlRun, bool) {
	t.Helper()
	out, err := engine.Run(context.Background(), engine.Request{
		Root:      root,
		Query:     "fix Fetch @url:" + rawURL,
		Format:    "json",
		Budget:    3000,
		NoNetwork: noNetwork,
		Load:      engine.LoadOptions{NoHistory: true},
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	var notes strings.Builder
	out.WriteNotes(&notes)
	r := urlRun{Stdout: string(out.Bundle), Stderr: notes.String()}
	if out.Partial {
		t.Fatalf("partial run\n%s", r)
	}
	return r, strings.Contains(r.Stderr, "ok       @url:")
}

// TestURLRefusedWithoutRequest: @url references to loopback, private,
// link-local and metadata addresses, to names that resolve to them and
// through redirects to them are refused, and no request reaches the
// listeners that play the victims. A positive control first proves that
// the listeners can be reached at all when loopback is allowed.
func TestURLRefusedWithoutRequest(t *testing.T) {
	root := urlRepo(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	victim := newCounted(t, nil, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "SECRET-FROM-VICTIM") })
	vport := victim.port()
	dns := fakeDNS{
		"loop.test":                {netip.MustParseAddr("127.0.0.1")},
		"loop6.test":               addrs("::1"),
		"mixed.test":               addrs("93.184.216.34", "127.0.0.1"),
		"private.test":             addrs("10.1.2.3"),
		"metadata.google.internal": addrs("169.254.169.254"),
		"v6local.test":             addrs("fd00::1"),
		"mapped.test":              addrs("::ffff:127.0.0.1"),
	}
	var internal *counted
	if a, ok := localNonPublic(); ok {
		ln, err := net.Listen("tcp", netip.AddrPortFrom(a, 0).String())
		if err != nil {
			t.Fatal(err)
		}
		internal = newCounted(t, ln, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "SECRET-FROM-INTERNAL") })
		dns["internal.test"] = addrs(a.String())
	}
	allowLoopback := false
	engine.SetURLOptionsForTest(t, func() urlfetch.Options {
		return urlfetch.Options{Resolver: dns, CacheDir: cache, AllowLoopback: allowLoopback}
	})

	// Positive control: with loopback allowed (tests only), the victim is
	// reached, so a zero count below means something.
	allowLoopback = true
	if r, ok := fetchRun(t, root, "http://127.0.0.1:"+vport+"/control", true); ok || victim.hits.Load() != 0 {
		t.Fatalf("--no-network fetched\n%s", r)
	}
	if r, ok := fetchRun(t, root, "http://127.0.0.1:"+vport+"/control", false); !ok || victim.hits.Load() != 1 || !strings.Contains(r.Stdout, "SECRET-FROM-VICTIM") {
		t.Fatalf("positive control: the loopback victim was not reached (hits %d)\n%s", victim.hits.Load(), r)
	}
	victim.hits.Store(0)

	allowLoopback = false
	direct := []string{
		"http://127.0.0.1:" + vport + "/",
		"http://127.0.0.2:" + vport + "/",
		"http://localhost:" + vport + "/",
		"http://LOCALHOST.:" + vport + "/",
		"http://[::1]:" + vport + "/",
		"http://[::ffff:127.0.0.1]:" + vport + "/",
		"http://0.0.0.0:" + vport + "/",
		"http://127.1:" + vport + "/",
		"http://2130706433:" + vport + "/",
		"http://0x7f000001:" + vport + "/",
		"http://loop.test:" + vport + "/",
		"http://loop6.test:" + vport + "/",
		"http://mixed.test:" + vport + "/",
		"http://mapped.test:" + vport + "/",
		"http://10.0.0.1/",
		"http://172.16.0.1/",
		"http://192.168.1.1/",
		"http://100.64.0.1/",
		"http://169.254.169.254/latest/meta-data/",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://[fe80::1]/",
		"http://[fd00::1]/",
		"http://v6local.test/",
		"http://private.test/",
		"https://127.0.0.1:" + vport + "/",
		"http://user:pass@127.0.0.1:" + vport + "/",
		"file:///etc/passwd",
		"gopher://127.0.0.1:" + vport + "/",
	}
	if internal != nil {
		direct = append(direct, "http://"+internal.Listener.Addr().String()+"/", "http://internal.test:"+internal.port()+"/")
	}
	for _, u := range direct {
		t.Run(u, func(t *testing.T) {
			if r, ok := fetchRun(t, root, u, false); ok || strings.Contains(r.Stdout, "SECRET-FROM") {
				t.Errorf("fetched\n%s", r)
			}
		})
	}

	// Redirects: the first hop is a loopback server (allowed for the
	// test), the redirect points at a refused address.
	allowLoopback = true
	targets := []string{
		"http://169.254.169.254/latest/meta-data/",
		"http://metadata.google.internal/",
		"http://10.0.0.1/",
		"http://private.test/",
		"http://[fd00::1]/",
		"file:///etc/passwd",
	}
	if internal != nil {
		targets = append(targets, "http://"+internal.Listener.Addr().String()+"/", "http://internal.test:"+internal.port()+"/")
	}
	for _, target := range targets {
		t.Run("redirect to "+target, func(t *testing.T) {
			hop := newCounted(t, nil, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target, http.StatusFound)
			})
			r, ok := fetchRun(t, root, hop.URL+"/start", false)
			if ok || strings.Contains(r.Stdout, "SECRET-FROM") {
				t.Errorf("fetched through the redirect\n%s", r)
			}
			if hop.hits.Load() != 1 {
				t.Errorf("the first hop was reached %d times, want 1", hop.hits.Load())
			}
		})
	}
	if n := victim.hits.Load(); n != 0 {
		t.Errorf("the loopback victim was reached %d times", n)
	}
	if internal != nil {
		if n := internal.hits.Load(); n != 0 {
			t.Errorf("the internal service was reached %d times", n)
		}
	} else {
		t.Log("no non-public interface address here: the internal-service cases did not run")
	}
}
