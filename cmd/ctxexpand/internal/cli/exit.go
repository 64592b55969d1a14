package cli

import (
	"errors"
	"fmt"
)

// Exit codes; see the package documentation.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
	ExitPartial = 3
)

// usageError marks an error as the user's to fix by changing the command
// line.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// errPartial is returned after a partial result has been written.
var errPartial = errors.New("partial result: a time limit cut the analysis short")

func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue):
		return ExitUsage
	case errors.Is(err, errPartial):
		return ExitPartial
	}
	return ExitFailure
}
