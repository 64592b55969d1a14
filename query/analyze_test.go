package query

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// planView is the part of a Plan a test pins down; terms are checked
// separately, as a subset, so that adding a synonym does not break every
// case.
type planView struct {
	Action       Action
	Scope        Scope
	Strategy     string
	Depth        int
	IncludeTests bool
	Entities     []string // "kind raw [parts] !" (! = explicit)
	Paths        []string
	Areas        []string
	Errors       []string
	Frames       int
	Refs         []string // "kind value"
}

func viewOf(p *Plan) planView {
	v := planView{Action: p.Action, Scope: p.Scope, Strategy: p.Strategy, Depth: p.Depth,
		IncludeTests: p.IncludeTests, Paths: p.Paths, Areas: p.Areas, Errors: p.Errors, Frames: len(p.Frames)}
	for _, e := range p.Entities {
		if e.Bare {
			continue // a possible name, seeded only if declared (TestBareNames)
		}
		s := fmt.Sprintf("%s %s %v", e.Kind, e.Raw, e.Parts)
		if e.Explicit {
			s += " !"
		}
		v.Entities = append(v.Entities, s)
	}
	for _, r := range p.Refs {
		v.Refs = append(v.Refs, r.Kind.String()+" "+r.Value)
	}
	return v
}

