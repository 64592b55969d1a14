package tokenize

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiktoken-go/tokenizer"
)

func TestNewNames(t *testing.T) {
	tests := []struct {
		name     string
		opts     []Option
		wantName string
		wantErr  error
	}{
		{name: "", wantName: "o200k_base"},
		{name: "o200k", wantName: "o200k_base"},
		{name: " O200K_BASE ", wantName: "o200k_base"},
		{name: "cl100k", wantName: "cl100k_base"},
		{name: "cl100k_base", wantName: "cl100k_base"},
		{name: "estimate", wantName: "estimate"},
		{name: "claude", wantName: "claude:o200k_base*1.2"},
		{name: "claude", opts: []Option{WithMargin(1.1)}, wantName: "claude:o200k_base*1.1"},
		{name: "claude", opts: []Option{WithMargin(1)}, wantName: "claude:o200k_base"},
		{name: "o200k", opts: []Option{WithMargin(1.15)}, wantName: "o200k_base*1.15"},
		{name: "estimate", opts: []Option{WithMargin(2)}, wantName: "estimate*2"},
		{name: "gpt2", wantErr: ErrUnknownTokenizer},
		{name: "o200k", opts: []Option{WithMargin(0.5)}, wantErr: ErrBadMargin},
		{name: "o200k", opts: []Option{WithMargin(5)}, wantErr: ErrBadMargin},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.wantName, func(t *testing.T) {
			c, err := New(tt.name, tt.opts...)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("New(%q) error = %v, want %v", tt.name, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%q): %v", tt.name, err)
			}
			if got := c.Name(); got != tt.wantName {
				t.Errorf("Name() = %q, want %q", got, tt.wantName)
			}
		})
	}
}

func TestUnknownNameListsValidOnes(t *testing.T) {
	_, err := New("p50k")
	if err == nil {
		t.Fatal("New(p50k) succeeded")
	}
	for _, n := range Names() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not mention %q", err, n)
		}
	}
}

func rawCount(t testing.TB, enc tokenizer.Encoding, s string) int {
	t.Helper()
	c, err := tokenizer.Get(enc)
	if err != nil {
		t.Fatal(err)
	}
	c.SetErrorMode(tokenizer.ErrorModeReplace)
	n, err := c.Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestExactCounts(t *testing.T) {
	texts := map[string]string{
		"empty":         "",
		"word":          "hello",
		"sentence":      "The quick brown fox jumps over the lazy dog.\n",
		"special":       "before <|endoftext|> after <|endofprompt|> <|fim_prefix|>\n",
		"special-alone": "<|endoftext|>",
		"go":            "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"comments":      "}\n// Doc says\n// more\nfunc F() {}\n\n\n  \nx := 1\n/* c */\n",
		"unicode":       "naïve café — 日本語のテキスト 🙂\n",
		"invalid":       "a\xffb\xc0\n\xe2\x82\n",
		"crlf":          "line one\r\nline two\r\n\r\n}\r\n",
	}
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		c, err := New(string(enc))
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range texts {
			t.Run(string(enc)+"/"+name, func(t *testing.T) {
				want := rawCount(t, enc, s)
				for i := 0; i < 2; i++ { // cold, then cached
					if got := c.Count(s); got != want {
						t.Errorf("pass %d: Count = %d, want %d", i, got, want)
					}
				}
			})
		}
	}
}

func TestSpecialTokensAreText(t *testing.T) {
	c, err := New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	// As a special token "<|endoftext|>" would be one token; as text it is
	// several.
	if n := c.Count("<|endoftext|>"); n < 3 {
		t.Errorf("Count(<|endoftext|>) = %d, want the ordinary-text count (>= 3)", n)
	}
}

// repoFiles returns Go files of this repository, real text to count.
func repoFiles(t testing.TB) map[string]string {
	t.Helper()
	paths, _ := filepath.Glob("../analyze/*.go")
	more, _ := filepath.Glob("*.go")
	paths = append(paths, more...)
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(b)
	}
	if len(out) < 5 {
		t.Fatalf("found only %d files", len(out))
	}
	return out
}

// TestChunkedCountIsExact checks the additivity the chunking relies on:
// counting chunk by chunk gives the codec's count of the whole.
func TestChunkedCountIsExact(t *testing.T) {
	files := repoFiles(t)
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		c, err := New(string(enc), WithCacheSize(-1))
		if err != nil {
			t.Fatal(err)
		}
		for p, s := range files {
			if got, want := c.Count(s), rawCount(t, enc, s); got != want {
				t.Errorf("%s %s: chunked %d, whole %d", enc, p, got, want)
			}
			if got := strings.Join(SplitAdditive(s), ""); got != s {
				t.Errorf("%s: SplitAdditive does not concatenate back", p)
			}
		}
	}
}

