# make bench section: rdmatrace's cost with no RDMA connection (issue 14: the tracer and the
# recorder under 1 % of a core at the default counter interval).  It needs the kernel's
# rdma_cma tracepoints and RDMA devices, so tests/vm/guest/22-rdmatrace-bench.sh measures it
# in the QEMU guest (CPU ticks from /proc/PID/stat over 20 idle seconds, two rxe devices);
# this section prints the last figures it wrote ($VM_OUT or the latest harness run), else
# the committed record of the last measurement (tests/bench/50-rdmatrace-vm.txt says when
# and how it was taken), with PASS/MISS against 1 %.
. "$(dirname "$0")/lib.bash"
cd "$BENCH_ROOT" || exit 2
printf '\n== rdmatrace: idle cost (no RDMA connection)\n'

f=${VM_OUT:-tests/vm/work/last/share/out}/22-bench.txt
[ -s "$f" ] || f=tests/bench/50-rdmatrace-vm.txt
if [ ! -s "$f" ]; then
	printf '   %-52s %s\n' "rdmatrace and rdmatrace record, idle" \
		"not measured: run 'VM_ONLY=22-rdmatrace-bench tests/vm/run out.tap' (needs QEMU)"
	exit 0
fi
v() { awk -v k="$1" '$1 == k { print $2 }' "$f"; }
printf '   %-52s %s\n' "QEMU guest ($f)" "$(head -1 "$f" | sed 's/^# //')"
row() {	# LABEL KEY: "P % of a core (T ticks in S s)"
	printf '   %-52s %s %% of a core (%s ticks in %s s)\n' "$1" "$(v "$2"_cpu_pct)" "$(v "$2"_ticks)" "$(v "$2"_secs)"
}
row "rdmatrace (live events)" trace
row "rdmatrace record --ring 1M FILE (counters every 1 s)" record
[ -n "$(v record_10hz_cpu_pct)" ] && row "  the same at --counters 0.1" record_10hz
[ -n "$(v record_scan1_cpu_pct)" ] && row "  the same at --gid-scan 1 (a full look a second)" record_scan1
[ -n "$(v record_nocounters_cpu_pct)" ] && row "  the same at --counters 3600 (trace + rtnetlink)" record_nocounters
[ -n "$(v rdmastat_i1_cpu_pct)" ] && row "  for scale: rdmastat -i 1" rdmastat_i1
bench_target "rdmatrace idle < 1 % of a core" "$(v trace_cpu_pct) < 1" "$(v trace_cpu_pct) %"
bench_target "rdmatrace record idle, default interval < 1 % of a core" "$(v record_cpu_pct) < 1" "$(v record_cpu_pct) %"
exit 0
