# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench section: rdmatrace's cost with no RDMA connection (issue 14: the tracer and the
# recorder under 1 % of a core at the default counter interval).  Two measurements, each
# labelled with where it was taken:
#
# 1. Native, on this host (the PASS/MISS line for the recorder): `rdmatrace record --ring 1M
#    FILE` at its defaults (counters every 1 s, a full port/GID look every 60 s) for
#    RDMATRACE_BENCH_SECS (20) idle seconds after 2 s of start-up, against a copy of the rxe
#    sysfs fixture (two devices) whose GID tables are filled to 1024 entries per port as a real
#    rxe port's are (RDMADIAG_SYSFS_ROOT); CPU from /proc/PID/stat (utime + stime ticks) and,
#    finer, /proc/PID/schedstat (run time in ns).  Beside it: --gid-scan 1 (a full look every
#    second: what one costs, of which the default pays a sixtieth), `rdmastat -i 1` on the same
#    tree (reading the same counters once a second), and the recorder's system calls a second
#    (strace -c -f, a separate run).  What this leaves out, and the recorder says so on
#    stderr (printed below): with a sysfs root the counters library asks no netlink, so no
#    RES_QP dump (QP states); and without the kernel's rdma_cma tracepoints (a host without
#    tracefs or rdma_cm) no trace is read.  Its rtnetlink socket is this host's real one.
# 2. In the QEMU guest under TCG emulation (tests/vm/guest/22-rdmatrace-bench.sh: real rxe
#    devices, the rdma_cma tracepoints, RES_QP): the tracer's figure (judged, as the tracer
#    cannot run natively here) and the recorder's, printed with `rdmastat -i 1` of the same
#    boot as their floor: under TCG every system call is dear and the figures move with the
#    host's load.  From $VM_OUT or the latest harness run, else the committed record
#    (tests/bench/50-rdmatrace-vm.txt says when and how it was taken).
. "$(dirname "$0")/lib.bash"
cd "$BENCH_ROOT" || exit 2
printf '\n== rdmatrace: idle cost (no RDMA connection)\n'

IDLE=${RDMATRACE_BENCH_SECS:-20}
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)
# "ticks run_ns" of PID: utime + stime from stat, the run time from schedstat (0 without it)
cpu_of() {
	local s r=0
	read -r -a s < "/proc/$1/stat" || return 1
	[ -r "/proc/$1/schedstat" ] && read -r r _ < "/proc/$1/schedstat"
	echo "$(( s[13] + s[14] )) $r"
}
# idle PID SECS: "ticks run_ns wall_ns" of PID over SECS seconds after 2 s of start-up
idle() {
	local c0 n0 t0 c1 n1 t1
	sleep 2
	read -r c0 n0 <<< "$(cpu_of "$1")" || return 1
	t0=$(date +%s%N)
	sleep "$2"
	read -r c1 n1 <<< "$(cpu_of "$1")" || return 1
	t1=$(date +%s%N)
	echo "$(( c1 - c0 )) $(( n1 - n0 )) $(( t1 - t0 ))"
}
# row LABEL "ticks run_ns wall_ns": "P % of a core (T ticks in S s; run time R %)"
row() {
	local t n w
	read -r t n w <<< "$2"
	printf '   %-52s %s\n' "$1" "$(awk -v t="$t" -v n="$n" -v w="$w" -v hz="$HZ" 'BEGIN {
		printf "%.2f %% of a core (%d ticks in %.2f s; schedstat run time %.3f %%)",
			100 * t / hz / (w / 1e9), t, w / 1e9, 100 * n / w }')"
}
pct() { awk -v t="$1" -v w="$2" -v hz="$HZ" 'BEGIN { printf "%.2f", 100 * t / hz / (w / 1e9) }'; }
stop() { kill -INT "$1" 2> /dev/null; wait "$1" 2> /dev/null; }

printf '   %s\n' "native, this host ($(uname -r), load $(cut -d' ' -f1 /proc/loadavg), $HZ ticks/s):"
if [ ! -x tools/rdmatrace/rdmatrace ] || [ ! -x tools/rdmastat/rdmastat ]; then
	printf '   %-52s %s\n' "rdmatrace record, idle" "not measured: tools not built (make all)"
	echo "rdmatrace record native idle: not measured (tools not built)" >> "$BENCH_FAILS"
