package draw

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/expand"
)

func TestDOTQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`say "hi"`, `"say \"hi\""`},
		{`a\b`, `"a\\b"`},
		{"two\nlines", `"two\nlines"`},
		{"tab\there", `"tab here"`},
		{"impl<T> Display for W<T>", `"impl<T> Display for W<T>"`},
	}
	for _, tc := range tests {
		if got := dotQuote(tc.in); got != tc.want {
			t.Errorf("dotQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestMermaidText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"UserService.FindByEmail", "UserService.FindByEmail"},
		{`say "hi"`, "say #quot;hi#quot;"},
		{"Vec<T>", "Vec#lt;T#gt;"},
		{"a & b | c # d `e`", "a #amp; b #124; c #35; d #96;e#96;"},
		{"two\n  lines", "two lines"},
	}
	for _, tc := range tests {
		if got := mermaidText(tc.in); got != tc.want {
			t.Errorf("mermaidText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// hostile is the sample picture with names no language allows but a
// broken file or a macro might produce.
func hostile(t testing.TB, names ...string) *Picture {
	r := sample(t)
	res := &expand.Result{
		Seeds: []expand.Seed{r.seed(t, "Find", "entity")},
		Files: []expand.File{r.ranked(t, "store/store.go", "Get", "Put"), r.ranked(t, "svc/svc_test.go", "TestFind")},
	}
	pic := Build(r.g, res, Options{Title: `find "it" <now> & \ later`})
	for i, n := range names {
		pic.Nodes[i%len(pic.Nodes)].Label = n
	}
	return pic
}

var hostileNames = []string{`"quoted"`, "<script>alert(1)</script>", "a&b", "ctl\x01\x02", "bad\xffutf8", "#35; | `tick`", "line\nbreak", strings.Repeat("long", 40)}

// checkWriters writes pic in every format and checks each is well formed.
func checkWriters(t *testing.T, pic *Picture) {
	t.Helper()
	var dot, mmd, svg bytes.Buffer
	if err := WriteDOT(&dot, pic); err != nil {
		t.Fatal(err)
	}
	if err := WriteMermaid(&mmd, pic); err != nil {
		t.Fatal(err)
	}
	if err := WriteSVG(&svg, pic); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(dot.String(), "\n") {
		if strings.HasPrefix(line, "//") {
			if strings.Count(line, "\n") > 0 {
				t.Errorf("DOT comment spans lines: %q", line)
			}
			continue
		}
		if n := unescapedQuotes(line); n%2 != 0 {
			t.Errorf("DOT line with unbalanced quotes: %q", line)
		}
	}
	nodeLine := regexp.MustCompile(`^    n\d+\["[^"]*"\]$`)
	for _, line := range strings.Split(mmd.String(), "\n") {
		if strings.HasPrefix(line, "    ") && !nodeLine.MatchString(line) {
			t.Errorf("Mermaid node line not one quoted label: %q", line)
		}
	}
	checkXML(t, svg.String())
	if strings.Contains(svg.String(), "NaN") || strings.Contains(svg.String(), "Inf") {
		t.Errorf("SVG has non-finite numbers")
	}
}

// unescapedQuotes counts the quotes of a DOT line that open or close a
// string: those not escaped by a backslash inside a string.
func unescapedQuotes(line string) int {
	n, in := 0, false
	for i := 0; i < len(line); i++ {
		switch {
		case in && line[i] == '\\':
			i++
		case line[i] == '"':
			n++
			in = !in
		}
	}
	return n
}

func checkXML(t *testing.T, doc string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	roots, depth := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v\n%s", err, doc)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Errorf("%d root elements", roots)
	}
}

func TestWritersOnHostileNames(t *testing.T) {
	checkWriters(t, hostile(t, hostileNames...))
}

func TestWritersOnEmptyPicture(t *testing.T) {
	pic := Build(sample(t).g, &expand.Result{}, Options{Title: "nothing"})
	checkWriters(t, pic)
	var b bytes.Buffer
	if err := WriteDOT(&b, pic); err != nil || !strings.Contains(b.String(), "digraph ctxexpand {") {
		t.Errorf("empty DOT: %v\n%s", err, b.String())
	}
}

// TestSVGLayout checks the geometry: nodes do not overlap, each lies in
// its cluster's box, clusters do not overlap, everything is on the page.
func TestSVGLayout(t *testing.T) {
	pic := hostile(t)
	lo := place(pic)
	page := rect{0, 0, lo.width, lo.height}
	for i, a := range lo.nodes {
		for j := i + 1; j < len(lo.nodes); j++ {
			if a.overlaps(lo.nodes[j]) {
				t.Errorf("%s overlaps %s", pic.Nodes[i].Label, pic.Nodes[j].Label)
			}
		}
		c := lo.clusters[pic.Nodes[i].Cluster]
		if a.x < c.x || a.y < c.y || a.x+a.w > c.x+c.w || a.y+a.h > c.y+c.h {
			t.Errorf("%s %v lies outside its cluster %v", pic.Nodes[i].Label, a, c)
		}
		if !within(a, page) {
			t.Errorf("%s off the page", pic.Nodes[i].Label)
		}
		if pic.Nodes[i].Depth >= 0 && lo.col[i] != pic.Nodes[i].Depth {
			t.Errorf("%s in column %d at depth %d", pic.Nodes[i].Label, lo.col[i], pic.Nodes[i].Depth)
		}
	}
	for i, a := range lo.clusters {
		for j := i + 1; j < len(lo.clusters); j++ {
			if a.overlaps(lo.clusters[j]) {
				t.Errorf("clusters %s and %s overlap", pic.Clusters[i].Label, pic.Clusters[j].Label)
			}
		}
		if !within(a, page) {
			t.Errorf("cluster %s off the page", pic.Clusters[i].Label)
		}
	}
}

func within(r, page rect) bool {
	return r.x >= page.x && r.y >= page.y && r.x+r.w <= page.x+page.w && r.y+r.h <= page.y+page.h
}

func TestSVGDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := WriteSVG(&a, hostile(t)); err != nil {
		t.Fatal(err)
	}
	if err := WriteSVG(&b, hostile(t)); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("two SVGs of one picture differ")
	}
}

// FuzzWriters draws a picture whose node names and title are arbitrary
// text: every writer's output must stay well formed.
func FuzzWriters(f *testing.F) {
	for _, n := range hostileNames {
		f.Add(n, "title")
	}
	f.Add("", "")
	f.Fuzz(func(t *testing.T, name, title string) {
		pic := hostile(t, name, name+name)
		pic.Title = title
		checkWriters(t, pic)
	})
}

func TestControlCharactersDropped(t *testing.T) {
	in := "a\x01b\x7fc\r\xffd"
	if got, want := dotQuote(in), "\"abc\uFFFDd\""; got != want {
		t.Errorf("dotQuote = %q, want %q", got, want)
	}
	if got, want := mermaidText(in), "abc\uFFFDd"; got != want {
		t.Errorf("mermaidText = %q, want %q", got, want)
	}
	if got, want := oneLine("x\x02 \n y"), "x y"; got != want {
		t.Errorf("oneLine = %q, want %q", got, want)
	}
}
