package ignore

import (
	"io"
	"os"
	"path/filepath"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// headSize is how much of a file is read to look for a generated-code
// header; analyze.IsGeneratedContent looks no further.
const headSize = 4096

// MatchGenerated reports whether rel, or one of its directories, matches
// one of the configured Generated patterns. It does not look at the name
// rules of analyze.Classify or at the content.
func (m *Matcher) MatchGenerated(rel string) bool {
	if m == nil || len(m.generated) == 0 {
		return false
	}
	segs := splitPath(rel)
	full := append(append([]string(nil), m.prefix...), segs...)
	for n := len(m.prefix) + 1; n <= len(full); n++ {
		for i := range m.generated {
			if m.generated[i].match(full[:n], n < len(full)) {
				return true
			}
		}
	}
	return false
}

// Classify puts a root-relative path in a category: analyze.Classify by
// name, then generated when the configured patterns say so (vendored code
// stays vendored) or when head, the start of the file's content if the
// caller has it, carries a generated-code header.
func (m *Matcher) Classify(rel string, head []byte) analyze.Category {
	cat := analyze.Classify(rel)
	if cat == analyze.CatVendored || cat == analyze.CatGenerated {
		return cat
	}
	if m.MatchGenerated(rel) || (head != nil && analyze.IsGeneratedContent(head)) {
		return analyze.CatGenerated
	}
	return cat
}

// generatedFile decides SkipGenerated for a file: by name, by pattern, or
// (for Go and Rust files) by the header of its content.
func (m *Matcher) generatedFile(rel string) bool {
	if analyze.Classify(rel) == analyze.CatGenerated || m.MatchGenerated(rel) {
		return true
	}
	if analyze.LangOf(rel) == analyze.LangUnknown || !analyze.CleanRel(rel) {
		return false
	}
	f, err := os.Open(filepath.Join(m.root, filepath.FromSlash(rel)))
	if err != nil {
		return false // the loader will say why it cannot read it
	}
	defer f.Close()
	buf := make([]byte, headSize)
	n, _ := io.ReadFull(f, buf)
	return analyze.IsGeneratedContent(buf[:n])
}
