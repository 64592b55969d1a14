package serve

import (
	"testing"
	"time"
)

func TestLatencies(t *testing.T) {
	var l latencies
	if n, p50, _, _ := l.Percentiles(); n != 0 || p50 != 0 {
		t.Fatalf("empty: %d, %v", n, p50)
	}
	for i := 1; i <= 100; i++ {
		l.Add(time.Duration(i) * time.Millisecond)
	}
	n, p50, p95, p99 := l.Percentiles()
	if n != 100 || p50 != 50*time.Millisecond || p95 != 95*time.Millisecond || p99 != 99*time.Millisecond {
		t.Errorf("100 answers: n %d, p50 %v, p95 %v, p99 %v", n, p50, p95, p99)
	}
	// Past the window, the oldest answers leave it.
	for i := 0; i < LatencyWindow; i++ {
		l.Add(time.Second)
	}
	if n, p50, _, _ := l.Percentiles(); n != 100+LatencyWindow || p50 != time.Second {
		t.Errorf("after the window: n %d, p50 %v", n, p50)
	}
	if l.Count() != 100+LatencyWindow {
		t.Errorf("Count() = %d", l.Count())
	}
}
