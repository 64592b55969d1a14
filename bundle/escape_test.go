package bundle

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/google/go-cmp/cmp"
)

// sectionFor renders content as a file section of format f.
func sectionFor(f Format, path, content string) string {
	fm, _ := formatterFor(f)
	s := &section{path: path, lang: "go", score: 0.5, rung: RungFull, content: content,
		reasons: []string{"reason ]]> with \"quotes\" & <tags>"}}
	return fm.file(s)
}

// mdContent extracts the body of the first fenced block of a Markdown
// text by the CommonMark closing rule.
func mdContent(doc string) (string, error) {
	lines := strings.SplitAfter(doc, "\n")
	for i, l := range lines {
		run := len(l) - len(strings.TrimLeft(l, "`"))
		if run < 3 {
			continue
		}
		var body strings.Builder
		for _, m := range lines[i+1:] {
			r := len(m) - len(strings.TrimLeft(m, "`"))
			if r >= run && strings.TrimSpace(m[r:]) == "" {
				return body.String(), nil
			}
			body.WriteString(m)
		}
		return "", errors.New("fence not closed")
	}
	return "", errors.New("no fence")
}

// xmlContent parses an XML file section and returns the text of <file>.
func xmlContent(sec string) (string, map[string]string, error) {
	dec := xml.NewDecoder(strings.NewReader("<context>" + sec + "</context>"))
	var text strings.Builder
	attrs := map[string]string{}
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return text.String(), attrs, nil
		}
		if err != nil {
			return "", nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			if tok.Name.Local == "file" {
				for _, a := range tok.Attr {
					attrs[a.Name.Local] = a.Value
				}
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 2 {
				text.Write(tok)
			}
		}
	}
}

// xmlExpected is what a parser gives back for content: characters XML
// does not allow as U+FFFD, line ends normalised.
func xmlExpected(content string) string {
	s := strings.Map(xmlValid, content)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func jsonContent(sec string) (string, error) {
	var f struct {
		Content string `json:"content"`
	}
	err := json.Unmarshal([]byte(strings.TrimSuffix(sec, ",\n")), &f)
	return f.Content, err
}

var escapeCases = map[string]string{
	"plain":           "package x\n",
	"triple backtick": "s := `\n```\n`\n",
	"long runs":       "a ```` b\n``````\n`\n",
	"fence at start":  "```go\nfunc F() {}\n```\n",
	"only backticks":  "``````````\n",
	"cdata end":       "x := \"]]>\"\n",
	"nested cdata":    "<![CDATA[ a ]]> b ]]]]> c ]]\n]]>\n",
	"ends with ]]":    "tail ]]\n",
	"xml specials":    "a < b && c > d \"q\" 'r'\n",
	"controls":        "bell \x07 esc \x1b ff \x0c nul-free\n",
	"crlf":            "a\r\nb\r\n",
	"separators":      "ls \u2028 ps \u2029 bom \ufeff nonchar \uffff\n",
}

func TestFenceEscaping(t *testing.T) {
	for name, content := range escapeCases {
		t.Run(name, func(t *testing.T) {
			got, err := mdContent(sectionFor(Markdown, "a.go", content))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(content, got); diff != "" {
				t.Errorf("content after the fence (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCDATAEscaping(t *testing.T) {
	for name, content := range escapeCases {
		t.Run(name, func(t *testing.T) {
			got, attrs, err := xmlContent(sectionFor(XML, `p"a<t>h&.go`, content))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(xmlExpected(content), got); diff != "" {
				t.Errorf("CDATA content (-want +got):\n%s", diff)
			}
			if attrs["path"] != `p"a<t>h&.go` || attrs["reasons"] != "reason ]]> with \"quotes\" & <tags>" {
				t.Errorf("attributes did not survive: %q", attrs)
			}
		})
	}
}

func TestJSONEscaping(t *testing.T) {
	for name, content := range escapeCases {
		t.Run(name, func(t *testing.T) {
			got, err := jsonContent(sectionFor(JSON, "a.go", content))
			if err != nil {
				t.Fatal(err)
			}
			if got != content {
				t.Errorf("content = %q, want %q", got, content)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a.go", "a.go"},
		{"a\nb", `a\nb`},
		{"tab\there\r", `tab\there\r`},
		{"bell\x07", `bell\a`},
		{"ls\u2028", `ls\u2028`},
		{"bad\xff", "bad\uFFFD"},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in, 0); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := oneLine("abcdef", 3); got != "abc…" {
		t.Errorf("cut: %q", got)
	}
}

// FuzzEscaping checks that any content survives every format: the
// Markdown fence cannot be closed early, XML parses and gives the content
// back from CDATA, JSON gives it back exactly.
func FuzzEscaping(f *testing.F) {
	for _, c := range escapeCases {
		f.Add(c, "dir/a.go")
	}
	f.Add("]]]]]>>>", "]]>")
	f.Add("````\n```\n", "`path`\n")
	f.Fuzz(func(t *testing.T, raw, path string) {
		content := analyze.ToValidUTF8(raw)
		if content != "" && !strings.HasSuffix(content, "\n") {
			content += "\n"
		}
		md := sectionFor(Markdown, path, content)
		if got, err := mdContent(md); err != nil || got != content {
			t.Fatalf("markdown: got %q, %v; want %q", got, err, content)
		}
		if got, _, err := xmlContent(sectionFor(XML, path, content)); err != nil || got != xmlExpected(content) {
			t.Fatalf("xml: got %q, %v; want %q", got, err, xmlExpected(content))
		}
		if got, err := jsonContent(sectionFor(JSON, path, content)); err != nil || got != content {
			t.Fatalf("json: got %q, %v", got, err)
		}
		if strings.ContainsAny(oneLine(path, 0), "\n\r") {
			t.Fatalf("oneLine(%q) spans lines", path)
		}
	})
}

// TestFencesBalanceDetects makes sure the property check can fail.
func TestFencesBalanceDetects(t *testing.T) {
	if err := fencesBalance("```go\ncode\n```\n"); err != nil {
		t.Errorf("balanced: %v", err)
	}
	for _, bad := range []string{"```go\ncode\n", "````\n```\n", "```\n``` trailing\n"} {
		if fencesBalance(bad) == nil {
			t.Errorf("%q: an open fence went unnoticed", bad)
		}
	}
}
