package bundle

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/tokenize"
	"github.com/tiktoken-go/tokenizer"
)

// hostile is a Go file made to break output formats: backtick runs longer
// than a default fence, CDATA terminators, special-token text, invalid
// UTF-8, control characters, CRLF line ends and a very long line.
var hostile = "package hostile\r\n\r\n" +
	"// Fence shows ````` and ``` in a comment.\n" +
	"const Fence = \"```\\n````\"\n\n" +
	"// End has ]]> and ]]]]> and <![CDATA[ inside.\n" +
	"var End = `]]>` + \"]]]]>\" + `<![CDATA[`\n\n" +
	"// Special is <|endoftext|> as text.\n" +
	"const Special = \"<|endoftext|><|fim_prefix|>\"\n\n" +
	"// Bad bytes: \xff\xfe and \xc0 and a control \x01 char and \x0c form feed.\n" +
	"var Bad = \"\u2028\u2029\ufeff\"\n\n" +
	"var Long = \"" + strings.Repeat("ab", 3000) + "\"\n\n" +
	"func F() {\n\t_ = \"\\n```\\n\"\n}\n"

// propRepo writes a repository of copies of the fixtures and a hostile
// file under t.TempDir and returns its root and candidate files.
func propRepo(t *testing.T) (string, []File) {
	t.Helper()
	root := t.TempDir()
	goSrc, err := os.ReadFile(filepath.Join(fixtureRoot, "service/user.go"))
	if err != nil {
		t.Fatal(err)
	}
	rsSrc, err := os.ReadFile(filepath.Join(fixtureRoot, "store/mem.rs"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel string, data []byte) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goSyms := goSymbols(t, "service/user.go")
	var files []File
	for i := 0; i < 12; i++ {
		g := fmt.Sprintf("pkg%d/user.go", i)
		write(g, goSrc)
		files = append(files, File{Path: g, Lang: analyze.LangGo, Symbols: goSyms, Reasons: []string{"copy " + strconv.Itoa(i)}})
		r := fmt.Sprintf("crate%d/src/mem.rs", i)
		write(r, rsSrc)
		files = append(files, File{Path: r, Lang: analyze.LangRust, Symbols: rustSymbols})
	}
	write("hostile/hostile.go", []byte(hostile))
	files = append(files, File{Path: "hostile/hostile.go", Lang: analyze.LangGo, Reasons: []string{"reason with \n newline and ]]> and \"quotes\""}})
	weird := "weird dir/quote\"amp&<lt>.go"
	write(weird, goSrc)
	files = append(files, File{Path: weird, Lang: analyze.LangGo, Symbols: goSyms})
	files = append(files, File{Path: "gone/missing.rs", Lang: analyze.LangRust})
	return root, files
}

// propRequest draws a request shape: how many files, which are explicit,
// their scores and spans, extras and notes.
func propRequest(rng *rand.Rand, root string, all []File, counter tokenize.Counter, format Format, budget int) Request {
	req := Request{
		Query: "find where orders are saved " + strings.Repeat("and why ", rng.IntN(4)), Strategy: "focused",
		Commit: "0123456789abcdef0123456789abcdef01234567", Root: root, Budget: budget, Counter: counter, Format: format,
		Options: Options{Truncation: Truncation(rng.IntN(2)), ContextLines: rng.IntN(5) - 1},
	}
	shape := rng.IntN(5)
	n := len(all)
	switch shape {
	case 0: // nothing at all
		n = 0
	case 1: // a few
		n = 1 + rng.IntN(4)
	}
	perm := rng.Perm(len(all))
	for k := 0; k < n; k++ {
		f := all[perm[k]]
		f.Score = math.Round(rng.Float64()*1000) / 1000
		f.Explicit = rng.IntN(6) == 0
		for s := rng.IntN(3); s > 0; s-- {
			start := 1 + rng.IntN(90)
			f.Spans = append(f.Spans, Span{Start: start, End: start + rng.IntN(20), Symbol: "x"})
		}
		req.Files = append(req.Files, f)
	}
	// Ranked: best first.
	for i := 1; i < len(req.Files); i++ {
		for j := i; j > 0 && req.Files[j].Score > req.Files[j-1].Score; j-- {
			req.Files[j], req.Files[j-1] = req.Files[j-1], req.Files[j]
		}
	}
	if shape >= 3 {
		req.Extras = append(req.Extras, Extra{Kind: "url", Title: "@https://example.com/a?b=<c>&d", Content: strings.Repeat("Some page text with ]]> and ``` inside.\n", 1+rng.IntN(200))})
		req.Extras = append(req.Extras, Extra{Kind: "ref", Title: "@Nope", Content: "reference not found: Nope"})
	}
	if shape == 4 {
		for i := 0; i < 30; i++ {
			req.Notes = append(req.Notes, fmt.Sprintf("note %d: something odd in pkg%d", i, i))
		}
	}
	return req
}

var counterNames = []string{"o200k", "cl100k", "estimate", "claude"}

// TestBudgetProperties builds many random bundles and checks what must
// always hold: the output counts at most the budget (and exactly what the
// document says), it parses in its format, and it is byte-identical across
// runs and GOMAXPROCS settings.
func TestBudgetProperties(t *testing.T) {
	root, all := propRepo(t)
	counters := map[string]tokenize.Counter{}
	for _, n := range counterNames {
		counters[n] = newCounter(t, n)
	}
	raw := map[string]tokenizer.Codec{}
	for n, enc := range map[string]tokenizer.Encoding{"o200k": tokenizer.O200kBase, "cl100k": tokenizer.Cl100kBase} {
		c, err := tokenizer.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		raw[n] = c
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cases := 60
	if testing.Short() {
		cases = 16
	}
	for i := 0; i < cases; i++ {
		budget := int(math.Round(math.Exp(math.Log(50) + rng.Float64()*(math.Log(200000)-math.Log(50)))))
		if i < 4 {
			budget = 50 + i
		}
		format := Format(i % 4)
		cname := counterNames[rng.IntN(len(counterNames))]
		req := propRequest(rng, root, all, counters[cname], format, budget)
		name := fmt.Sprintf("%d/%s/%s/%d/files=%d", i, format, cname, budget, len(req.Files))
		t.Run(name, func(t *testing.T) {
			r, err := Build(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			out := string(r.Output)
			if got := req.Counter.Count(out); got != r.TotalTokens || got > budget {
				t.Errorf("output counts %d, result says %d, budget %d", got, r.TotalTokens, budget)
			}
			if c, ok := raw[cname]; ok {
				n, err := c.Count(out)
				if err != nil || n > budget {
					t.Errorf("unchunked %s count %d > budget %d (%v)", cname, n, budget, err)
				}
			}
			checkStatedTotal(t, format, out, r.TotalTokens)
			checkParses(t, format, out, r)
			checkExplicitFirst(t, req, r)
			again, err := Build(context.Background(), req)
			if err != nil || !bytes.Equal(again.Output, r.Output) {
				t.Errorf("second build differs")
			}
		})
	}
}

func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	root, all := propRepo(t)
	rng := rand.New(rand.NewPCG(7, 7))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for i, format := range []Format{Markdown, XML, JSON, Plain} {
		budget := []int{300, 3000, 30000, 120000}[i]
		req := propRequest(rng, root, all, newCounter(t, "o200k"), format, budget)
		var outs [][]byte
		for _, procs := range []int{1, 4, 1, 4} {
			runtime.GOMAXPROCS(procs)
			req.Counter = newCounter(t, "o200k") // a cold cache each time
			r, err := Build(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, r.Output)
		}
		for k := 1; k < len(outs); k++ {
			if !bytes.Equal(outs[0], outs[k]) {
				t.Errorf("%s: output %d differs from output 0", format, k)
			}
		}
	}
}

var statedTotal = map[Format]*regexp.Regexp{
	Markdown: regexp.MustCompile(`(?m)^Tokens (\d+)/\d+`),
	Plain:    regexp.MustCompile(`(?m)^Tokens (\d+)/\d+`),
	XML:      regexp.MustCompile(`total_tokens="(\d+)"`),
	JSON:     regexp.MustCompile(`"total_tokens":(\d+)`),
}

// checkStatedTotal checks the document states its own token count.
func checkStatedTotal(t *testing.T, f Format, out string, total int) {
	t.Helper()
	m := statedTotal[f].FindStringSubmatch(out)
	if m == nil {
		t.Errorf("no total stated in the %s output", f)
		return
	}
	if n, _ := strconv.Atoi(m[1]); n != total {
		t.Errorf("document states %d tokens, counts %d", n, total)
	}
}

func checkParses(t *testing.T, f Format, out string, r *Result) {
	t.Helper()
	switch f {
	case XML:
		dec := xml.NewDecoder(strings.NewReader(out))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("XML does not parse: %v", err)
			}
		}
	case JSON:
		var doc struct {
			Version     int `json:"version"`
			TotalTokens int `json:"total_tokens"`
			Files       []struct {
				Path     string `json:"path"`
				Rung     string `json:"rung"`
				Included bool   `json:"included"`
			} `json:"files"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("JSON does not parse: %v", err)
		}
		if doc.Version != 1 || doc.TotalTokens != r.TotalTokens {
			t.Errorf("version %d, total_tokens %d (want 1, %d)", doc.Version, doc.TotalTokens, r.TotalTokens)
		}
		for _, jf := range doc.Files {
			if jf.Included != (jf.Rung != "omitted") {
				t.Errorf("%s: included %v with rung %s", jf.Path, jf.Included, jf.Rung)
			}
		}
	case Markdown:
		if err := fencesBalance(out); err != nil {
			t.Error(err)
		}
	}
}

// fencesBalance checks every fenced block opened in a Markdown document is
// closed, by the CommonMark rule: a closing fence is a line of at least as
// many backticks as the opening one and nothing else.
func fencesBalance(doc string) error {
	open := ""
	for i, line := range strings.Split(doc, "\n") {
		run := len(line) - len(strings.TrimLeft(line, "`"))
		if open == "" {
			if run >= 3 {
				open = line[:run]
			}
			continue
		}
		if run >= len(open) && strings.TrimSpace(line[run:]) == "" {
			open = ""
			continue
		}
		_ = i
	}
	if open != "" {
		return fmt.Errorf("a %s fence is never closed", open)
	}
	return nil
}

// checkExplicitFirst checks no implicit file took tokens an explicit file
// needed: an explicit file below its best rung could not have afforded
// the next rung even with every implicit file's tokens and the leftover.
func checkExplicitFirst(t *testing.T, req Request, r *Result) {
	t.Helper()
	implicit := 0
	for _, f := range r.Files {
		if !f.Explicit {
			implicit += f.Tokens
		}
	}
	if implicit == 0 {
		return
	}
	spare := implicit + r.Budget - r.TotalTokens + 16 // 16: the frame's counts may shift
	for _, f := range r.Files {
		if !f.Explicit || f.Truncated {
			continue
		}
		for rg := f.Rung + 1; rg < numRungs; rg++ {
			if c := f.Costs[rg]; c > 0 && c-f.Tokens <= spare-16 && c-f.Tokens < implicit {
				t.Errorf("explicit %s at %s while implicit files took %d tokens; %s costs %d more",
					f.Path, f.Rung, implicit, rg, c-f.Tokens)
			}
		}
	}
}

// TestMinimalDocumentFits checks that a 50-token budget always yields a
// valid document, whatever the format and counter, for a request with many
// files, notes and extras.
func TestMinimalDocumentFits(t *testing.T) {
	root, all := propRepo(t)
	for _, format := range []Format{Markdown, XML, JSON, Plain} {
		for _, cname := range counterNames {
			req := Request{Query: strings.Repeat("long query ", 50), Strategy: "broad",
				Commit: "0123456789abcdef0123456789abcdef01234567", Root: root, Budget: 50,
				Counter: newCounter(t, cname), Format: format, Files: all,
				Extras: []Extra{{Kind: "url", Title: "@https://example.com", Content: strings.Repeat("text\n", 500)}}}
			for i := 0; i < 150; i++ {
				req.Notes = append(req.Notes, "a note")
			}
			r, err := Build(context.Background(), req)
			if err != nil {
				t.Errorf("%s/%s: %v", format, cname, err)
				continue
			}
			if r.TotalTokens > 50 {
				t.Errorf("%s/%s: %d tokens", format, cname, r.TotalTokens)
			}
			checkParses(t, format, string(r.Output), r)
		}
	}
}

// TestSomethingShownWhenItFits sweeps budgets over a few files and
// extras: a bundle may show nothing only when no file's cheapest shown
// rung fits beside the frame. Re-planning once cut the allowance by the
// overshoot alone, and a plan that had left more room than that came back
// unchanged until the attempts ran out and the bundle fell back to its
// frame: a review at 900 tokens showed none of its four files.
func TestSomethingShownWhenItFits(t *testing.T) {
	root, all := propRepo(t)
	for _, format := range []Format{Markdown, XML, JSON, Plain} {
		for budget := 120; budget <= 1600; budget += 23 {
			req := Request{Query: "where are orders saved", Strategy: "focused",
				Commit: "0123456789abcdef0123456789abcdef01234567", Root: root, Budget: budget,
				Counter: newCounter(t, "o200k"), Format: format, Files: all[:5],
				Extras: []Extra{{Kind: "diff", Title: "the change", Content: "-old line\n+new line\n"}}}
			req.Files[0].Explicit = true
			r, err := Build(context.Background(), req)
			if err != nil {
				t.Fatalf("%s/%d: %v", format, budget, err)
			}
			shown := r.Counts.Included > 0
			for _, x := range r.Extras {
				shown = shown || x.Rung > RungOmitted
			}
			if shown {
				continue
			}
			// The frame of a document with files in costs more than the
			// empty one; twice the empty document and a tenth of the
			// budget cover that.
			room := budget - 2*r.TotalTokens - budget/10
			for _, f := range r.Files {
				for rung, c := range f.Costs {
					if Rung(rung) > RungOmitted && c > 0 && c <= room {
						t.Errorf("%s/%d: nothing shown, yet %s costs %d at rung %v (room %d)", format, budget, f.Path, c, Rung(rung), room)
					}
				}
			}
		}
	}
}
