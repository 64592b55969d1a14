package pipeline_test

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

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/pipeline"
	"github.com/ctxexpand/ctxexpand/urlfetch"
)

// Markers planted in places no output may ever show.
const (
	outsideMarker = "OUTSIDE-SECRET-MARKER"
	ignoredMarker = "IGNORED-SECRET-MARKER"
	envMarker     = "ENV-SECRET-MARKER"
	gitMarker     = "GIT-CREDENTIAL-MARKER"
)

// secretRepo writes a repository beside a directory outside it holding a
// secret, with links from inside to it, git-ignored secrets inside, and a
// git configuration holding a checkout's credential.
func secretRepo(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	writeFile(t, base, "outside/secret.go", []byte("package outside\n\nconst Token = \""+outsideMarker+"\"\n"))
	writeFile(t, base, "outside/notes.md", []byte("# "+outsideMarker+"\n"))
	writeFile(t, root, "go.mod", []byte("module example.com/sec\n\ngo 1.22\n"))
	writeFile(t, root, "small.go", []byte("package sec\n\n// Small reads the token.\nfunc Small() string { return \"token\" }\n"))
	writeFile(t, root, ".gitignore", []byte("secrets/\n*.env\n"))
	writeFile(t, root, "secrets/key.go", []byte("package secrets\n\n// Key is the token.\nconst Key = \""+ignoredMarker+"\"\n"))
	writeFile(t, root, "ci.env", []byte("TOKEN="+envMarker+"\n"))
	writeFile(t, root, ".git/config", []byte("[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic "+gitMarker+"\n"))
	writeFile(t, root, ".git/HEAD", []byte("ref: refs/heads/main\n"))
	mustSymlink(t, filepath.Join("..", "outside", "secret.go"), filepath.Join(root, "link.go"))
	mustSymlink(t, filepath.Join("..", "outside"), filepath.Join(root, "linkdir"))
	mustSymlink(t, filepath.Join(base, "outside", "notes.md"), filepath.Join(root, "docs", "abs.md"))
	return root
}

// TestSecretsNeverInOutput: references that climb out of the root with
// "..", name absolute paths outside it, go through links pointing out,
// name git-ignored files or git's own .git, or search for the secrets,
// all leave the markers out of everything written, stdout and stderr.
func TestSecretsNeverInOutput(t *testing.T) {
	root := secretRepo(t)
	outside := filepath.Join(filepath.Dir(root), "outside")
	refs := []string{
		"@../outside/secret.go",
		"@" + filepath.Join(outside, "secret.go"),
		"@" + root + "/../outside/secret.go",
		"@link.go",
		"@linkdir/secret.go",
		"@linkdir/",
		"@docs/abs.md",
		"@../../../../../../etc/passwd",
		"@/etc/passwd",
		"@~/.ssh/id_rsa",
		"@secrets/key.go",
		"@secrets/",
		"@ci.env",
		"@key.go",
		"@.git/config",
		"@./.git/config",
		"@.git/",
		`@grep:"SECRET-MARKER"`,
		`@grep:"(?i)token"`,
		`@search:"MARKER"`,
		"@Key",
		"@outside.Token",
		"@url:file://" + filepath.Join(outside, "secret.go"),
	}
	markers := []string{outsideMarker, ignoredMarker, envMarker, gitMarker}
	for _, format := range []string{"json", "markdown"} {
		for _, ref := range refs {
			t.Run(format+"/"+ref, func(t *testing.T) {
				r := runCLI(t, "--root", root, "--format", format, "--budget", "6000", "--no-network", "fix Small, the token reader "+ref)
				checkSane(t, r)
				if r.code != 0 {
					t.Fatalf("exit %d\n%s", r.code, r)
				}
				for _, m := range markers {
					if strings.Contains(r.stdout, m) || strings.Contains(r.stderr, m) {
						t.Errorf("the output holds %s\n%s", m, r)
					}
				}
				if !strings.Contains(r.stdout, "small.go") {
					t.Errorf("small.go is missing; the run proves nothing\n%s", r)
				}
			})
		}
	}
	// The query words alone (no reference) must not surface the ignored
	// Key either.
	r := runCLI(t, "--root", root, "--format", "json", "fix Key the secrets token")
	if strings.Contains(r.stdout, ignoredMarker) || strings.Contains(r.stdout, "secrets/key.go") {
		t.Errorf("an ignored file reached the bundle\n%s", r)
	}
}

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
	writeFile(t, dir, "go.mod", []byte("module example.com/u\n\ngo 1.22\n"))
	writeFile(t, dir, "u.go", []byte("package u\n\n// Fetch is here.\nfunc Fetch() int { return 1 }\n"))
	return dir
}

