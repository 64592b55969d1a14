package query

import "strings"

// conceptGroups are small sets of words that name the same concept in code.
// A query term in a group brings in the others as low-weight synonyms, so
// "login" also finds session and token handling. Each line is one group;
// the words are normalised with NormTerm when the table is built, and
// compound names are written as one word ("ratelimit").
const conceptGroups = `
auth login session token credential password authenticate authorize jwt oauth signin logon authn authz
db database store storage repository sql repo persist persistence
http route endpoint api router request response rest
middleware interceptor
config settings options env configuration environment flags
error err failure fail exception
cache lru ttl memoize caching
retry backoff attempt
ratelimit limiter throttle limit quota
log logger logging
race mutex lock sync atomic concurrent deadlock
start main init startup bootstrap boot launch
shutdown close stop cleanup teardown release
expire expiry ttl timeout deadline expiration
serialize marshal unmarshal encode decode json
watch watcher subscribe notify listener observer
user account member profile
delete remove purge evict
parse parser lexer scanner
`

// maxSynonyms caps the synonyms added to one plan, and
// maxSynonymsPerTerm those one term brings in (the first of its groups,
// which the table lists closest first).
const (
	maxSynonyms        = 12
	maxSynonymsPerTerm = 4
)

// synonymIndex maps a normalised term to the groups it belongs to, and
// synonymWords maps it to the first word of the table that gives it, for
// people to read ("memb" → "member").
var synonymIndex, synonymWords = buildSynonymIndex(conceptGroups)

func buildSynonymIndex(table string) (map[string][][]string, map[string]string) {
	idx := map[string][][]string{}
	words := map[string]string{}
	for _, line := range strings.Split(table, "\n") {
		var group []string
		seen := map[string]bool{}
		for _, w := range strings.Fields(line) {
			t := NormTerm(w)
			if _, ok := words[t]; !ok {
				words[t] = strings.ToLower(w)
			}
			if !seen[t] {
				seen[t] = true
				group = append(group, t)
			}
		}
		for _, t := range group {
			idx[t] = append(idx[t], group)
		}
	}
	return idx, words
}

// Synonyms returns the normalised terms that share a concept with the
// normalised term t, in table order, without t itself.
func Synonyms(t string) []string {
	var out []string
	seen := map[string]bool{t: true}
	for _, g := range synonymIndex[t] {
		for _, s := range g {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}
