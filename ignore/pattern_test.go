package ignore

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePatternSkips(t *testing.T) {
	for _, line := range []string{"", "   ", "# comment", "#", "!", "/", "!/", "\r"} {
		if p, ok, err := ParsePattern(line, ""); ok || err != nil {
			t.Errorf("ParsePattern(%q) = %+v, %v, %v; want skipped", line, p, ok, err)
		}
	}
}

func TestParsePatternErrors(t *testing.T) {
	for _, line := range []string{"[", "a[b", "[]", `a\`, "[[:nope:]]", "x/[z/y"} {
		_, _, err := ParsePattern(line, "")
		if !errors.Is(err, ErrBadPattern) {
			t.Errorf("ParsePattern(%q) error = %v, want ErrBadPattern", line, err)
		}
	}
}

func TestPatternMatch(t *testing.T) {
	type probe struct {
		path  string
		isDir bool
		want  bool
	}
	tests := []struct {
		line, base string
		probes     []probe
	}{
		{"*.log", "", []probe{{"a.log", false, true}, {"x/y/a.log", false, true}, {"a.log.txt", false, false}, {"logs", true, false}}},
		{"build/", "", []probe{{"build", true, true}, {"x/build", true, true}, {"build", false, false}}},
		{"/build", "", []probe{{"build", true, true}, {"build", false, true}, {"x/build", true, false}}},
		{"doc/frotz", "", []probe{{"doc/frotz", true, true}, {"a/doc/frotz", true, false}, {"doc/frotz/x", false, false}}},
		{"doc/*.txt", "", []probe{{"doc/a.txt", false, true}, {"doc/x/a.txt", false, false}}},
		{"**/foo", "", []probe{{"foo", false, true}, {"a/b/foo", true, true}, {"a/foo/b", false, false}}},
		{"**/foo/bar", "", []probe{{"foo/bar", false, true}, {"x/foo/bar", false, true}, {"x/foo/y/bar", false, false}}},
		{"a/**/b", "", []probe{{"a/b", false, true}, {"a/x/b", false, true}, {"a/x/y/b", false, true}, {"b", false, false}}},
		{"a/**/b/c", "", []probe{{"a/b/x/b/c", false, true}, {"a/b/c", false, true}, {"a/b/x/c", false, false}}},
		{"x/**", "", []probe{{"x", true, false}, {"x/a", false, true}, {"x/a/b", true, true}}},
		{"**", "", []probe{{"anything", false, true}, {"a/b", true, true}}},
		{"/**", "", []probe{{"a", false, true}, {"a/b", false, true}}},
		{"[!0-9].dat", "", []probe{{"x.dat", false, true}, {"7.dat", false, false}}},
		{"[^0-9].dat", "", []probe{{"x.dat", false, true}, {"7.dat", false, false}}},
		{"[]a].txt", "", []probe{{"].txt", false, true}, {"a.txt", false, true}, {"b.txt", false, false}}},
		{"[a-].txt", "", []probe{{"-.txt", false, true}, {"a.txt", false, true}, {"b.txt", false, false}}},
		{"v[[:digit:]]*", "", []probe{{"v1.go", false, true}, {"vx.go", false, false}}},
		{`\#hash`, "", []probe{{"#hash", false, true}}},
		{`\!bang`, "", []probe{{"!bang", false, true}}},
		{`sp\ `, "", []probe{{"sp ", false, true}, {"sp", false, false}}},
		{"trail   ", "", []probe{{"trail", false, true}, {"trail ", false, false}}},
		{"a**b", "", []probe{{"axxb", false, true}, {"a/x/b", false, false}}},
		{"*.go", "sub", []probe{{"sub/a.go", false, true}, {"sub/x/a.go", false, true}, {"a.go", false, false}, {"subx/a.go", false, false}}},
		{"/local", "sub", []probe{{"sub/local", false, true}, {"sub/x/local", false, false}, {"local", false, false}}},
		{"x/y", "sub/dir", []probe{{"sub/dir/x/y", false, true}, {"sub/x/y", false, false}}},
		{"sub", "sub", []probe{{"sub", true, false}, {"sub/sub", true, true}}},
	}
	for _, tt := range tests {
		p, ok, err := ParsePattern(tt.line, tt.base)
		if err != nil || !ok {
			t.Fatalf("ParsePattern(%q) = %v, %v", tt.line, ok, err)
		}
		for _, pr := range tt.probes {
			if got := p.Match(pr.path, pr.isDir); got != pr.want {
				t.Errorf("%q (base %q).Match(%q, dir=%v) = %v, want %v", tt.line, tt.base, pr.path, pr.isDir, got, pr.want)
			}
		}
	}
}

func TestParsePatternFlags(t *testing.T) {
	type flags struct{ Negate, DirOnly, Anchored bool }
	tests := []struct {
		line string
		want flags
	}{
		{"a", flags{}},
		{"!a", flags{Negate: true}},
		{"a/", flags{DirOnly: true}},
		{"/a", flags{Anchored: true}},
		{"a/b", flags{Anchored: true}},
		{"!/a/b/", flags{true, true, true}},
	}
	for _, tt := range tests {
		p, _, err := ParsePattern(tt.line, "")
		if err != nil {
			t.Fatal(err)
		}
		got := flags{p.negate, p.dirOnly, p.anchored}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q flags (-want +got):\n%s", tt.line, diff)
		}
	}
}

func TestMayMatchBelow(t *testing.T) {
	tests := []struct {
		line, dir string
		want      bool
	}{
		{"vendor/acme/**", "vendor", true},
		{"vendor/acme/**", "vendor/acme", true},
		{"vendor/acme/**", "vendor/other", false},
		{"vendor/acme/", "vendor", true},
		{"vendor/acme/", "vendor/acme", false}, // the directory itself matches; nothing more below is needed
		{"gen/**/*.go", "gen/a/b", true},
		{"*.pb.go", "anything/at/all", true},
		{"/top.go", "sub", false},
		{"a/b", "a/b/c", false},
	}
	for _, tt := range tests {
		p, _, err := ParsePattern(tt.line, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.MayMatchBelow(tt.dir); got != tt.want {
			t.Errorf("%q.MayMatchBelow(%q) = %v, want %v", tt.line, tt.dir, got, tt.want)
		}
	}
}

// FuzzParsePattern checks that no line of an ignore file panics the parser
// or the matcher, and that a parsed pattern answers the same twice.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"*.log", "!keep/", "/a/**/b/", "[!0-9]x", `\#x\ `, "[[:alpha:]-]", "a[]b", "**/**/x"} {
		f.Add(s, "a/b/c.go")
	}
	f.Fuzz(func(t *testing.T, line, p string) {
		pat, ok, err := ParsePattern(line, "sub")
		if err != nil || !ok {
			return
		}
		a := pat.Match("sub/"+p, false)
		b := pat.Match("sub/"+p, false)
		if a != b {
			t.Fatalf("%q.Match(%q) is not stable", line, p)
		}
		pat.MayMatchBelow("sub/" + p)
	})
}
