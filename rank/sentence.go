package rank

import "strings"

// Sentence says a contribution in words, for reasons ("mentions token,
// expiry", "demoted: test"); "" when there is nothing to say.
func Sentence(c Contrib) string {
	switch c.What {
	case "explicit", "seed", "graph":
		return c.Detail
	case "lexical":
		if c.Detail == "" {
			return "matches related words"
		}
		return "mentions " + c.Detail
	case "symbol_lexical":
		return "best matching symbol " + c.Detail
	case "path":
		return "path matches the query"
	case "commits":
		return "changed by a similar past commit: " + c.Detail
	case "category":
		return "demoted: " + strings.TrimSuffix(c.Detail, " (factor)")
	case "history", "cochange":
		return c.Detail
	}
	return ""
}
