package urlfetch

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestAcceptedType(t *testing.T) {
	for header, ok := range map[string]bool{
		"": true, "text/html; charset=utf-8": true, "text/plain": true, "text/markdown": true,
		"application/json": true, "application/vnd.api+json": true, "application/atom+xml": true,
		"application/javascript": true, "application/x-yaml": true, "application/toml": true,
		"image/png": false, "application/octet-stream": false, "application/pdf": false,
		"application/zip": false, "video/mp4": false, "text/": false, ";;": false,
	} {
		_, err := acceptedType(header)
		if (err == nil) != ok {
			t.Errorf("acceptedType(%q) = %v, want ok=%v", header, err, ok)
		}
		if err != nil && !errors.Is(err, ErrContentType) {
			t.Errorf("acceptedType(%q) = %v, want ErrContentType", header, err)
		}
	}
}

func TestDeepHTMLFallsBackToPlainText(t *testing.T) {
	u, _ := url.Parse("https://example.test/")
	src := "<title>T</title><script>evil()</script>" + strings.Repeat("<div>", 2000) + "<p>deep <b>text</b></p><p>second</p>"
	p, err := toPage(t.Context(), "text/html", []byte(src), u)
	if err != nil {
		t.Fatal(err)
	}
	if p.Text != "deep text\nsecond" || p.Title != "T" {
		t.Errorf("page = %+v", p)
	}
}

func TestHTMLTitle(t *testing.T) {
	for src, want := range map[string]string{
		"<html><head><title>A  b</title></head></html>": "A b",
		"<title></title>": "",
		"<head></head><body><title>late</title></body>": "",
		"no html at all": "",
	} {
		if got := htmlTitle(src); got != want {
			t.Errorf("htmlTitle(%q) = %q, want %q", src, got, want)
		}
	}
}

// BenchmarkToPageHostile converts HTML built to be slow: deep nesting and
// many tiny elements, at the 1 MiB body limit.
func BenchmarkToPageHostile(b *testing.B) {
	u, _ := url.Parse("https://example.test/")
	for name, src := range map[string]string{
		"deep":  strings.Repeat("<div>", DefaultMaxBytes/10) + "x",
		"wide":  strings.Repeat("<p><b>x</b></p>", DefaultMaxBytes/15),
		"table": "<table>" + strings.Repeat("<tr><td>a</td><td>b</td></tr>", DefaultMaxBytes/30) + "</table>",
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := toPage(b.Context(), "text/html", []byte(src), u); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
