package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// Metrics in the Prometheus text format (serve --metrics ADDR): the
// figures serve --status shows, for a scraper: queries and their
// latency, the generation, resident memory, the last load's duration,
// and the engine's figures (figures.go): the token-count memo's hits and
// misses, edit-to-fresh-answer latency, the files the last update
// analysed again.

// metrics are a server's collectors, on a registry of their own.
type metrics struct {
	reg     *prometheus.Registry
	latency prometheus.Histogram
}

func newMetrics(s *server) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.latency = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "ctxexpand_query_duration_seconds",
		Help:    "Time from reading a query to making its answer.",
		Buckets: []float64{0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2},
	})
	m.reg.MustRegister(
		m.latency,
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "ctxexpand_queries_total", Help: "Queries answered."},
			func() float64 { return float64(s.lat.Count()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ctxexpand_generation", Help: "Generation of the index the server answers from."},
			func() float64 { return float64(s.eng.Status().Gen) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ctxexpand_resident_memory_bytes", Help: "Resident set size of the server."},
			func() float64 { return float64(resident.RSS()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ctxexpand_last_load_seconds", Help: "Duration of the last load of the index."},
			func() float64 { return s.eng.Status().LoadTook.Seconds() }),
		newFigureCollector(s.eng), // figures.go
	)
	return m
}

// serve answers scrapes on ln until ctx ends.
func (m *metrics) serve(ctx context.Context, ln net.Listener, logf func(string, ...any)) {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: ioTimeout}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logf("metrics: %v", err)
	}
}

// ListenMetrics opens addr for serve --metrics. Only loopback addresses
// are accepted: the figures name the repository's root and say what the
// machine's user is doing.
func ListenMetrics(addr string) (net.Listener, error) {
	if err := CheckMetricsAddr(addr); err != nil {
		return nil, err
	}
	return net.Listen("tcp", addr)
}

// CheckMetricsAddr reports whether addr is a loopback HOST:PORT.
func CheckMetricsAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--metrics %q: want HOST:PORT, such as 127.0.0.1:9464", addr)
	}
	if host != "localhost" {
		ip := net.ParseIP(host)
		if ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("--metrics %q: only a loopback address (127.0.0.1, [::1], localhost) is served", addr)
		}
	}
	return nil
}
