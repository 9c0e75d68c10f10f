# Bench figure that needs the real kernel (tests/bench/rdmastat.sh reports it): the wall time
# of one full counter snapshot through netlink, `rdmastat -j --source netlink`, against
# `rdma -j statistic show` on the same two rxe devices; both are whole processes (exec,
# netlink dump, JSON), run back to back N times.  Written to $OUT/21-bench.txt.
# vm-timeout: 120
have rdmastat || { tap_skip "rdmastat bench" "tools/rdmastat not built"; exit 0; }
N=${RDMASTAT_BENCH_N:-25}	# TCG: each run is tens of ms; the VM has a hard limit
ns() { echo $(( ${EPOCHREALTIME/./} * 1000 )); }	# busybox date has no %N
run() {	# CMD... -> ns per run
	local i t0 t1
	"$@" > /dev/null 2>&1	# warm the page cache
	t0=$(ns)
	for ((i = 0; i < N; i++)); do "$@" > /dev/null 2>&1; done
	t1=$(ns)
	echo $(( (t1 - t0) / N ))
}
a=$(run rdma -j statistic show)
b=$(run rdmastat -j --source netlink)
c=$(run rdmastat -j)
# process start-up alone (dynamic loading: rdmastat pulls in librdmadiag's 18 libraries,
# rdma 6), so that the netlink work itself can be compared too
a0=$(run rdma -V)
b0=$(run rdmastat --version)
ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')
{
	echo "# rdmastat bench in the QEMU guest (TCG, $(nproc) vCPU), $N runs each, two rxe devices"
	echo "rdma_statistic_show_us $((a / 1000))"
	echo "rdmastat_netlink_us $((b / 1000))"
	echo "rdmastat_auto_us $((c / 1000))"
	echo "ratio_netlink $ratio"
	echo "rdma_startup_us $((a0 / 1000))"
	echo "rdmastat_startup_us $((b0 / 1000))"
	echo "ratio_net_of_startup $(awk -v a="$((a - a0))" -v b="$((b - b0))" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "n/a" }')"
} > "$OUT/21-bench.txt"
cat "$OUT/21-bench.txt" | sed 's/^/# /'
tap_check "bench measured: rdmastat --source netlink $((b / 1000)) us vs rdma statistic show $((a / 1000)) us per snapshot (ratio $ratio)" \
	[ "$a" -gt 0 ] && [ "$b" -gt 0 ]
