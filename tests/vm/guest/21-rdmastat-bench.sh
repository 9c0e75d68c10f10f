# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Bench figure that needs the real kernel (tests/bench/20-rdmastat.sh reports it): the wall
# time of one full counter snapshot through netlink, `rdmastat -j --source netlink`, against
# `rdma -j statistic show` on the same two rxe devices.  Both are whole processes (exec,
# dynamic loading, netlink, JSON).  The runs are interleaved (A B A B ...) so that the drift
# of a shared, TCG-emulated CPU hits both alike, and the medians are compared.  Start-up
# alone (`--version` / `-V`) is measured the same way.  Written to $OUT/21-bench.txt.
# vm-timeout: 90
# A measurement, not a test: main.sh runs it only when asked for (RDMASTAT_BENCH_N, or
# VM_ONLY naming it), never in a plain make check.
have rdmastat || { tap_skip "rdmastat bench" "tools/rdmastat/rdmastat not built"; exit 0; }
# runs per figure: RDMASTAT_BENCH_N on the host (tests/vm/run passes it as rdiag.bench_n=)
N=$(sed -n 's/.*rdiag\.bench_n=\([0-9]*\).*/\1/p' /proc/cmdline)
N=${N:-11}
us() { local t=${EPOCHREALTIME/./}; echo "$t"; }	# busybox date has no %N
once() {	# CMD... -> microseconds of one run
	local t0 t1
	t0=$(us); "$@" > /dev/null 2>&1; t1=$(us)
	echo $((t1 - t0))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: > /tmp/b.a; : > /tmp/b.b; : > /tmp/b.a0; : > /tmp/b.b0
rdma -j statistic show > /dev/null; rdmastat -j --source netlink > /dev/null	# warm up
for ((i = 0; i < N; i++)); do
	once rdma -j statistic show >> /tmp/b.a
	once rdmastat -j --source netlink >> /tmp/b.b
	once rdma -V >> /tmp/b.a0
	once rdmastat --version >> /tmp/b.b0
done
a=$(median < /tmp/b.a); b=$(median < /tmp/b.b); a0=$(median < /tmp/b.a0); b0=$(median < /tmp/b.b0)
ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')
{
	echo "# rdmastat bench in the QEMU guest (TCG, $(nproc) vCPU, guest load $(cut -d' ' -f1 /proc/loadavg)), median of $N interleaved runs, two rxe devices"
	echo "rdma_statistic_show_us $a"
	echo "rdmastat_netlink_us $b"
	echo "ratio_netlink $ratio"
	echo "rdma_startup_us $a0"
	echo "rdmastat_startup_us $b0"
	echo "rdma_work_us $((a - a0))"
	echo "rdmastat_work_us $((b - b0))"
} > "$OUT/21-bench.txt"
sed 's/^/# /' "$OUT/21-bench.txt"
tap_check "bench measured: rdmastat --source netlink ${b} us vs rdma statistic show ${a} us (median, ratio $ratio)" \
	[ "$a" -gt 0 ] && [ "$b" -gt 0 ]
