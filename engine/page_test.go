package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/bundle"
)

func fileAt(path string, rung bundle.Rung) bundle.FileResult {
	return bundle.FileResult{Path: path, Rung: rung, Included: rung > bundle.RungOmitted}
}

func TestHeldFiles(t *testing.T) {
	tests := []struct {
		name  string
		files []bundle.FileResult
		want  []string
	}{
		{"spans and full are held", []bundle.FileResult{fileAt("a", bundle.RungFull), fileAt("b", bundle.RungSkeleton), fileAt("c", bundle.RungSpans), fileAt("d", bundle.RungOmitted)}, []string{"a", "c"}},
		{"only skeletons: they count", []bundle.FileResult{fileAt("a", bundle.RungSkeleton), fileAt("b", bundle.RungSummary), fileAt("c", bundle.RungOmitted)}, []string{"a", "b"}},
		{"nothing shown", []bundle.FileResult{fileAt("a", bundle.RungOmitted)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := heldFiles(&bundle.Result{Files: tc.files})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
