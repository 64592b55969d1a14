package extract

import (
	"path"
	"strconv"
	"strings"
)

func unquote(s string) (string, error) { return strconv.Unquote(s) }

// GuessPkgName is the package name an import path most likely declares,
// for imports of packages that were not loaded: the last path element
// without a major-version suffix, a "go-" prefix or a ".go"/"-go" suffix
// ("gopkg.in/yaml.v3" → yaml, "github.com/go-chi/chi/v5" → chi).
func GuessPkgName(p string) string {
	elem := path.Base(p)
	if isMajorVersion(elem) {
		if dir := path.Dir(p); dir != "." && dir != "/" {
			elem = path.Base(dir)
		}
	}
	if i := strings.LastIndex(elem, ".v"); i > 0 && isDigits(elem[i+2:]) {
		elem = elem[:i]
	}
	elem = strings.TrimPrefix(elem, "go-")
	elem = strings.TrimSuffix(strings.TrimSuffix(elem, "-go"), ".go")
	if i := strings.IndexAny(elem, ".-"); i > 0 {
		elem = elem[:i]
	}
	return elem
}

func isMajorVersion(s string) bool {
	return len(s) >= 2 && s[0] == 'v' && isDigits(s[1:])
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
