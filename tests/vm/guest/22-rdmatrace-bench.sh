# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Bench figure that needs the real kernel (tests/bench/50-rdmatrace.sh reports it): the CPU
# that rdmatrace's live tracer and its flight recorder cost with no RDMA connection, as a
# share of one core, from /proc/PID/stat's utime + stime over an idle stretch after their
# start-up.  The recorder runs at its default counter interval (1 s) and --gid-scan (60 s)
# with two rxe devices present, over a 1 MiB ring; then at --counters 0.1 (ten snapshots a
# second, the quick port look still once a second: the difference is nine snapshots' cost);
# at --gid-scan 1 (a full look, discovery and GID diff, every second: what one costs, of which
# the default pays a sixtieth); at --counters 3600 (one snapshot at the start: the trace and
# rtnetlink alone); and, for scale, `rdmastat -i 1` and `rdmastat -i 0.1` (the same counters
# without RES_QP, the ring or the port look: against the 10 Hz row, what those cost).  Each
# row also counts the process's wakeups (voluntary context switches from /proc/PID/status):
# the recorder sleeps in one poll over the trace and rtnetlink until its next snapshot, so at
# --counters 3600 it wakes less than once a second (it was 4 a second with a 250 ms poll of
# the trace), which is checked.  Written to $OUT/22-bench.txt.
# vm-timeout: 180
# A measurement, not a test: main.sh runs it only when asked for (RDMASTAT_BENCH_N, or
# VM_ONLY naming it), never in a plain make check.
have rdmatrace || { tap_skip "rdmatrace bench" "tools/rdmatrace/rdmatrace not built"; exit 0; }
T=/sys/kernel/tracing
mounted=
if ! grep -q " $T tracefs" /proc/mounts; then
	mount -t tracefs nodev $T && mounted=1
fi
IDLE=${RDMATRACE_BENCH_SECS:-20}
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)
ticks() { local s; read -r -a s < "/proc/$1/stat" && echo $(( s[13] + s[14] )); }
wakes() { awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "/proc/$1/status"; }
# idle PID [SECS]: CPU ticks of PID over SECS (default IDLE) seconds once its start-up is
# over (its ftrace instance or ring exists, then 2 s more); "ticks centiseconds wakeups"
idle() {
	local pid=$1 c0 c1 t0 t1 w0 w1
	sleep 2
	c0=$(ticks "$pid") || return 1; t0=$(now_cs); w0=$(wakes "$pid")
	sleep "${2:-$IDLE}"
	c1=$(ticks "$pid") || return 1; t1=$(now_cs); w1=$(wakes "$pid")
	echo "$(( c1 - c0 )) $(( t1 - t0 )) $(( w1 - w0 ))"
}
wps() { awk -v w="$1" -v cs="$2" 'BEGIN { printf "%.2f", w / (cs / 100) }'; }
pct() { awk -v t="$1" -v cs="$2" -v hz="$HZ" 'BEGIN { printf "%.2f", 100 * (t / hz) / (cs / 100) }'; }
devs=$(ls /sys/class/infiniband | wc -l)
gids=$(ls /sys/class/infiniband/$DEV0/ports/1/gids | wc -l)	# the GID table a discovery reads
[ "$(rdma res show cm_id | grep -c .)" = 0 ] || diag "cm_ids present: $(rdma res show cm_id)"

rdmatrace > /dev/null 2> "$OUT/22-trace.err" & tr=$!
await 10 "rdmatrace has its ftrace instance" test -e "$T/instances/rdmadiag-$tr/tracing_on"
read -r tt tcs tw <<< "$(idle $tr)"
kill -INT $tr; wait $tr

