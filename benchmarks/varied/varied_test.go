package varied

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQueries(t *testing.T) {
	root := "../../testdata/gosvc"
	sources := []string{"cmd/usersvc/main.go", "internal/service/user.go", "internal/models/user.go", "missing.go"}
	got := Queries(root, sources, 3)
	want := []string{
		"fix main returning the wrong result",
		"how does UserService work",
		"@internal/models/user.go why does Role fail",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("queries (-want +got):\n%s", diff)
	}
}
