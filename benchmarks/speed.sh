#!/bin/sh
# Speed benchmark (make bench-speed): installs the peers that are missing,
# then runs benchmarks/speed, which builds ctxexpand itself. Arguments are
# passed on (e.g. -only hugo,tokio -warm 3). Peers that cannot be
# installed are skipped; their columns stay empty.
set -eu
cd "$(dirname "$0")/.."
PEERS="${CTXEXPAND_BENCH_PEERS:-${TMPDIR:-/tmp}/ctxexpand-bench-peers}"
mkdir -p "$PEERS/bin"

RG=$(command -v rg || true)
if [ -z "$RG" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	echo "bench-speed: installing ripgrep (Debian package)" >&2
	(apt-get install -y -qq ripgrep >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq ripgrep >/dev/null 2>&1; }) || true
	RG=$(command -v rg || true)
fi
[ -n "$RG" ] || echo "bench-speed: ripgrep unavailable; skipping it" >&2

GOPLS="$PEERS/bin/gopls"
if [ ! -x "$GOPLS" ]; then
	if command -v gopls >/dev/null 2>&1 && gopls version 2>/dev/null | grep -q 'v0.21.1'; then
		GOPLS=$(command -v gopls)
	else
		echo "bench-speed: installing gopls v0.21.1" >&2
		GOBIN="$PEERS/bin" go install golang.org/x/tools/gopls@v0.21.1 >/dev/null 2>&1 || GOPLS=""
	fi
fi
[ -n "$GOPLS" ] || echo "bench-speed: gopls unavailable; skipping it" >&2

REPOMIX="$PEERS/node_modules/.bin/repomix"
if [ ! -x "$REPOMIX" ]; then
	if command -v npm >/dev/null 2>&1; then
		echo "bench-speed: installing repomix into $PEERS" >&2
		npm install --silent --no-audit --no-fund --prefix "$PEERS" repomix@1.18.1 >/dev/null 2>&1 || true
	fi
fi
[ -x "$REPOMIX" ] || { echo "bench-speed: repomix unavailable; skipping it" >&2; REPOMIX=""; }

# ast-grep, the tree-sitter parsing floor for the Rust trees. Its npm
# package ships the native binary (a platform package it depends on).
# Not `sg`: on Debian that name is newgrp.
ASTGREP="$PEERS/node_modules/.bin/ast-grep"
if [ ! -x "$ASTGREP" ] || ! "$ASTGREP" --version 2>/dev/null | grep -q '0\.51\.1'; then
	if command -v ast-grep >/dev/null 2>&1 && ast-grep --version 2>/dev/null | grep -q '0\.51\.1'; then
		ASTGREP=$(command -v ast-grep)
	elif command -v npm >/dev/null 2>&1; then
		echo "bench-speed: installing ast-grep into $PEERS" >&2
		npm install --silent --no-audit --no-fund --prefix "$PEERS" @ast-grep/cli@0.51.1 >/dev/null 2>&1 || true
	fi
fi
"$ASTGREP" --version >/dev/null 2>&1 || { echo "bench-speed: ast-grep unavailable (npm install @ast-grep/cli@0.51.1 failed or npm is missing); skipping it" >&2; ASTGREP=""; }

exec go run ./benchmarks/speed -rg "$RG" -gopls "$GOPLS" -repomix "$REPOMIX" -astgrep "$ASTGREP" "$@"