// fetchRun runs one query with a @url reference and returns the run and
// whether the reference loaded.
func fetchRun(t *testing.T, root, rawURL string, extra ...string) (result, bool) {
	t.Helper()
	args := append([]string{"--root", root, "--format", "json", "--budget", "3000"}, extra...)
	r := runCLI(t, append(args, "fix Fetch @url:"+rawURL)...)
	checkSane(t, r)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r)
	}
	return r, strings.Contains(r.stderr, "ok       @url:")
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
	pipeline.SetURLOptionsForTest(t, func() urlfetch.Options {
		return urlfetch.Options{Resolver: dns, CacheDir: cache, AllowLoopback: allowLoopback}
	})

	// Positive control: with loopback allowed (tests only), the victim is
	// reached, so a zero count below means something.
	allowLoopback = true
	if r, ok := fetchRun(t, root, "http://127.0.0.1:"+vport+"/control", "--no-network"); ok || victim.hits.Load() != 0 {
		t.Fatalf("--no-network fetched\n%s", r)
	}
	if r, ok := fetchRun(t, root, "http://127.0.0.1:"+vport+"/control"); !ok || victim.hits.Load() != 1 || !strings.Contains(r.stdout, "SECRET-FROM-VICTIM") {
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
			if r, ok := fetchRun(t, root, u); ok || strings.Contains(r.stdout, "SECRET-FROM") {
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
			r, ok := fetchRun(t, root, hop.URL+"/start")
			if ok || strings.Contains(r.stdout, "SECRET-FROM") {
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

// TestGrepStaysLinear: catastrophic-backtracking patterns over long lines
// finish: Go's regexp is RE2, linear in the input. The bound is the
// watchdog, far above the milliseconds this takes; BenchmarkReDoSPatterns
// in package refs measures it.
func TestGrepStaysLinear(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", []byte("module example.com/r\n\ngo 1.22\n"))
	writeFile(t, dir, "r.go", []byte("package r\n\n// Match is here.\nfunc Match() int { return 1 }\n"))
	var data strings.Builder
	for range 20 {
		data.WriteString(strings.Repeat("a", 100_000) + "!\n")
	}
	writeFile(t, dir, "data.txt", []byte(data.String()))
	for _, pat := range []string{`(a+)+$`, `(a|aa)*c`, `(.*a){25}`, `^(a?){30}a{30}$`, `(a*)*b`, `((a+)|(a+))+x`} {
		r := runCLI(t, "--root", dir, "--format", "json", "fix Match @grep:\""+pat+"\"")
		checkSane(t, r)
		if r.code != 0 {
			t.Errorf("%s: exit %d\n%s", pat, r.code, r)
		}
	}
}

// TestNoWriteOutsideOutput: a run writes nothing in the repository and
// nothing but the --output file: the repository's listing, sizes, modes
// and times are the same before and after.
func TestNoWriteOutsideOutput(t *testing.T) {
	root := secretRepo(t)
	before := snapshot(t, root)
	out := filepath.Join(t.TempDir(), "bundle.json")
	r := runCLI(t, "--root", root, "--format", "json", "-o", out, "fix Small @grep:\"token\" @small.go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("no output file: %v", err)
	}
	if after := snapshot(t, root); after != before {
		t.Errorf("the run changed the repository:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// snapshot lists every path under root with its size and mode.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(&b, "%s %d %v %d\n", rel, info.Size(), info.Mode(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
