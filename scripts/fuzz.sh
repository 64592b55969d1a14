#!/usr/bin/env bash
# Runs every fuzz target of the module for a bounded time each (make fuzz).
#
# Usage: scripts/fuzz.sh [FUZZTIME] [PACKAGES...]   (defaults: 6s ./...)
#
# A target fails the run when it finds an input that breaks it (the input
# is written under the package's testdata/fuzz/, to be kept as a seed once
# fixed). Go's fuzzing coordinator before Go 1.27 can also fail a target
# with a bare "context deadline exceeded" when -fuzztime runs out while a
# worker is still busy (go.dev/issue/75804): no input is at fault and none
# is written. Such a run is tried again, at most twice, and said so.
set -euo pipefail

GO="${GO:-go}"
fuzztime="${1:-6s}"
shift || true
pkgs=("${@:-./...}")
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

for pkg in $("$GO" list "${pkgs[@]}"); do
	for t in $("$GO" test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz $pkg $t ($fuzztime)"
		for try in 1 2 3; do
			if "$GO" test -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" "$pkg" >"$log" 2>&1; then
				break
			fi
			if grep -q '^    context deadline exceeded$' "$log" && ! grep -q 'Failing input written to' "$log" && [ "$try" -lt 3 ]; then
				echo "  the fuzzing coordinator stopped on its own deadline (go.dev/issue/75804), no input at fault; running $t again"
				continue
			fi
			cat "$log"
			exit 1
		done
	done
done