func TestSafeStart(t *testing.T) {
	tests := map[string]bool{
		"func": true, "}": true, "#": true, "<": true, "{": true, "é": true, "日": true,
		" x": true, "\tx": true, "\t\treturn nil\n": true, "\u00a0x": true, "\t// comment": true, "  \xffx": true,
		"": false, "/": false, "// x": false, "\n": false, "\t\n\tx": false, "   ": false, " \r\nx": false,
		"\r\n": false, "\u2028": false, "\u3000": false, "\x85": false, "\xff": false, "\u00a0\n": false,
	}
	for s, want := range tests {
		if got := SafeStart(s); got != want {
			t.Errorf("SafeStart(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestConcurrentCountsAgree(t *testing.T) {
	files := repoFiles(t)
	var texts []string
	for _, s := range files {
		texts = append(texts, s)
	}
	c, err := New("o200k", WithCacheSize(64)) // small: forces eviction under load
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, len(texts))
	for i, s := range texts {
		want[i] = rawCount(t, tokenizer.O200kBase, s)
	}
	var wg sync.WaitGroup
	got := make([][]int, 4)
	for g := range got {
		got[g] = make([]int, len(texts))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := 0; rep < 3; rep++ {
				for i := range texts {
					j := (i + g) % len(texts)
					got[g][j] = c.Count(texts[j])
				}
			}
		}()
	}
	wg.Wait()
	for g := range got {
		if diff := cmp.Diff(want, got[g]); diff != "" {
			t.Errorf("goroutine %d counts (-want +got):\n%s", g, diff)
		}
	}
}

func TestCacheIsBounded(t *testing.T) {
	c := newCache(64)
	for i := 0; i < 10000; i++ {
		s := strings.Repeat("x", i)
		c.put(c.key(s), i)
	}
	if n := c.len(); n > 64 {
		t.Errorf("cache holds %d entries, limit 64", n)
	}
	// The newest entries survive.
	if n, ok := c.get(c.key(strings.Repeat("x", 9999))); !ok || n != 9999 {
		t.Errorf("newest entry: got %d, %v", n, ok)
	}
	if _, ok := c.get(c.key("")); ok {
		t.Error("oldest entry was not evicted")
	}
}

func TestMargin(t *testing.T) {
	est, _ := New("estimate")
	tests := []struct {
		margin float64
		text   string
	}{
		{1.2, "FindByEmail(ctx, email)\n"},
		{1.15, strings.Repeat("word ", 37)},
		{2, "x"},
		{1.2, ""},
	}
	for _, tt := range tests {
		c, err := New("estimate", WithMargin(tt.margin))
		if err != nil {
			t.Fatal(err)
		}
		base := est.Count(tt.text)
		got := c.Count(tt.text)
		if float64(got) < float64(base)*tt.margin-1e-9 || float64(got) >= float64(base)*tt.margin+1 {
			t.Errorf("margin %v on %d tokens gave %d", tt.margin, base, got)
		}
	}
	// 10 * 1.2 is exactly 12, not 13.
	s := &scaled{base: fixed(10), factor: 1.2}
	if got := s.Count(""); got != 12 {
		t.Errorf("10 x 1.2 = %d, want 12", got)
	}
}

type fixed int

func (f fixed) Count(string) int { return int(f) }
func (f fixed) Name() string     { return "fixed" }

func TestDescribeCoversNames(t *testing.T) {
	text := strings.Join(Describe(), "\n")
	for _, n := range Names() {
		if !strings.Contains(text, n) {
			t.Errorf("Describe does not mention %q", n)
		}
	}
}

// TestGroupsAreContentDefined checks what the chunk cache relies on: a
// group ends only at a seam, and where groups end inside a text does not
// depend on what comes before it, once one group has ended inside it. So
// a file's lines are looked up as the same groups whether the file is
// counted alone, as a slice of itself, or after a header.
func TestGroupsAreContentDefined(t *testing.T) {
	files := repoFiles(t)
	seams, grouped := 0, 0
	for p, s := range files {
		ends := groupEnds(s)
		for _, e := range ends[:len(ends)-1] {
			if !SafeStart(s[e:]) && !(s[e] == '\\' && isASCIILetter(s[e-1])) {
				t.Fatalf("%s: a group ends at %d, which is not a seam", p, e)
			}
		}
		seams += len(SplitAdditive(s))
		grouped += len(ends)
		if len(ends) < 3 {
			continue
		}
		// The same text after a header and with its first lines cut:
		// from the first group end inside the original on, the ends
		// agree.
		cut := strings.IndexByte(s, '\n') + 1
		shifted := "// a header line\npackage other\n" + s[cut:]
		off := len(shifted) - len(s)
		want := map[int]bool{}
		for _, e := range ends {
			if e > cut {
				want[e+off] = true
			}
		}
		first := -1
		for _, e := range groupEnds(shifted) {
			if e-off > cut && want[e] {
				first = e
				break
			}
		}
		if first < 0 {
			t.Errorf("%s: no group end shared after a header", p)
			continue
		}
		for _, e := range groupEnds(shifted) {
			if e >= first && !want[e] {
				t.Errorf("%s: after a header, a group ends at %d where the file alone has none", p, e-off)
				break
			}
		}
	}
	// Groups hold several lines on average: the point of grouping.
	if grouped*2 > seams {
		t.Errorf("%d groups for %d seam chunks: groups too small", grouped, seams)
	}
}

// groupEnds returns the end offsets of s's groups (nextGroup), the last
// being len(s).
func groupEnds(s string) []int {
	var ends []int
	for at := 0; at < len(s); {
		at += nextGroup(s[at:])
		ends = append(ends, at)
	}
	return ends
}