ring=/tmp/22-ring
rdmatrace record --ring 1M "$ring" > /dev/null 2> "$OUT/22-record.err" & rec=$!
await 10 "rdmatrace record has its ring" test -s "$ring"
read -r rt rcs rw <<< "$(idle $rec)"
kill -INT $rec; wait $rec
# the same at ten snapshots a second (the quick port look still once a second): what one
# snapshot costs (half the idle time: the figure is ten times larger)
rm -f "$ring"*
rdmatrace record --ring 1M --counters 0.1 "$ring" > /dev/null 2>> "$OUT/22-record.err" & rec=$!
await 10 "rdmatrace record --counters 0.1 has its ring" test -s "$ring"
read -r ft fcs fw <<< "$(idle $rec $(( IDLE / 2 )))"
kill -INT $rec; wait $rec
# the same with a full look every second: what a full look costs
rm -f "$ring"*
rdmatrace record --ring 1M --gid-scan 1 "$ring" > /dev/null 2>> "$OUT/22-record.err" & rec=$!
await 10 "rdmatrace record --gid-scan 1 has its ring" test -s "$ring"
read -r gt gcs gw <<< "$(idle $rec $(( IDLE / 2 )))"
kill -INT $rec; wait $rec
# the same without the counters (one snapshot at the start): the trace and rtnetlink alone
rm -f "$ring"*
rdmatrace record --ring 1M --counters 3600 "$ring" > /dev/null 2>> "$OUT/22-record.err" & rec=$!
await 10 "rdmatrace record --counters 3600 has its ring" test -s "$ring"
read -r nt ncs nw <<< "$(idle $rec)"
kill -INT $rec; wait $rec
# for scale: rdmastat's own loop over the same counters at the same interval (the library's
# snapshot and the deltas, printed; no port discovery)
rdmastat -i 1 > /dev/null 2> "$OUT/22-rdmastat.err" & st=$!
sleep 0.5
read -r qt qcs qw <<< "$(idle $st)"
kill -INT $st; wait $st
rdmastat -i 0.1 > /dev/null 2>> "$OUT/22-rdmastat.err" & st=$!
sleep 0.5
read -r zt zcs zw <<< "$(idle $st $(( IDLE / 4 )))"
kill -INT $st; wait $st
rdmatrace dump -j "$ring" 2>/dev/null | grep -o '"type":"[a-z_]*"' | sort | uniq -c >&2
rm -f "$ring"*
{
	echo "# rdmatrace idle CPU in the QEMU guest (TCG, $(nproc) vCPU, guest load $(cut -d' ' -f1 /proc/loadavg)), $devs RDMA devices ($gids GID table entries per port), no RDMA connection, $HZ ticks/s"
	echo "trace_ticks $tt"
	echo "trace_secs $(awk -v c="$tcs" 'BEGIN { printf "%.2f", c / 100 }')"
	echo "trace_cpu_pct $(pct "$tt" "$tcs")"
	echo "trace_wakeups_per_s $(wps "$tw" "$tcs")"
	echo "record_ticks $rt"
	echo "record_secs $(awk -v c="$rcs" 'BEGIN { printf "%.2f", c / 100 }')"
	echo "record_cpu_pct $(pct "$rt" "$rcs")"
	echo "record_wakeups_per_s $(wps "$rw" "$rcs")"
	echo "record_10hz_ticks $ft"
	echo "record_10hz_secs $(awk -v c="$fcs" 'BEGIN { printf "%.2f", c / 100 }')"
	echo "record_10hz_cpu_pct $(pct "$ft" "$fcs")"
	echo "record_10hz_wakeups_per_s $(wps "$fw" "$fcs")"
	echo "record_scan1_ticks $gt"
	echo "record_scan1_secs $(awk -v c="$gcs" 'BEGIN { printf "%.2f", c / 100 }')"
	echo "record_scan1_cpu_pct $(pct "$gt" "$gcs")"
	echo "record_scan1_wakeups_per_s $(wps "$gw" "$gcs")"
	echo "record_nocounters_ticks $nt"
	echo "record_nocounters_secs $(awk -v c="$ncs" 'BEGIN { printf "%.2f", c / 100 }')"
	echo "record_nocounters_cpu_pct $(pct "$nt" "$ncs")"
	echo "record_nocounters_wakeups_per_s $(wps "$nw" "$ncs")"
	echo "rdmastat_i1_ticks $qt"
	echo "rdmastat_i1_secs $(awk -v c="$qcs" 'BEGIN { printf "%.2f", c / 100 }')"
	echo "rdmastat_i1_cpu_pct $(pct "$qt" "$qcs")"
	echo "rdmastat_i1_wakeups_per_s $(wps "$qw" "$qcs")"
	echo "rdmastat_10hz_ticks $zt"
	echo "rdmastat_10hz_secs $(awk -v c="$zcs" 'BEGIN { printf "%.2f", c / 100 }')"
	echo "rdmastat_10hz_cpu_pct $(pct "$zt" "$zcs")"
	echo "rdmastat_10hz_wakeups_per_s $(wps "$zw" "$zcs")"
} > "$OUT/22-bench.txt"
sed 's/^/# /' "$OUT/22-bench.txt"
tap_check "bench measured: rdmatrace $(pct "$tt" "$tcs") %, rdmatrace record $(pct "$rt" "$rcs") % of a core idle" \
	[ -n "$tt" ] && [ -n "$rt" ] && [ "$tcs" -gt 0 ] && [ "$rcs" -gt 0 ]
tap_check "rdmatrace record --counters 3600 idle wakes less than once a second (one poll over the trace and rtnetlink): $(wps "$nw" "$ncs")/s" \
	awk -v w="$nw" -v cs="$ncs" 'BEGIN { exit !(cs > 0 && w / (cs / 100) < 1) }'
[ -n "$mounted" ] && umount $T
exit 0
