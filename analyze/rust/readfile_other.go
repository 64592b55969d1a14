//go:build !unix

package rust

import "os"

func openNoFollow(string) (*os.File, error) { return nil, errNoFollowUnsupported }
