# ctxexpand — build, demo, test, benchmark.
GO        ?= go
BIN       := bin/ctxexpand
FUZZTIME  ?= 6s
PKGS      := ./...

.PHONY: all build demo test vet unit fuzz bench bench-speed bench-serve bench-quality clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/ctxexpand

# The main job on the sample service that ships in testdata/.
demo: build
	@echo '$$ ctxexpand --root testdata/gosvc --budget 4000 --explain "fix UserService.find_by_email"'
	@./$(BIN) --root testdata/gosvc --budget 4000 --explain "fix UserService.find_by_email"

# Every test: vet, unit and golden tests under the race detector, then each
# fuzz target for a bounded time.
test: vet unit fuzz

vet:
	$(GO) vet $(PKGS)

unit:
	$(GO) test -race -count=1 -timeout 15m $(PKGS)

fuzz:
	GO=$(GO) ./scripts/fuzz.sh $(FUZZTIME) $(PKGS)

# Speed and memory on real code (see benchmarks/README.md).
bench: build
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# Cold, warm and after-edit times and peak memory on large real
# repositories next to ripgrep, gopls and repomix, the scaling series over
# the Go trees, and the resident server's load test: writes
# benchmarks/results.md and benchmarks/speed.png. Takes a while; never part
# of make test. Pass arguments with SPEED_ARGS="-only hugo,tokio".
bench-speed:
	./benchmarks/speed.sh $(SPEED_ARGS)

# The resident server under load on a copy of testdata/gosvc: 8 clients x
# 200 queries on its socket while a file is edited all along (every
# answer checked against a fresh load, latency percentiles printed,
# resident memory after the run within 10% of after 100 queries), then a
# warm query with and without the token-count memo (BENCH_ROOT=DIR adds a
# repository of yours to the latter).
bench-serve:
	$(GO) test -count=1 -run '^TestServeLoad$$' ./cmd/ctxexpand/internal/serve -load-full
	CTXEXPAND_BENCH_ROOT=$(BENCH_ROOT) $(GO) test -run '^$$' -bench '^BenchmarkWarmQuery$$' -benchtime 100x -count 3 ./engine

clean:
	rm -rf bin
