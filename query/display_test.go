package query

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTermWords(t *testing.T) {
	p := Analyze("fix UserService.find_by_email when the Handler expired")
	w := p.TermWords()
	tests := []struct {
		term, display, word string
	}{
		{"servic", "service", "service"},              // a stemmed part: the word written
		{"userservice", "userservice", "UserService"}, // an identifier: reasons lower-case it
		{"findbyemail", "find_by_email", "find_by_email"},
		{"expir", "expired", "expired"},
		{"memb", "", "member"}, // a synonym nobody wrote: left out of reasons, its table word in --explain
		{"profil", "", "profile"},
		{"zzz", "zzz", "zzz"}, // nothing to map it to
	}
	for _, tc := range tests {
		if got := w.Display(tc.term); got != tc.display {
			t.Errorf("Display(%q) = %q, want %q", tc.term, got, tc.display)
		}
		if got := w.Word(tc.term); got != tc.word {
			t.Errorf("Word(%q) = %q, want %q", tc.term, got, tc.word)
		}
	}
	// A word shown once already: the second term shows its stem.
	got := w.Words([]string{"handler", "handl", "servic", "memb"})
	if diff := cmp.Diff([]string{"Handler", "handl", "service", "member"}, got); diff != "" {
		t.Errorf("Words (-want +got):\n%s", diff)
	}
	// The zero value maps every term to itself.
	var zero TermWords
	if zero.Display("servic") != "servic" || zero.Word("servic") != "servic" {
		t.Errorf("the zero TermWords changed a term")
	}
}