func TestAnalyze(t *testing.T) {
	goPanic := readTestdata(t, "go_panic.txt")
	rustTrace := readTestdata(t, "rust_backtrace.txt")
	tests := []struct {
		name    string
		in      string
		want    planView
		terms   []string // "text/kind" that must be present
		noTerms []string // texts that must be absent
	}{
		{
			name: "named method",
			in:   "fix UserService.find_by_email",
			want: planView{Action: ActionDebug, Scope: ScopeFocused, Strategy: "focused", Depth: 2, IncludeTests: true,
				Entities: []string{"symbol UserService.find_by_email [UserService find_by_email]"}},
			terms:   []string{"findbyemail/ident", "userservice/ident", "find/part", "email/part", "user/part"},
			noTerms: []string{"fix"},
		},
		{
			name: "panic naming a Rust method",
			in:   "panic: runtime error in Store::orders_of",
			want: planView{Action: ActionDebug, Scope: ScopeFocused, Strategy: "focused", Depth: 2, IncludeTests: true,
				Entities: []string{"symbol Store::orders_of [Store orders_of]"},
				Errors:   []string{"runtime error in Store::orders_of"}},
			terms:   []string{"ordersof/ident", "store/ident", "order/part"},
			noTerms: []string{"panic"},
		},
		{
			name: "pasted Go panic",
			in:   "the login endpoint crashes\n" + goPanic,
			want: planView{Action: ActionDebug, Scope: ScopeFocused, Strategy: "focused", Depth: 2, IncludeTests: true,
				Entities: []string{
					"symbol example.com/shop/internal/service.(*UserService).FindByEmail [service UserService FindByEmail]",
					"symbol example.com/shop/internal/api.(*Handler).login.func1 [api Handler login]",
				},
				Errors: []string{"runtime error: invalid memory address or nil pointer dereference"},
				Frames: 5},
			terms:   []string{"findbyemail/ident", "login/ident", "endpoint/word", "crash/word"},
			noTerms: []string{"invalid", "memory", "goroutin", "servehttp", "serv", "conn", "0x1c", "running", "sigsegv", "signal"},
		},
		{
			name: "pasted Rust backtrace",
			in:   rustTrace,
			want: planView{Action: ActionDebug, Scope: ScopeFocused, Strategy: "focused", Depth: 2, IncludeTests: true,
				Entities: []string{
					"path ./src/store.rs [src store.rs]",
					"symbol user_svc::store::Store::orders_of [user_svc store Store orders_of]",
					"path ./src/api.rs [src api.rs]",
					"symbol <user_svc::api::Api as user_svc::Service>::call [user_svc api Api call]",
					"path ./src/main.rs [src main.rs]",
					"symbol user_svc::main::{{closure}} [user_svc main]",
				},
				Paths:  []string{"src/store.rs", "src/api.rs", "src/main.rs"},
				Errors: []string{"order 17 has no customer"},
				Frames: 6},
			terms:   []string{"ordersof/ident", "custom/word", "call/ident"},
			noTerms: []string{"main", "rust", "panick", "backtrac"},
		},
		{
			name: "why question",
			in:   "why does login return 500 when the token expired",
			want: planView{Action: ActionDebug, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true},
			terms: []string{"login/word", "500/word", "token/word", "expir/word",
				"auth/synonym", "session/synonym"},
			noTerms: []string{"why", "doe", "does", "return", "when", "the"},
		},
		{
			name:  "refactor a component",
			in:    "refactor auth middleware",
			want:  planView{Action: ActionRefactor, Scope: ScopeModule, Strategy: "broad+semantic", Depth: 3, IncludeTests: true},
			terms: []string{"auth/word", "middlewar/word", "interceptor/synonym"},
		},
		{
			name:    "feature",
			in:      "add rate limiting to the HTTP API",
			want:    planView{Action: ActionCreate, Scope: ScopeCodebase, Strategy: "broad+semantic", Depth: 3, IncludeTests: true},
			terms:   []string{"rate/word", "limit/word", "http/word", "api/word", "throttl/synonym"},
			noTerms: []string{"add", "to"},
		},
		{
			name:  "how does it start",
			in:    "how does the server start",
			want:  planView{Action: ActionExplain, Scope: ScopeModule, Strategy: "entrypoint", Depth: 3, IncludeTests: true},
			terms: []string{"serv/word", "start/word"},
		},
		{
			name: "go commit area",
			in:   "xdsclient: fix race in watcher cleanup",
			want: planView{Action: ActionDebug, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true,
				Areas: []string{"xdsclient"}},
			terms: []string{"xdsclient/area", "race/word", "watch/word", "cleanup/word", "mutex/synonym"},
		},
		{
			name: "go commit with nested area",
			in:   "tsdb/wlog: avoid data race in segment reader",
			want: planView{Action: ActionDebug, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true,
				Areas: []string{"tsdb/wlog"}},
			terms: []string{"tsdb/area", "wlog/area", "segment/word", "read/word"},
		},
		{
			name: "several areas and a method",
			in:   "net/http, net/url: make Server.Shutdown wait for hijacked connections",
			want: planView{Action: ActionModify, Scope: ScopeFocused, Strategy: "focused+semantic", Depth: 2, IncludeTests: true,
				Areas: []string{"net/http", "net/url"}, Entities: []string{"symbol Server.Shutdown [Server Shutdown]"}},
			terms: []string{"shutdown/ident", "hijack/word", "connect/word", "url/area"},
		},
		{
			name: "caddy commit with back-ticked option",
			in:   "httpcaddyfile: Add `trusted_proxies_strict` global option",
			want: planView{Action: ActionCreate, Scope: ScopeFocused, Strategy: "focused", Depth: 2, IncludeTests: true,
				Areas: []string{"httpcaddyfile"}, Entities: []string{"symbol trusted_proxies_strict [trusted_proxies_strict] !"}},
			terms: []string{"trustedproxiesstrict/ident", "proxy/part", "option/word"},
		},
		{
			name: "rust crate area with back-ticked command",
			in:   "nu-command: fix `into datetime` panic on negative timestamps",
			want: planView{Action: ActionDebug, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true,
				Areas: []string{"nu-command"}, Entities: []string{"code into datetime [into datetime] !"}},
			terms: []string{"nucommand/area", "command/area", "datetime/ident", "timestamp/word"},
		},
		{
			name: "conventional commit",
			in:   "feat(auth): support refresh tokens",
			want: planView{Action: ActionCreate, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true,
				Areas: []string{"auth"}},
			terms: []string{"auth/area", "refresh/word", "token/word"},
		},
		{
			name: "explicit references",
			in:   "@UserService.FindByEmail returns nil for @internal/store/user.go#L40-60 see @search:\"no rows\"",
			want: planView{Action: ActionModify, Scope: ScopeFocused, Strategy: "focused", Depth: 2, IncludeTests: true,
				Entities: []string{"symbol UserService.FindByEmail [UserService FindByEmail] !"},
				Refs:     []string{"symbol UserService.FindByEmail", "file internal/store/user.go", "search no rows"}},
			terms: []string{"findbyemail/ident", "nil/word", "row/word", "stor/path"},
		},
		{
			name: "paths and a Go method expression",
			in:   "where is (*Store).Get called from cmd/server/main.go? also internal/cache/",
			want: planView{Action: ActionSearch, Scope: ScopeFocused, Strategy: "focused", Depth: 1, IncludeTests: true,
				Entities: []string{"symbol (*Store).Get [Store Get]", "path cmd/server/main.go [cmd server main.go]", "path internal/cache/ [internal cache]"},
				Paths:    []string{"cmd/server/main.go", "internal/cache/"}},
			terms: []string{"store/ident", "get/ident", "serv/path", "cach/path"},
		},
		{
			name: "back-ticked expression",
			in:   "explain what `store.Get(ctx, id)` does with a cold cache",
			want: planView{Action: ActionExplain, Scope: ScopeFocused, Strategy: "focused", Depth: 2, IncludeTests: true,
				Entities: []string{"symbol store.Get [store Get] !"}},
			terms: []string{"get/ident", "cold/word", "cach/word"},
		},
		{
			name: "quoted error and no tests",
			in:   `login fails with "token has expired" after refresh, no tests please`,
			want: planView{Action: ActionDebug, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: false,
				Errors: []string{"token has expired"}},
			terms: []string{"login/word", "token/word", "expir/word", "refresh/word"},
		},
		{
			name:  "tests wanted",
			in:    "add unit tests for the retry backoff",
			want:  planView{Action: ActionTest, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true},
			terms: []string{"retry/word", "backoff/word"},
		},
		{
			name:    "ordinary words are not code",
			in:      "The Store API, e.g. GitHub and OAuth, should use example.com for JSON",
			want:    planView{Action: ActionModify, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true},
			terms:   []string{"stor/word", "api/word", "github/word", "oauth/word", "json/word"},
			noTerms: []string{"exampl", "com", "e", "g"},
		},
		{
			name: "compiler error",
			in:   "./internal/store/user.go:12:5: undefined: sqlx.Open",
			want: planView{Action: ActionModify, Scope: ScopeFocused, Strategy: "focused", Depth: 2, IncludeTests: true,
				Entities: []string{"path ./internal/store/user.go [internal store user.go]", "symbol sqlx.Open [sqlx Open]"},
				Paths:    []string{"internal/store/user.go"}},
			terms: []string{"sqlx/ident", "open/ident"},
		},
		{
			name: "bracketed area",
			in:   "[nu-cli] fix completions for external commands",
			want: planView{Action: ActionDebug, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true,
				Areas: []string{"nu-cli"}},
			terms: []string{"nucli/area", "cli/area", "complet/word", "command/word"},
		},
		{
			name: "avoiding a nil dereference is a fix",
			in:   "sql: avoid nil dereference in Rows.Close",
			want: planView{Action: ActionDebug, Scope: ScopeFocused, Strategy: "focused+semantic", Depth: 2, IncludeTests: true,
				Areas: []string{"sql"}, Entities: []string{"symbol Rows.Close [Rows Close]"}},
			terms: []string{"rows/ident", "close/ident"},
		},
		{
			name:    "module path and issue number",
			in:      "Bump golang.org/x/net from 0.17.0 to 0.23.0 (#1234)",
			want:    planView{Action: ActionModify, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true},
			terms:   []string{"net/word", "bump/word"},
			noTerms: []string{"golang", "org", "1234", "17", "0"},
		},
		{
			name: "single-quoted error and back-ticked command",
			in:   "why isn't `cargo test` passing on CI with 'connection refused'",
			want: planView{Action: ActionDebug, Scope: ScopeModule, Strategy: "semantic", Depth: 2, IncludeTests: true,
				Entities: []string{"code cargo test [cargo test] !"}, Errors: []string{"connection refused"}},
			terms:   []string{"cargo/ident", "connect/word", "refus/word"},
			noTerms: []string{"isn", "why"},
		},
		{
			name: "empty",
			in:   "   ",
			want: planView{Action: ActionModify, Scope: ScopeModule, Strategy: "broad", Depth: 3, IncludeTests: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Analyze(tt.in)
			if diff := cmp.Diff(tt.want, viewOf(p)); diff != "" {
				t.Errorf("Analyze(%q) (-want +got):\n%s\n%s", tt.in, diff, p.Explain())
			}
			have := map[string]string{}
			for _, term := range p.Terms {
				have[term.Text] = term.Kind.String()
			}
			for _, w := range tt.terms {
				text, kind, _ := strings.Cut(w, "/")
				if have[text] != kind {
					t.Errorf("term %q: have kind %q, want %q\n%s", text, have[text], kind, p.Explain())
				}
			}
			for _, text := range tt.noTerms {
				if _, ok := have[text]; ok {
					t.Errorf("unwanted term %q\n%s", text, p.Explain())
				}
			}
			if p.Planner != "heuristic" || p.Complexity < 1 || p.Complexity > 5 {
				t.Errorf("planner %q, complexity %d", p.Planner, p.Complexity)
			}
		})
	}
}
