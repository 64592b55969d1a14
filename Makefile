# ctxexpand — build, demo, test, benchmark.
GO        ?= go
BIN       := bin/ctxexpand
FUZZTIME  ?= 6s
PKGS      := ./...

.PHONY: all build demo test vet unit fuzz bench bench-speed bench-quality clean

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
# repositories next to ripgrep, gopls and repomix: writes
# benchmarks/results.md and benchmarks/speed.png. Takes a while; never part
# of make test. Pass arguments with SPEED_ARGS="-only hugo,tokio".
bench-speed:
	./benchmarks/speed.sh $(SPEED_ARGS)

clean:
	rm -rf bin
