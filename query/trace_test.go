package query

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestParseTracesGo(t *testing.T) {
	want := []Frame{
		{Func: "example.com/shop/internal/service.(*UserService).FindByEmail", Path: "/home/dev/shop/internal/service/user.go", Line: 42},
		{Func: "example.com/shop/internal/api.(*Handler).login.func1", Path: "/home/dev/shop/internal/api/login.go", Line: 88},
		{Func: "net/http.HandlerFunc.ServeHTTP", Path: "/usr/local/go/src/net/http/server.go", Line: 2166, External: true},
		{Func: "net/http.(*conn).serve", Path: "/usr/local/go/src/net/http/server.go", Line: 2009, External: true},
		{Func: "net/http.(*Server).Serve", Path: "/usr/local/go/src/net/http/server.go", Line: 3086, External: true},
	}
	text := readTestdata(t, "go_panic.txt")
	for name, in := range map[string]string{
		"as printed":  text,
		"flattened":   strings.Join(strings.Fields(text), " "),
		"after prose": "the login endpoint crashes:\n" + text,
	} {
		t.Run(name, func(t *testing.T) {
			tr := parseTraces(in)
			if diff := cmp.Diff(want, tr.frames); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"runtime error: invalid memory address or nil pointer dereference"}, tr.errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseTracesRust(t *testing.T) {
	want := []Frame{
		{Func: "rust_begin_unwind", Path: "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs", Line: 665, External: true},
		{Func: "core::panicking::panic_fmt", Path: "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs", Line: 74, External: true},
		{Func: "user_svc::store::Store::orders_of", Path: "./src/store.rs", Line: 42},
		{Func: "<user_svc::api::Api as user_svc::Service>::call", Path: "./src/api.rs", Line: 17},
		{Func: "user_svc::main::{{closure}}", Path: "./src/main.rs", Line: 10},
		{Func: "core::ops::function::FnOnce::call_once", Path: "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/ops/function.rs", Line: 250, External: true},
	}
	text := readTestdata(t, "rust_backtrace.txt")
	for name, in := range map[string]string{"as printed": text, "flattened": strings.Join(strings.Fields(text), " ")} {
		t.Run(name, func(t *testing.T) {
			tr := parseTraces(in)
			if diff := cmp.Diff(want, tr.frames); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
		})
	}
	// Without a backtrace, the panic location is the only frame, and the
	// old-style message is kept.
	tr := parseTraces("thread 'main' panicked at 'no customer', src/store.rs:42:9\nnote: run with `RUST_BACKTRACE=1`")
	if diff := cmp.Diff([]Frame{{Path: "src/store.rs", Line: 42}}, tr.frames); diff != "" {
		t.Errorf("panic location (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"no customer"}, tr.errors); diff != "" {
		t.Errorf("old-style message (-want +got):\n%s", diff)
	}
	// A panic inside a dependency or the toolchain's sources is not the
	// repository's code.
	for _, p := range []string{
		"/home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/bytes-1.6.0/src/bytes.rs",
		"/home/dev/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/slice/index.rs",
	} {
		tr := parseTraces("thread 'main' panicked at " + p + ":120:9:\nrange end index 9 out of range for slice of length 4")
		if len(tr.frames) != 1 || !tr.frames[0].External {
			t.Errorf("panic in %s: frames %+v, want one external frame", p, tr.frames)
		}
	}
}

func TestFrameEntityParts(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"main.(*UserService).FindByEmail", []string{"main", "UserService", "FindByEmail"}},
		{"example.com/shop/internal/api.(*Handler).login.func1", []string{"api", "Handler", "login"}},
		{"example.com/x.Map[...]", []string{"x", "Map"}},
		{"example.com/x.(*Tree[...]).Insert", []string{"x", "Tree", "Insert"}},
		{"user_svc::store::Store::orders_of", []string{"user_svc", "store", "Store", "orders_of"}},
		{"<user_svc::api::Api as user_svc::Service>::call", []string{"user_svc", "api", "Api", "call"}},
		{"user_svc::main::{{closure}}", []string{"user_svc", "main"}},
		{"alloc::vec::Vec<T>::push", []string{"alloc", "vec", "Vec", "push"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, frameEntityParts(tt.in)); diff != "" {
			t.Errorf("frameEntityParts(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestParseTracesIgnoresProse(t *testing.T) {
	// A call written in prose without a location is not a frame, and a
	// numbered list is not a backtrace.
	for _, in := range []string{
		"fix main.Run(ctx) so it stops\n1: check store\n2: check cache",
		"panic in handler.go when the map is nil",
	} {
		if tr := parseTraces(in); len(tr.frames) != 0 {
			t.Errorf("parseTraces(%q) = %+v, want no frames", in, tr.frames)
		}
	}
}
