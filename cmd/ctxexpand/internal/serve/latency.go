package serve

import (
	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// LatencyWindow is how many of the last answers (and of the last edits)
// the latency figures of the status cover.
const LatencyWindow = resident.WindowSize

// latencies keeps the durations of the last queries the server answered,
// from the request read to the answer made, for serve --status.
type latencies struct{ resident.Window }
