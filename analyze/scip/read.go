package scip

import (
	"errors"
	"fmt"
	"io"
	"os"

	pb "github.com/sourcegraph/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"
)

// MaxIndexSize is the default cap on an index file's size (1 GiB): a
// larger file is refused rather than read into memory.
const MaxIndexSize = 1 << 30

// ErrNotIndex is wrapped by errors for input that is not a SCIP index.
var ErrNotIndex = errors.New("not a SCIP index")

// ReadFile reads and decodes the index at path, refusing files over
// maxSize bytes (0 means MaxIndexSize).
func ReadFile(path string, maxSize int64) (*pb.Index, error) {
	if maxSize <= 0 {
		maxSize = MaxIndexSize
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > maxSize {
		return nil, fmt.Errorf("%s: %d bytes, the limit is %d", path, st.Size(), maxSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxSize {
		return nil, fmt.Errorf("%s grew past %d bytes while reading", path, maxSize)
	}
	idx, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return idx, nil
}

// Parse decodes an index from its protobuf encoding. Input that does not
// decode, or that decodes to nothing an index holds, gives an error
// wrapping ErrNotIndex; every other oddity (bad ranges, unparsable
// symbols) is left for Load to skip item by item.
func Parse(data []byte) (*pb.Index, error) {
	var idx pb.Index
	if err := (proto.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("%w: %v (make it with an indexer such as rust-analyzer scip, scip-typescript or scip-python)", ErrNotIndex, err)
	}
	if len(data) > 0 && idx.Metadata == nil && len(idx.Documents) == 0 && len(idx.ExternalSymbols) == 0 {
		return nil, fmt.Errorf("%w: no metadata, documents or symbols", ErrNotIndex)
	}
	return &idx, nil
}
