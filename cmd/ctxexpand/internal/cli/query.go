package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxQueryFileBytes caps what --query-file reads: a query is a task in
// words, and a larger file is more likely a mistake (a binary, the wrong
// file) than a query.
const maxQueryFileBytes = 1 << 20

// queryInput is how a command that takes a query gets it: the words of
// the command line joined by spaces, or the whole of --query-file. A query
// that starts with a dash goes after "--" or into the file.
type queryInput struct {
	File string
}

func (q *queryInput) addFlag(f *pflag.FlagSet) {
	f.StringVar(&q.File, "query-file", "", `read the query from this file ("-": standard input), whole, instead of from the command line`)
}

// query returns the query of a run: the file's text when --query-file
// names one (less one trailing line break), else args joined by spaces.
// missing is the usage error's text when there is neither.
func (q *queryInput) query(streams *IO, args []string, missing string) (string, error) {
	if q.File == "" {
		if len(args) == 0 {
			return "", usagef("%s", missing)
		}
		return strings.Join(args, " "), nil
	}
	if len(args) > 0 {
		return "", usagef("--query-file and a QUERY on the command line conflict: give the query one way (got --query-file %s and %q)", q.File, strings.Join(args, " "))
	}
	var r io.Reader
	name := q.File
	if name == "-" {
		r, name = streams.In, "standard input"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return "", usagef("--query-file: %v", err)
		}
		defer f.Close()
		r = f
	}
	data, err := readAtMost(r, maxQueryFileBytes)
	if errors.Is(err, errTooLong) {
		return "", usagef("--query-file: %s holds more than %d bytes; a query is a task in words", name, maxQueryFileBytes)
	}
	if err != nil {
		return "", fmt.Errorf("reading the query from %s: %w", name, err)
	}
	s := string(data)
	if t, ok := strings.CutSuffix(s, "\r\n"); ok {
		s = t
	} else {
		s = strings.TrimSuffix(s, "\n")
	}
	if strings.TrimSpace(s) == "" {
		return "", usagef("--query-file: %s holds no query", name)
	}
	return s, nil
}

var errTooLong = errors.New("too long")

// readAtMost reads r to its end, failing with errTooLong past limit bytes.
func readAtMost(r io.Reader, limit int64) ([]byte, error) {
	if r == nil {
		return nil, nil
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errTooLong
	}
	return data, nil
}

// queryFlagError is the flag error of a command that takes a query: an
// unknown flag there is most often a query that starts with a dash, so
// the error says how to pass one.
func queryFlagError(cmd *cobra.Command, err error) error {
	unknown := strings.HasPrefix(err.Error(), "unknown flag") || strings.HasPrefix(err.Error(), "unknown shorthand flag")
	// Commands without a query inherit this from the root.
	if unknown && cmd.Flags().Lookup("query-file") != nil {
		name := cmd.CommandPath()
		return usagef("%v (a query that starts with a dash goes after --, as in %s -- \"-X …\", or in --query-file)", err, name)
	}
	return usageError{err}
}