else
	tree=$BENCH_WORK/rdmatrace-sysfs ring=$BENCH_WORK/rdmatrace-ring
	rm -rf "$tree" "$ring"*
	cp -a tests/fixtures/sysfs/rxe "$tree" || exit 2
	for g in "$tree"/sys/class/infiniband/*/ports/*/gids; do
		for ((i = 0; i < 1024; i++)); do
			[ -e "$g/$i" ] || echo 0000:0000:0000:0000:0000:0000:0000:0000 > "$g/$i"
		done
	done
	export RDMADIAG_SYSFS_ROOT=$tree
	printf '   %-52s %s\n' "  tree" "$(ls "$tree/sys/class/infiniband" | wc -l) rxe devices of tests/fixtures/sysfs/rxe, $(ls "$tree/sys/class/infiniband/rxe0/ports/1/gids" | wc -l) GID entries per port"

	tools/rdmatrace/rdmatrace record --ring 1M "$ring" > /dev/null 2> "$BENCH_WORK/rdmatrace-record.err" & p=$!
	rec=$(idle $p "$IDLE")
	stop $p
	while read -r l; do
		printf '   %-52s %s\n' "  the recorder said" "${l#rdmatrace: warning: }"
	done < "$BENCH_WORK/rdmatrace-record.err"
	row "rdmatrace record --ring 1M FILE (defaults)" "$rec"
	rm -f "$ring"*
	tools/rdmatrace/rdmatrace record --ring 1M --gid-scan 1 "$ring" > /dev/null 2>&1 & p=$!
	row "  the same at --gid-scan 1 (a full look a second)" "$(idle $p $(( IDLE / 2 )))"
	stop $p
	rm -f "$ring"*
	tools/rdmastat/rdmastat -i 1 > /dev/null 2>&1 & p=$!
	row "  for scale: rdmastat -i 1 on the same tree" "$(idle $p "$IDLE")"
	stop $p
	if command -v strace > /dev/null; then	# attached after the start-up, like idle()
		tools/rdmatrace/rdmatrace record --ring 1M "$ring" > /dev/null 2>&1 & p=$!
		sleep 2
		strace -c -f -p $p -o "$BENCH_WORK/rdmatrace-strace" 2> /dev/null & sp=$!
		sleep $(( IDLE / 2 ))
		kill -INT $sp; wait $sp 2> /dev/null
		stop $p
		calls=$(awk '$NF == "total" { print $4 }' "$BENCH_WORK/rdmatrace-strace")
		printf '   %-52s %s\n' "  system calls (strace -c -f -p, $(( IDLE / 2 )) idle s)" \
			"${calls:-?}, $(awk -v c="${calls:-0}" -v s=$(( IDLE / 2 )) 'BEGIN { printf "%.1f", c / s }') a second"
		rm -f "$ring"*
	fi
	unset RDMADIAG_SYSFS_ROOT
	read -r t _ w <<< "$rec"
	bench_target "rdmatrace record idle, default interval < 1 % of a core (native)" \
		"$(pct "$t" "$w") < 1" "$(pct "$t" "$w") %"
fi

f=${VM_OUT:-tests/vm/work/last/share/out}/22-bench.txt
[ -s "$f" ] || f=tests/bench/50-rdmatrace-vm.txt
printf '   %s\n' "in the QEMU guest, under TCG emulation ($f):"
if [ ! -s "$f" ]; then
	printf '   %-52s %s\n' "rdmatrace and rdmatrace record, idle" \
		"not measured: run 'VM_ONLY=22-rdmatrace-bench tests/vm/run out.tap' (needs QEMU)"
	exit 0
fi
v() { awk -v k="$1" '$1 == k { print $2 }' "$f"; }
printf '   %-52s %s\n' "  guest" "$(head -1 "$f" | sed 's/^# rdmatrace idle CPU in the QEMU guest //')"
grow() {	# LABEL KEY: "P % of a core (T ticks in S s[; W wakeups/s])"
	local w
	w=$(v "$2"_wakeups_per_s)
	printf '   %-52s %s %% of a core (%s ticks in %s s%s)\n' "$1" "$(v "$2"_cpu_pct)" "$(v "$2"_ticks)" \
		"$(v "$2"_secs)" "${w:+; $w wakeups/s}"
}
grow "rdmatrace (live events)" trace
grow "rdmatrace record --ring 1M FILE (counters every 1 s)" record
[ -n "$(v record_10hz_cpu_pct)" ] && grow "  the same at --counters 0.1" record_10hz
[ -n "$(v record_scan1_cpu_pct)" ] && grow "  the same at --gid-scan 1 (a full look a second)" record_scan1
[ -n "$(v record_nocounters_cpu_pct)" ] && grow "  the same at --counters 3600 (trace + rtnetlink)" record_nocounters
[ -n "$(v rdmastat_i1_cpu_pct)" ] && grow "  the floor: rdmastat -i 1 (the same counters)" rdmastat_i1
[ -n "$(v rdmastat_10hz_cpu_pct)" ] && grow "  rdmastat -i 0.1 (the 10 Hz row less RES_QP, ring)" rdmastat_10hz
bench_target "rdmatrace idle < 1 % of a core (guest, TCG)" "$(v trace_cpu_pct) < 1" "$(v trace_cpu_pct) %"
exit 0
