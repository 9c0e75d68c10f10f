# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench section: Ethernet statistics (ethtool -S) of one netdev with 20 000 and 60 000
# names (mlx5 with many channels has thousands; issue 27 measured 5 s per sample at 20 000).
# rdmastat on the OFED fixture tree (DCB: dcb-pfc3.rec) with an ethtool replay (tests/bench/mk_ethstats.py):
# one sample (--eth), two with every statistic's delta (--eth -i -j), and fabric -i (the
# chain and the per-priority table over two samples).  Best CPU of BENCH_REPEAT runs.
# Targets: a sample grows with the number of statistics, not its square (the CPU of 60 000
# under 4.5 times that of 20 000: 3 is linear, 9 quadratic), and 60 000 under 1 s.
# shellcheck source=lib.bash
. "$(dirname "$0")/lib.bash"
cd "$BENCH_ROOT" || exit 2
W=$BENCH_WORK/ethstats
mkdir -p "$W"
printf '\n== rdmastat: Ethernet statistics of one netdev, 20 000 and 60 000 names\n'
printf '   %-44s %8s %8s %13s %13s %9s\n' "what" "wall s" "CPU s" "stats/s (wall)" "stats/s (CPU)" "peak RSS"
export RDMADIAG_SYSFS_ROOT=$BENCH_ROOT/tests/fixtures/fabric/ofed
export RDMADIAG_NL_REPLAY=$BENCH_ROOT/tests/fixtures/fabric/dcb-pfc3.rec
S=$BENCH_ROOT/tools/rdmastat/rdmastat
for n in 20000 60000; do
	f=$W/eth-$n.txt
	[ -s "$f" ] && [ "$f" -nt tests/bench/mk_ethstats.py ] ||
		/usr/bin/python3 tests/bench/mk_ethstats.py "$n" "$f" ||
		{ echo "ethstats: mk_ethstats.py failed" >> "$BENCH_FAILS"; exit 1; }
	export RDMADIAG_ETHTOOL_REPLAY=$f
	bench_time "eth$n" "rdmastat --eth, $n statistics" "$n" "$S" --eth
	bench_time "delta$n" "rdmastat --eth -i 0.01 -n 1 -j, $n" "$((2 * n))" "$S" --eth -i 0.01 -n 1 -j
	bench_time "fabric$n" "rdmastat fabric -i 0.01, $n" "$((2 * n))" "$S" fabric -i 0.01
done
for k in eth delta fabric; do
	a=${CPU[${k}60000]:-0} b=${CPU[${k}20000]:-0}
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 99) }')
	bench_target "$k: CPU of 60 000 statistics <= 4.5 x 20 000" "$r <= 4.5" "x $r"
done
bench_target "fabric -i over 60 000 statistics under 1 s of CPU" "${CPU[fabric60000]} < 1" \
	"${CPU[fabric60000]} s"
