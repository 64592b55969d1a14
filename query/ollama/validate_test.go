package ollama

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/query"
)

func TestParsePlan(t *testing.T) {
	two, yes := 2, true
	tests := []struct {
		in   string
		want *ModelPlan
		err  string
	}{
		{in: `{}`, want: &ModelPlan{}},
		{in: ` {"keywords":["rate-limit","http2"],"symbols":["a::b::C","pkg.Func"],"file_patterns":["internal/**/*.go","src/{a,b}.rs"],"strategy":"broad","depth":2,"include_tests":true} `,
			want: &ModelPlan{Keywords: []string{"rate-limit", "http2"}, Symbols: []string{"a::b::C", "pkg.Func"},
				FilePatterns: []string{"internal/**/*.go", "src/{a,b}.rs"}, Strategy: "broad", Depth: &two, IncludeTests: &yes}},
		{in: `{"keywords":null,"symbols":[]}`, want: &ModelPlan{Symbols: []string{}}},
		{in: `[]`, err: "not a JSON object"},
		{in: `"x"`, err: "not a JSON object"},
		{in: ``, err: "not a JSON object"},
		{in: `{"keywords":["a"]} {"keywords":["b"]}`, err: "trailing data"},
		{in: `{"keywords":["a"]`, err: "unexpected EOF"},
		{in: `{"Keywords":["a"],"extra":1}`, err: "unknown field"},
		{in: `{"depth":2.5}`, err: "cannot unmarshal"},
		{in: `{"depth":0}`, err: "depth 0"},
		{in: `{"depth":-1}`, err: "depth -1"},
		{in: `{"include_tests":"yes"}`, err: "cannot unmarshal"},
		{in: `{"keywords":[1,2]}`, err: "cannot unmarshal"},
		{in: `{"keywords":[["nested"]]}`, err: "cannot unmarshal"},
		{in: `{"keywords":[""]}`, err: "not acceptable"},
		{in: `{"keywords":["two words"]}`, err: "not acceptable"},
		{in: `{"keywords":["line\nbreak"]}`, err: "not acceptable"},
		{in: `{"symbols":["Foo()"]}`, err: "not acceptable"},
		{in: `{"symbols":["` + strings.Repeat("A", 200) + `"]}`, err: "bytes, the limit is"},
		{in: `{"file_patterns":["/etc/*"]}`, err: "not acceptable"},
		{in: `{"file_patterns":["a/../../b"]}`, err: "not acceptable"},
		{in: `{"file_patterns":["~/x"]}`, err: "not acceptable"},
		{in: `{"file_patterns":["a b/*.go"]}`, err: "not acceptable"},
		{in: `{"strategy":"focused+focused"}`, err: "strategy"},
		{in: `{"strategy":"FOCUSED"}`, err: "strategy"},
		{in: "{\"keywords\":[\"\xff\"]}", err: "UTF-8"},
		{in: `{"symbols":[` + strings.Repeat(`"A",`, 16) + `"A"]}`, err: "17 items"},
	}
	for _, tt := range tests {
		t.Run(tt.in[:min(len(tt.in), 40)], func(t *testing.T) {
			got, err := ParsePlan([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !errors.Is(err, ErrInvalidPlan) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParsePlan(%q) error = %v, want ErrInvalidPlan containing %q", tt.in, err, tt.err)
				}
				if got != nil {
					t.Error("a rejected plan was returned")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParsePlan (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParsePlan(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"keywords":["a","b"],"depth":2}`, `{"strategy":"focused+semantic","include_tests":false}`,
		`{"symbols":["a::b"],"file_patterns":["x/*.go"]}`, `{"depth":9}`, `[1]`, `{"a":1}`, "{\"keywords\":[\"\\u0000\"]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mp, err := ParsePlan(data)
		if err != nil {
			if mp != nil || !errors.Is(err, ErrInvalidPlan) {
				t.Fatalf("error %v with plan %+v", err, mp)
			}
			return
		}
		// Whatever got through obeys every rule.
		if len(mp.Keywords) > MaxKeywords || len(mp.Symbols) > MaxSymbols || len(mp.FilePatterns) > MaxFilePatterns {
			t.Fatalf("caps exceeded: %+v", mp)
		}
		for _, k := range mp.Keywords {
			if !validKeyword(k) || len(k) > maxKeywordLen || !utf8.ValidString(k) {
				t.Fatalf("bad keyword %q", k)
			}
		}
		for _, s := range mp.Symbols {
			if query.SplitSymbol(s) == nil {
				t.Fatalf("bad symbol %q", s)
			}
		}
		for _, p := range mp.FilePatterns {
			if strings.Contains(p, "..") && strings.Contains("/"+p+"/", "/../") || strings.HasPrefix(p, "/") {
				t.Fatalf("escaping pattern %q", p)
			}
		}
		if mp.Strategy != "" && !query.ValidStrategy(mp.Strategy) {
			t.Fatalf("bad strategy %q", mp.Strategy)
		}
		if mp.Depth != nil && (*mp.Depth < 1 || *mp.Depth > 3) {
			t.Fatalf("bad depth %d", *mp.Depth)
		}
		// And merging it onto any plan keeps the plan well formed.
		p := Merge(query.Analyze("fix the cache"), mp, "ollama:fuzz")
		if len(p.Keywords) != len(p.Terms) || p.Depth < 1 || p.Depth > 3 || !query.ValidStrategy(p.Strategy) {
			t.Fatalf("merged plan malformed: %+v", p)
		}
	})
}
