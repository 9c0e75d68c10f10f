# Helpers for the `make bench` sections (tests/bench/*.sh), sourced by each section.
# tests/bench/run exports:
#   BENCH_ROOT   the source tree            BENCH_WORK   scratch dir (git-ignored)
#   BENCH_PCAP   the big RoCEv2 capture     BENCH_N      its packet count
#   BENCH_SUB    its first BENCH_SUB_N packets (for the slow tools)
#   BENCH_LOOP   the bare libpcap read loop (tests/bench/pcaploop.c, built)
#   BENCH_FAILS  a file: each section appends one line per missed target or failed command
#
#   bench_section "title"
#   bench_time KEY "label" PACKETS cmd args...   run once, stdout to /dev/null; sets
#                                                SEC[KEY], PPS[KEY], RSS_KIB[KEY]; prints a row
#   bench_target "text" "awk-expression" "measured text"   PASS/MISS line (MISS is recorded)
declare -A SEC PPS RSS_KIB

bench_section() {
	printf '\n== %s\n' "$1"
	printf '   %-44s %10s %14s %10s\n' "what" "seconds" "packets/s" "peak RSS"
}

bench_time() {
	local key=$1 label=$2 n=$3 t0 t1 rc rss
	shift 3
	t0=$(date +%s%N)
	/usr/bin/time -f '%M' -o "$BENCH_WORK/.rss" "$@" > /dev/null 2> "$BENCH_WORK/.err"
	rc=$?
	t1=$(date +%s%N)
	rss=$(tail -1 "$BENCH_WORK/.rss" 2>/dev/null)
	case $rss in ''|*[!0-9]*) rss=0 ;; esac
	SEC[$key]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	if [ "$rc" -ne 0 ]; then
		PPS[$key]=0
		RSS_KIB[$key]=0
		printf '   %-44s FAILED (exit %d): %s\n' "$label" "$rc" "$(head -c 300 "$BENCH_WORK/.err" | tr '\n' ' ')"
		echo "$label: command failed (exit $rc)" >> "$BENCH_FAILS"
		return 1
	fi
	PPS[$key]=$(awk -v n="$n" -v s="${SEC[$key]}" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
	RSS_KIB[$key]=$rss
	printf '   %-44s %10s %14s %7.1f MiB\n' "$label" "${SEC[$key]}" \
		"$(printf "%'d" "${PPS[$key]}" 2>/dev/null || echo "${PPS[$key]}")" \
		"$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
}

# ratio A/B of two PPS entries, "n/a" when either is missing or zero
bench_ratio() {
	awk -v a="${PPS[$1]:-0}" -v b="${PPS[$2]:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.1f", a / b; else print "n/a" }'
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
