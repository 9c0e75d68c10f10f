#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Run the bats tier (tests/bats/*.bats) with TAP output into one file.
# With GNU parallel (Debian's parallel, which bats --jobs needs) the files run BATS_JOBS at a
# time (default: one per CPU), each file's tests in order: most tests wait on the tools they
# run, so two files at once on two cores take about half the time of one after the other
# (15 min -> 7 min here).  Every test waits on real signals, never a guessed time, so that
# one running beside another still passes; BATS_JOBS=1 runs them one after the other.
out=$1
files=$(ls tests/bats/*.bats 2>/dev/null)
[ -n "$files" ] || { : > "$out"; echo "bats: no tests"; exit 0; }
jobs=${BATS_JOBS:-$(nproc 2>/dev/null || echo 1)}
par=
if [ "$jobs" -gt 1 ] && command -v parallel >/dev/null 2>&1; then
	par="--jobs $jobs --no-parallelize-within-files"
fi
# bats-core finds bats-support/bats-assert through BATS_LIB_PATH (Debian: /usr/lib/bats);
# --timing: each test's time in its TAP line, to find the slow ones
# shellcheck disable=SC2086	# $par and $files are lists on purpose
BATS_LIB_PATH=${BATS_LIB_PATH:-/usr/lib/bats} bats $par --timing --tap $files > "$out" 2>&1
rc=$?
grep -E '^not ok' -A14 "$out" >&2
printf 'bats: %s passed, %s failed\n' "$(grep -c '^ok' "$out")" "$(grep -c '^not ok' "$out")"
exit $rc
