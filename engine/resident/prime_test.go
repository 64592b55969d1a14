package resident_test

import (
	"context"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// primed waits until the current generation's files are primed, and
// returns the Repo's figures then.
func primed(t *testing.T, e *resident.Repo, snap *resident.Snapshot) resident.Figures {
	t.Helper()
	for {
		st := e.Status()
		if st.PrimedGen == snap.Gen {
			if n := len(snap.Session.Facts.Files); st.Primed != n {
				t.Errorf("generation %d: %d of %d files primed", snap.Gen, st.Primed, n)
			}
			return st.Figures
		}
		time.Sleep(5 * time.Millisecond) // the suite's watchdog bounds the wait
	}
}

// TestPriming: once a generation is ready, its files are prepared for
// queries in the background. Priming fills the token memo without
// counting as its hits or misses, a query then finds the counts of the
// files' texts there, and answers byte for byte as a Repo that never
// primes does. An edit primes the new generation.
func TestPriming(t *testing.T) {
	root := gosvc(t)
	e := start(t, root, nil)
	bare := start(t, root, func(o *resident.Options) { o.NoPrime = true; o.TokenMemoSize = -1 })
	req := engine.Request{Query: "fix UserService.find_by_email for mixed-case addresses", Budget: 3000, Format: "json", NoNetwork: true}

	snap, err := e.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f := primed(t, e, snap)
	if f.TokenHits != 0 || f.TokenMisses != 0 {
		t.Errorf("priming counted in the memo's figures: %d hits, %d misses", f.TokenHits, f.TokenMisses)
	}
	if f.TokenEntries == 0 {
		t.Errorf("priming %d files left the token memo empty", f.Primed)
	}
	out, _, err := e.Query(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if f := e.Status().Figures; f.TokenHits == 0 {
		t.Errorf("the first query after priming found no count in the memo (%d misses)", f.TokenMisses)
	}
	want, _, err := bare.Query(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Bundle) != string(want.Bundle) {
		t.Errorf("a primed Repo answers otherwise:\n--- primed\n%s\n--- never primed\n%s", out.Bundle, want.Bundle)
	}
	if st := bare.Status(); st.PrimedGen != 0 {
		t.Errorf("NoPrime primed %d files", st.Primed)
	}

	write(t, root, "internal/models/user.go", "package models\n\n// User is an account.\ntype User struct{ ID int }\n")
	if _, _, err := e.Query(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	snap2, err := e.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if snap2.Gen == snap.Gen {
		t.Fatalf("the edit made no new generation")
	}
	primed(t, e, snap2)
}
