package query

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		// the brief's examples: all forms of "expire" meet
		{"expires", "expir"}, {"expired", "expir"}, {"expire", "expir"}, {"expiring", "expir"},
		{"expiry", "expiry"},
		// plurals
		{"users", "user"}, {"tokens", "token"}, {"queries", "query"}, {"query", "query"},
		{"classes", "class"}, {"class", "class"}, {"status", "status"}, {"statuses", "status"},
		{"analysis", "analysis"}, {"alias", "alias"}, {"aliases", "alias"},
		{"indexes", "index"}, {"matches", "match"}, {"caches", "cach"}, {"cache", "cach"},
		{"responses", "response"}, {"response", "response"}, {"databases", "database"},
		// -ing / -ed with undoubling and a restored e
		{"running", "run"}, {"logging", "log"}, {"mapping", "map"}, {"settings", "set"},
		{"caching", "cach"}, {"cached", "cach"}, {"named", "name"}, {"coded", "code"},
		{"parsing", "parse"}, {"parsed", "parse"}, {"parse", "parse"}, {"closing", "close"},
		{"focused", "focus"}, {"passing", "pass"}, {"fixed", "fix"}, {"added", "add"},
		{"retried", "retry"}, {"retries", "retry"}, {"limiting", "limit"}, {"throttling", "throttl"},
		{"throttle", "throttl"}, {"panicked", "panic"},
		// words that only look inflected stay
		{"string", "string"}, {"thing", "thing"}, {"need", "need"}, {"speed", "speed"},
		{"proceed", "proceed"}, {"used", "used"},
		// -er
		{"handler", "handl"}, {"handlers", "handl"}, {"handle", "handl"}, {"handling", "handl"},
		{"logger", "log"}, {"parser", "parse"}, {"watcher", "watch"}, {"user", "user"},
		{"order", "order"}, {"orders", "order"}, {"timer", "timer"}, {"engineer", "engineer"},
		// -tion
		{"connection", "connect"}, {"creation", "creat"}, {"create", "creat"}, {"option", "option"},
		{"validation", "validat"}, {"validate", "validat"},
		// left alone: short, mixed, non-ASCII, digits
		{"api", "api"}, {"go", "go"}, {"utf8", "utf8"}, {"http2", "http2"},
		{"Users", "Users"}, {"café", "café"}, {"", ""},
	}
	for _, tt := range tests {
		if got := Stem(tt.in); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStemIdempotent(t *testing.T) {
	for _, w := range []string{"expires", "embedded", "settings", "processes", "queries", "handlers",
		"connections", "aliases", "databases", "throttling", "buffered", "addresses", "panicking"} {
		once := Stem(w)
		if twice := Stem(once); twice != once {
			t.Errorf("Stem(Stem(%q)) = %q, Stem = %q", w, twice, once)
		}
	}
}

func TestNormTermAndTermsOf(t *testing.T) {
	if got := NormTerm("Expired"); got != "expir" {
		t.Errorf("NormTerm(Expired) = %q", got)
	}
	tests := []struct {
		in   string
		want []string
	}{
		{"FindByEmail", []string{"find", "email"}},
		{"find_by_email", []string{"find", "email"}},
		{"handleExpiredTokens", []string{"handl", "expir", "token"}},
		{"HTTPServer", []string{"http", "serv"}},
		{"AddIssue", []string{"add", "issue"}}, // filler words stay in identifiers
		{"ByTheOf", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, TermsOf(tt.in)); diff != "" {
			t.Errorf("TermsOf(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
	// Query and document normalisation meet.
	if q, d := NormTerm("expired"), TermsOf("tokenExpiring"); len(d) != 2 || d[1] != q {
		t.Errorf("query term %q does not meet document parts %v", q, d)
	}
}

func TestIsStopWord(t *testing.T) {
	for w, want := range map[string]bool{
		"the": true, "When": true, "why": true, "should": true, "fix": true, "bug": true,
		"issue": true, "add": true, "implement": true, "please": true, "refactor": true,
		"login": false, "token": false, "cache": false, "cleanup": false, "server": false,
		"delete": false, "update": false, "": false,
	} {
		if got := IsStopWord(w); got != want {
			t.Errorf("IsStopWord(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestSynonyms(t *testing.T) {
	got := Synonyms(NormTerm("login"))
	if len(got) == 0 || got[0] != "auth" {
		t.Errorf("Synonyms(login) = %v, want auth first", got)
	}
	for _, s := range got {
		if s == "login" {
			t.Errorf("Synonyms(login) contains login itself: %v", got)
		}
	}
	if got := Synonyms("nonexistentword"); got != nil {
		t.Errorf("Synonyms(unknown) = %v, want nil", got)
	}
}
