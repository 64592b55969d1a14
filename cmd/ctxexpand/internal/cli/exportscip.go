package cli

import (
	"fmt"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/engine"
)

// exportSCIP writes the facts' Go and Rust files as a SCIP index to path
// (ctxexpand index --export-scip; engine.ExportSCIP) and says what it
// wrote.
func exportSCIP(path string, facts *analyze.Facts, io *IO) error {
	st, err := engine.ExportSCIP(path, facts, versionString())
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "%s: SCIP index of %d documents, %d symbols, %d occurrences, %d relationships\n",
		path, st.Documents, st.Symbols, st.Occurrences, st.Relationships)
	return nil
}
