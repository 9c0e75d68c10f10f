#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Run the bats tier (tests/bats/*.bats) with TAP output into one file.
out=$1
files=$(ls tests/bats/*.bats 2>/dev/null)
[ -n "$files" ] || { : > "$out"; echo "bats: no tests"; exit 0; }
# bats-core finds bats-support/bats-assert through BATS_LIB_PATH (Debian: /usr/lib/bats)
BATS_LIB_PATH=${BATS_LIB_PATH:-/usr/lib/bats} bats --tap $files > "$out" 2>&1
rc=$?
grep -E '^not ok' -A8 "$out" >&2
printf 'bats: %s passed, %s failed\n' "$(grep -c '^ok' "$out")" "$(grep -c '^not ok' "$out")"
exit $rc
