package rank

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// memoStore is a memStore with a TermsMemo, as a resident session's
// source is.
type memoStore struct {
	*memStore
	memo *TermsMemo
}

func (m memoStore) TermsMemo() *TermsMemo { return m.memo }

// editedSample is sample with auth/token.go (the first file once
// normalised) grown by one function: every later symbol is renumbered.
func editedSample(t *testing.T) (*analyze.Facts, Source) {
	t.Helper()
	src := mapSource{
		"service/user.go":               "package service\n\n// FindByEmail looks a user up by email.\nfunc (s *UserService) FindByEmail(email string) (*User, error) {\n\treturn s.repo.GetByEmail(normalize(email))\n}\n\ntype UserService struct{ repo Repo }\n",
		"auth/token.go":                 "package auth\n\n// Issue signs a session token that expires after ttl.\nfunc Issue(user string, ttl int) string {\n\treturn sign(user, ttl)\n}\n\n// Revoke ends a session early.\nfunc Revoke(token string) {}\n",
		"service/find_by_email_test.go": "package service\n\nfunc TestFindByEmail(t *testing.T) {}\n",
	}
	var f analyze.Facts
	su := f.AddFile(analyze.File{Path: "service/user.go", Lang: analyze.LangGo, Package: "x/service", PkgName: "service", Hash: "hash-user"})
	at := f.AddFile(analyze.File{Path: "auth/token.go", Lang: analyze.LangGo, Package: "x/auth", PkgName: "auth", Hash: "hash-token-edited"})
	tf := f.AddFile(analyze.File{Path: "service/find_by_email_test.go", Lang: analyze.LangGo, Package: "x/service", PkgName: "service", Category: analyze.CatTest, Hash: "hash-test"})
	f.AddSymbol(analyze.Symbol{Name: "FindByEmail", Container: "UserService", Kind: analyze.KindMethod, File: su, Start: 3, End: 6, DeclLine: 4, Parent: analyze.NoSym})
	f.AddSymbol(analyze.Symbol{Name: "UserService", Kind: analyze.KindStruct, File: su, Start: 8, End: 8, DeclLine: 8, Parent: analyze.NoSym})
	f.AddSymbol(analyze.Symbol{Name: "Issue", Kind: analyze.KindFunc, File: at, Start: 3, End: 6, DeclLine: 4, Parent: analyze.NoSym})
	f.AddSymbol(analyze.Symbol{Name: "Revoke", Kind: analyze.KindFunc, File: at, Start: 8, End: 9, DeclLine: 9, Parent: analyze.NoSym})
	f.AddSymbol(analyze.Symbol{Name: "TestFindByEmail", Kind: analyze.KindFunc, File: tf, Start: 3, End: 3, DeclLine: 3, Test: true, Parent: analyze.NoSym})
	f.Normalize()
	return &f, src.content(&f)
}

// TestTermsMemo builds the index of one tree, then of an edited one whose
// symbols are renumbered, through a memo: the unchanged files come from
// the memo (the store is not asked for them) and the index is the one a
// build without any cache gives, bit for bit.
func TestTermsMemo(t *testing.T) {
	ctx := context.Background()
	facts, src := sample(t)
	hashes := map[string]string{"service/user.go": "hash-user", "auth/token.go": "hash-token", "service/find_by_email_test.go": "hash-test"}
	for i := range facts.Files {
		facts.Files[i].Hash = hashes[facts.Files[i].Path]
	}
	memo := NewTermsMemo()
	st := memoStore{&memStore{Source: src, files: map[[32]byte][]byte{}}, memo}
	first, err := BuildIndex(ctx, facts, st)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := BuildIndex(ctx, facts, src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(scores(plain), scores(first)); diff != "" {
		t.Errorf("first build (-want +got):\n%s", diff)
	}
	if got := memo.Len(); got != len(facts.Files) {
		t.Fatalf("memo holds %d files after the first build, want %d", got, len(facts.Files))
	}

	edited, esrc := editedSample(t)
	if edited.Files[0].Path != "auth/token.go" || len(edited.Symbols) != len(facts.Symbols)+1 {
		t.Fatalf("the edit must renumber the other files' symbols: first file %s", edited.Files[0].Path)
	}
	st2 := memoStore{&memStore{Source: esrc, files: map[[32]byte][]byte{}}, memo}
	memo.hits = 0
	got, err := BuildIndex(ctx, edited, st2)
	if err != nil {
		t.Fatal(err)
	}
	if memo.hits != len(edited.Files)-1 || st2.fileHits+st2.fileMiss != 1 {
		t.Errorf("memo hits %d, store asked %d times; want %d and 1", memo.hits, st2.fileHits+st2.fileMiss, len(edited.Files)-1)
	}
	want, err := BuildIndex(ctx, edited, esrc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(scores(want), scores(got)); diff != "" {
		t.Errorf("after the edit (-want +got):\n%s", diff)
	}
	if a, b := encodeIndex(want), encodeIndex(got); string(a) != string(b) {
		t.Errorf("the index built through the memo differs from a fresh one")
	}

	// The edited file's old statistics are dropped a build later; the
	// index built a third time is still the same.
	again, err := BuildIndex(ctx, edited, st2)
	if err != nil {
		t.Fatal(err)
	}
	if string(encodeIndex(again)) != string(encodeIndex(want)) {
		t.Errorf("third build differs")
	}
	if n := memo.Len(); n != len(edited.Files) {
		t.Errorf("memo holds %d files, want %d (the old auth/token.go dropped)", n, len(edited.Files))
	}
}
