# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Helpers for the `make bench` sections (tests/bench/*.sh), sourced by each section.
# tests/bench/run exports:
#   BENCH_ROOT   the source tree            BENCH_WORK   scratch dir (git-ignored)
#   BENCH_PCAP   the big RoCEv2 capture     BENCH_N      its packet count
#   BENCH_SUB    its first BENCH_SUB_N packets (for the slow tools)
#   BENCH_LOOP   the bare libpcap read loop (tests/bench/pcaploop.c, built)
#   BENCH_FAILS  a file: each section appends one line per missed target or failed command
#
#   bench_section "title"
#   bench_time KEY "label" PACKETS cmd args...   run BENCH_REPEAT times (default 3), stdout to
#                         /dev/null, and keep the run with the least CPU time (every command gets
#                         the same treatment: the machine's speed drifts between runs); sets
#                         SEC[KEY] (wall), CPU[KEY] (user+sys), PPS[KEY] (packets per wall
#                         second), CPPS[KEY] (packets per CPU second), RSS_KIB[KEY]; prints a row
#   bench_ratio A B [cpu|wall]   PPS ratio A/B ("n/a" when one is missing)
#   bench_target "text" "awk-expression" "measured text"   PASS/MISS line (MISS is recorded)
# The machine is shared (other builds and VMs run beside the bench), so wall-clock rates move
# with the load; CPU time (user+sys of the process) moves much less.  Rows show both.
# A section run on its own (bash tests/bench/NN-name.sh) has none of them from tests/bench/run:
# the tree is this file's, scratch is tests/bench/work, and missed targets are only printed.
: "${BENCH_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${BENCH_WORK:=$BENCH_ROOT/tests/bench/work}"
: "${BENCH_FAILS:=/dev/null}"
mkdir -p "$BENCH_WORK" || exit 2
declare -A SEC CPU PPS CPPS RSS_KIB

bench_section() {
	printf '\n== %s\n' "$1"
	printf '   %-44s %8s %8s %13s %13s %9s\n' "what" "wall s" "CPU s" "pkt/s (wall)" "pkt/s (CPU)" "peak RSS"
}

bench_time() {
	local key=$1 label=$2 n=$3 rc m tm r best="" cpu TIMEFORMAT='%3R %3U %3S'
	shift 3
	for ((r = 0; r < ${BENCH_REPEAT:-3}; r++)); do
		# bash's time gives wall, user and sys in ms; /usr/bin/time inside it the peak RSS
		{ time /usr/bin/time -f '%M' -o "$BENCH_WORK/.rss" "$@" > /dev/null 2> "$BENCH_WORK/.err"; } \
			2> "$BENCH_WORK/.time"
		rc=$(awk '/exited with non-zero status/ { print $NF; exit }' "$BENCH_WORK/.rss")
		rc=${rc:-0}
		m=$(tail -1 "$BENCH_WORK/.rss" 2>/dev/null)
		tm=$(tail -1 "$BENCH_WORK/.time")
		[ "$rc" -ne 0 ] || [ -z "$m" ] && break
		cpu=$(awk -v t="$tm" 'BEGIN { split(t, a, " "); printf "%.3f", a[2] + a[3] }')
		if [ -z "$best" ] || awk -v a="$cpu" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
			best="$cpu $tm $m"
		fi
	done
	if [ -n "$best" ] && [ "$rc" -eq 0 ] && [ -n "$m" ]; then
		# shellcheck disable=SC2086	# five numbers, split on purpose
		set -- $best
		m=$5
		tm="$2 $3 $4"
	fi
	# shellcheck disable=SC2086	# three numbers, split on purpose
	set -- $tm
	SEC[$key]=$1
	CPU[$key]=$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%.3f", u + s }')
	if [ "$rc" -ne 0 ] || [ -z "$m" ]; then
		PPS[$key]=0
		CPPS[$key]=0
		RSS_KIB[$key]=0
		printf '   %-44s FAILED (exit %s): %s\n' "$label" "$rc" "$(head -c 300 "$BENCH_WORK/.err" | tr '\n' ' ')"
		echo "$label: command failed (exit $rc)" >> "$BENCH_FAILS"
		return 1
	fi
	RSS_KIB[$key]=$m
	PPS[$key]=$(awk -v n="$n" -v s="${SEC[$key]}" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
	CPPS[$key]=$(awk -v n="$n" -v s="${CPU[$key]}" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
	printf '   %-44s %8s %8s %13s %13s %5.1f MiB\n' "$label" "${SEC[$key]}" "${CPU[$key]}" \
		"${PPS[$key]}" "${CPPS[$key]}" "$(awk -v k="${RSS_KIB[$key]}" 'BEGIN { print k / 1024 }')"
}

bench_ratio() {
	local a b
	if [ "${3:-cpu}" = wall ]; then a=${PPS[$1]:-0}; b=${PPS[$2]:-0}; else a=${CPPS[$1]:-0}; b=${CPPS[$2]:-0}; fi
	awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0 && b > 0) printf (a / b < 1 ? "%.2f" : "%.1f"), a / b; else print "n/a" }'
}

bench_target() {
	local text=$1 expr=$2 measured=$3
	if awk "BEGIN { exit !($expr) }" 2>/dev/null; then
		printf '   PASS  %-52s %s\n' "$text" "$measured"
	else
		printf '   MISS  %-52s %s\n' "$text" "$measured"
		echo "$text: $measured" >> "$BENCH_FAILS"
	fi
}
