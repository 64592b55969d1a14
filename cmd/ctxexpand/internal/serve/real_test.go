package serve_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/serve"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// A server over a real repository: a copy of testdata/gosvc, loaded with
// the real engine through an on-disk index of the test's own, as
// `ctxexpand serve` loads it.

// The tests over gosvc share one copy of it and one on-disk index, so that
// only the first pays for a cold load (seconds under -race, most of it
// type-checking the standard library packages gosvc imports). Each test
// puts back what it edits.
var shared struct {
	once  sync.Once
	dir   string // removed by TestMain
	root  string
	index *index.Store
	err   error
}

// gosvcShared returns the shared copy of testdata/gosvc and its index.
func gosvcShared(t testing.TB) (string, *index.Store) {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "ctxexpand-serve-test-")
		if shared.err != nil {
			return
		}
		shared.root = filepath.Join(shared.dir, "gosvc")
		testfiles.CopyDir(t, filepath.Join("..", "..", "..", "..", "testdata", "gosvc"), shared.root)
		shared.index, shared.err = index.Open(index.Options{Dir: filepath.Join(shared.dir, "index")})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.root, shared.index
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// restoreAfter puts rel back as it is now when the test ends.
func restoreAfter(t testing.TB, root, rel string) []byte {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.WriteFile(p, data, 0o644) })
	return data
}

// realServer is a server answering from the real engine.
type realServer struct {
	root    string
	socket  string
	metrics string // the /metrics address, "" without
	eng     *resident.Repo

	// watch is the repository path whose content each generation holds
	// (by its facts' hash), recorded as the generations are loaded.
	watch string
	mu    sync.Mutex
	gens  []string // gens[g-1]: the hash of watch in generation g
}

// startReal serves root until the test ends; withMetrics also answers
// scrapes on a loopback port.
func startReal(t testing.TB, root string, st *index.Store, watch string, withMetrics bool) *realServer {
	t.Helper()
	rs := &realServer{root: root, watch: watch}
	ln, err := serve.Listen(t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	rs.socket = ln.Paths.Socket
	// Generations are numbered in the order their loads succeed (one
	// update at a time): record what each holds.
	record := func(s *engine.Session, err error) (*engine.Session, error) {
		if err == nil {
			h := ""
			if id, ok := s.Facts.FileByPath(watch); ok {
				h = s.Facts.Files[id].Hash
			}
			rs.mu.Lock()
			rs.gens = append(rs.gens, h)
			rs.mu.Unlock()
		}
		return s, err
	}
	eng, err := resident.Start(context.Background(), resident.Options{Root: root, CookieDir: ln.Paths.Cookies,
		Configure: func() (engine.LoadOptions, error) { return engine.LoadOptions{Index: st, NoHistory: true}, nil },
		Open: func(ctx context.Context, root string, opt engine.LoadOptions) (*engine.Session, error) {
			return record(engine.Open(ctx, root, opt))
		},
		Reopen: func(ctx context.Context, prev *engine.Session, opt engine.LoadOptions, ch engine.Changes) (*engine.Session, error) {
			return record(engine.Reopen(ctx, prev, opt, ch))
		},
		Logf: t.Logf})
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	rs.eng = eng
	opts := serve.Options{Root: root, Program: "test", Logf: t.Logf, MaxQueries: 8}
	if withMetrics {
		mln, err := serve.ListenMetrics("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		rs.metrics = mln.Addr().String()
		opts.Metrics = mln
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ln.Serve(ctx, eng, opts) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return rs
}

// query asks the server.
func (rs *realServer) query(ctx context.Context, q *engine.Request) (*serve.Response, error) {
	return serve.Call(ctx, rs.socket, &serve.Request{Version: serve.Version, Op: serve.OpQuery, Root: rs.root, Program: "test", Query: q})
}

// status asks the server's status.
func (rs *realServer) status(t testing.TB) *serve.Status {
	t.Helper()
	resp, err := serve.Call(context.Background(), rs.socket, &serve.Request{Version: serve.Version, Op: serve.OpStatus, Root: rs.root})
	if err != nil || resp.Status == nil {
		t.Fatalf("status: %+v, %v", resp, err)
	}
	return resp.Status
}

// genHash is the hash of the watched file in generation g.
func (rs *realServer) genHash(g uint64) (string, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if g == 0 || g > uint64(len(rs.gens)) {
		return "", false
	}
	return rs.gens[g-1], true
}

// hashOf is a content hash as the facts hold it.
func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
