#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs each libFuzzer target for FUZZ_TIME seconds (one after the other) and prints one table:
#   target, executions, executions per second, edges covered of instrumented, corpus size,
#   crashes.
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS TARGET...
# What a run finds goes to BUILD_DIR/corpus-TARGET/, a crash to BUILD_DIR/crash-TARGET-*,
# the log to BUILD_DIR/fuzz_TARGET.log.  Exit 1 when a target crashed.
# FUZZ_FLAGS adds libFuzzer options (e.g. FUZZ_FLAGS=-jobs=2).
set -u
fb=$1 secs=$2
shift 2
rows=
fail=0
for t in "$@"; do
	mkdir -p "$fb/corpus-$t"
	seeds=tests/fuzz/corpus-$t
	[ -d "$seeds" ] || seeds=
	log=$fb/fuzz_$t.log
	before=$(ls "$fb" | grep -c "^crash-$t-" || true)
	printf '  FUZZ   fuzz_%s for %s s (log: %s)\n' "$t" "$secs" "$log" >&2
	# shellcheck disable=SC2086
	"$fb/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$fb/crash-$t-" ${FUZZ_FLAGS:-} "$fb/corpus-$t" $seeds > "$log" 2>&1
	rc=$?
	after=$(ls "$fb" | grep -c "^crash-$t-" || true)
	crashes=$((after - before))
	[ $rc -ne 0 ] && [ $crashes -eq 0 ] && crashes=1
	[ $crashes -ne 0 ] && fail=1
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	total=$(sed -n 's/.*Loaded [0-9]* modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" | head -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	corp=$(grep -o 'corp: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	rows="$rows$(printf '%-10s %12s %8s %7s/%-7s %7s %7s' "$t" "${execs:-?}" "${rate:-?}" \
		"${cov:-?}" "${total:-?}" "${corp:-?}" "$crashes")
"
	if [ $crashes -ne 0 ]; then
		tail -n 30 "$log" >&2
		echo "fuzz_$t: CRASHED, reproducer in $fb/crash-$t-*" >&2
	fi
done
printf '%-10s %12s %8s %15s %7s %7s\n' target execs exec/s edges/instr corpus crashes
printf '%s' "$rows"
exit $fail
