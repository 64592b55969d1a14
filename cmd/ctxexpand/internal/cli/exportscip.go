package cli

import (
	"bufio"
	"fmt"
	"os"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/scip"
)

// exportSCIP writes the facts' Go and Rust files as a SCIP index to path
// (ctxexpand index --export-scip), atomically: a reader never sees half a
// file.
func exportSCIP(path string, facts *analyze.Facts, io *IO) error {
	idx, st := scip.Export(facts, scip.ExportOptions{ToolVersion: versionString()})
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("writing the SCIP index: %w", err)
	}
	w := bufio.NewWriter(f)
	err = scip.WriteIndex(w, idx)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing the SCIP index %s: %w", path, err)
	}
	fmt.Fprintf(io.Out, "%s: SCIP index of %d documents, %d symbols, %d occurrences, %d relationships\n",
		path, st.Documents, st.Symbols, st.Occurrences, st.Relationships)
	return nil
}
