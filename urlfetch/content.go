package urlfetch

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"net/url"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// textTypes are the media types outside text/* that hold text.
var textTypes = map[string]bool{
	"application/json": true, "application/ld+json": true, "application/x-ndjson": true,
	"application/xml": true, "application/xhtml+xml": true, "application/rss+xml": true,
	"application/atom+xml": true, "application/javascript": true, "application/x-javascript": true,
	"application/ecmascript": true, "application/yaml": true, "application/x-yaml": true,
	"application/toml": true, "application/x-toml": true, "application/x-sh": true,
	"application/graphql": true, "application/sql": true,
}

// acceptedType returns the media type of a Content-Type header if it is
// text-like. A missing header is accepted as text/plain and the body is
// checked for binary content later.
func acceptedType(header string) (string, error) {
	if strings.TrimSpace(header) == "" {
		return "text/plain", nil
	}
	media, _, err := mime.ParseMediaType(header)
	if err != nil {
		return "", fmt.Errorf("%w: unparsable %q", ErrContentType, header)
	}
	switch {
	case strings.HasPrefix(media, "text/"), textTypes[media],
		strings.HasSuffix(media, "+json"), strings.HasSuffix(media, "+xml"):
		return media, nil
	}
	return "", fmt.Errorf("%w: %s", ErrContentType, media)
}

// toPage turns a body into a Page: HTML becomes Markdown with its title;
// other text is kept as is. Binary bodies are refused whatever the header
// said; invalid UTF-8 is replaced.
func toPage(ctx context.Context, media string, body []byte, final *url.URL) (*Page, error) {
	if analyze.IsBinary(body) {
		return nil, fmt.Errorf("%w: the body is binary", ErrContentType)
	}
	p := &Page{ContentType: media, Bytes: len(body)}
	if media != "text/html" && media != "application/xhtml+xml" {
		p.Text = analyze.ToValidUTF8(string(body))
		return p, nil
	}
	src := analyze.ToValidUTF8(string(body))
	p.Title = htmlTitle(src)
	md, err := htmltomarkdown.ConvertString(src,
		converter.WithContext(ctx),
		converter.WithDomain(final.Scheme+"://"+final.Host),
	)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("converting HTML to text: %w", ctx.Err())
		}
		// The HTML parser refuses some hostile pages (nesting deeper
		// than 512 elements); their text is still worth having.
		md = plainText(src)
	}
	p.Text = strings.TrimSpace(md)
	return p, nil
}

// skipText are elements whose content is not text for a reader.
var skipText = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "svg": true, "iframe": true, "head": true, "title": true}

// blockTags end a line of text.
var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "tr": true, "h1": true, "h2": true, "h3": true,
	"h4": true, "h5": true, "h6": true, "pre": true, "section": true, "article": true, "table": true,
	"ul": true, "ol": true, "blockquote": true, "hr": true, "dt": true, "dd": true,
}

// plainText extracts the text of an HTML document with the streaming
// tokenizer, which has no nesting limit: one line per block element.
func plainText(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	var b strings.Builder
	skip := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return collapseBlankLines(b.String())
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if skipText[tag] && tt != html.SelfClosingTagToken {
				if tt == html.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
			}
			if blockTags[tag] {
				b.WriteByte('\n')
			}
		case html.TextToken:
			if skip == 0 {
				b.WriteString(strings.Join(strings.Fields(string(z.Text())), " "))
				b.WriteByte(' ')
			}
		}
	}
}

// collapseBlankLines trims each line and drops empty ones.
func collapseBlankLines(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// htmlTitle returns the text of the first <title> element.
func htmlTitle(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			name, _ := z.TagName()
			if !bytes.Equal(name, []byte("title")) {
				continue
			}
			if z.Next() == html.TextToken {
				return strings.Join(strings.Fields(string(z.Text())), " ")
			}
			return ""
		case html.EndTagToken:
			if name, _ := z.TagName(); bytes.Equal(name, []byte("head")) {
				return ""
			}
		}
	}
}
