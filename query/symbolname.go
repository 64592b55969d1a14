package query

import "strings"

// ParseSymbolName turns a symbol's name as a user or an agent writes it
// into an explicit symbol entity, reporting false for what is no name:
// "@UserService.FindByEmail()", "(*UserService).FindByEmail",
// "github.com/acme/svc/internal/service.NewUserService",
// "crate::store::Store::orders_of", "Vec<T>", "println!".
func ParseSymbolName(raw string) (Entity, bool) {
	name := strings.TrimSpace(raw)
	name = strings.TrimPrefix(name, "@")
	name = strings.TrimSuffix(name, "!")
	for _, suf := range []string{"()", "(...)", "(…)"} {
		name = strings.TrimSuffix(name, suf)
	}
	if i := strings.LastIndex(name, "/"); i >= 0 && !strings.Contains(name, "::") {
		name = name[i+1:] // an import path: keep the package name onward
	}
	name = stripBrackets(name)
	name = strings.NewReplacer("(*", "", "(&", "", "(", "", ")", "", "*", "", "&", "").Replace(name)
	name = strings.TrimPrefix(name, "::")
	parts := SplitSymbol(name)
	if len(parts) == 0 {
		return Entity{}, false
	}
	return Entity{Raw: strings.Join(parts, "."), Kind: EntitySymbol, Parts: parts, Explicit: true}, true
}

// stripBrackets removes generic arguments: Vec<T>, Map[K, V], Store<'a>.
func stripBrackets(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch r {
		case '<', '[':
			depth++
			continue
		case '>', ']':
			if depth > 0 {
				depth--
			}
			continue
		}
		if depth == 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}
